import type { PaymentState } from '@travel/contract';
/**
 * The payment state machine (openapi `PaymentState`). Every refused move is a 400 with a stable code.
 * A partial refund keeps CAPTURED/SETTLED (refunded_minor grows); the refund that leaves nothing
 * refundable moves to REFUNDED.
 */
import { badRequest, type ErrorCode } from '../../../kernel/errors.ts';

// The contract's enum (`@travel/contract`), not a copy of it.
export { PAYMENT_STATES, type PaymentState } from '@travel/contract';

export type PaymentEvent =
  | 'authorize_succeeded'
  | 'authorize_failed'
  | 'capture'
  | 'void'
  | 'refund_partial'
  | 'refund_full'
  | 'settle';

interface Row {
  from: readonly PaymentState[];
  to: PaymentState | 'same';
  /** The code of the 400 for a state that may not take the event (default invalid_payment_state). */
  refusals?: Partial<Record<PaymentState, ErrorCode>>;
}

export const PAYMENT_TRANSITIONS: Record<PaymentEvent, Row> = {
  authorize_succeeded: { from: ['PENDING'], to: 'AUTHORIZED' },
  authorize_failed: { from: ['PENDING'], to: 'FAILED' },
  capture: { from: ['AUTHORIZED'], to: 'CAPTURED' },
  void: {
    from: ['AUTHORIZED'],
    to: 'VOIDED',
    refusals: { CAPTURED: 'already_captured', SETTLED: 'already_captured' },
  },
  refund_partial: { from: ['CAPTURED', 'SETTLED'], to: 'same', refusals: { AUTHORIZED: 'not_captured' } },
  refund_full: { from: ['CAPTURED', 'SETTLED'], to: 'REFUNDED', refusals: { AUTHORIZED: 'not_captured' } },
  settle: { from: ['CAPTURED'], to: 'SETTLED' },
};

export function paymentRefusal(from: PaymentState, event: PaymentEvent): ErrorCode | null {
  const row = PAYMENT_TRANSITIONS[event];
  if (row.from.includes(from)) return null;
  return row.refusals?.[from] ?? 'invalid_payment_state';
}

/** The state `event` moves a payment in `from` to; throws the 400 of the refusal. */
export function nextPaymentState(from: PaymentState, event: PaymentEvent): PaymentState {
  const code = paymentRefusal(from, event);
  if (code) throw badRequest(code, `A payment in state ${from} cannot take ${event.replace(/_/g, ' ')}.`);
  const to = PAYMENT_TRANSITIONS[event].to;
  return to === 'same' ? from : to;
}

/** A payment that holds or took money: a booking has at most one of these at a time. */
export const isLivePayment = (s: string) =>
  s === 'PENDING' || s === 'AUTHORIZED' || s === 'CAPTURED' || s === 'SETTLED';
