import { badRequest, type ErrorCode } from '../../../kernel/errors.ts';
import type { Db } from '../../../storage/schema.ts';
import { SupplierError } from '../../../suppliers/ports/errors.ts';
import type { BookingDeps } from '../deps.ts';
import { isAmbiguous, type MoveResult } from '../money-ops.ts';
import type { BookingRow } from '../store.ts';
import { pspKey } from './psp-keys.ts';
import { nextPaymentState } from './state-machine.ts';
import { insertTransaction, type PaymentRow } from './store.ts';

export type Movement = 'capture' | 'void' | 'refund';

/** A movement decided under the booking lock, its pending transaction row already committed. */
export interface MovePlan {
  kind: Movement;
  payment: PaymentRow;
  amount: number;
  reason: string | null;
  /** Our key; the provider gets it prefixed with the installation (psp-keys.ts). */
  key: string;
  /** When the op was written (settling an old op): one written before the installation keeps a bare key. */
  writtenAt?: Date;
}

export const FAILED_CODE: Record<Movement, ErrorCode> = {
  capture: 'capture_failed',
  void: 'void_failed',
  refund: 'refund_failed',
};

export function movementDetail(pl: MovePlan): Record<string, unknown> {
  return { movement: pl.kind, amount_minor: pl.amount, reason: pl.reason, key: pl.key };
}

/**
 * Decides a movement under the booking lock (`trx` holds it): the state table's refusals, the amounts,
 * then the pending transaction row. Used by capture/void/refund, ticketing, cancel and manual refunds.
 */
export async function planMovement(
  d: BookingDeps,
  trx: Db,
  b: BookingRow,
  p: PaymentRow,
  kind: Movement,
  amount: number | undefined,
  reason: string | undefined | null,
  key: string,
): Promise<MovePlan> {
  let amt: number;
  if (kind === 'capture') {
    nextPaymentState(p.state, 'capture');
    const capturable = p.amount_minor - p.captured_minor;
    amt = amount ?? capturable;
    if (amt > capturable)
      throw badRequest('amount_exceeds_capturable', `At most ${capturable} minor units can be captured.`);
  } else if (kind === 'void') {
    nextPaymentState(p.state, 'void');
    amt = p.amount_minor;
  } else {
    const refundable = p.captured_minor - p.refunded_minor;
    amt = amount ?? refundable;
    nextPaymentState(p.state, amt >= refundable ? 'refund_full' : 'refund_partial');
    if (amt > refundable)
      throw badRequest('amount_exceeds_refundable', `At most ${refundable} minor units can be refunded.`);
  }
  await insertTransaction(
    trx,
    {
      payment_id: p.id,
      booking_id: b.id,
      type: kind,
      status: 'pending',
      amount_minor: amt,
      currency: p.currency,
      provider_ref: kind === 'refund' ? null : p.provider_payment_ref,
      reason: reason ?? null,
      idempotency_key: key,
    },
    d.clock.now(),
  );
  return { kind, payment: p, amount: amt, reason: reason ?? null, key };
}

/** The provider call of a planned movement; never throws for a provider failure. */
export async function callMovement(
  d: BookingDeps,
  plan: MovePlan,
  signal?: AbortSignal,
): Promise<MoveResult> {
  const provider = d.suppliers.payments();
  const ref = plan.payment.provider_payment_ref as string;
  const opts = { idempotencyKey: pspKey(d, plan.key, plan.writtenAt), ...(signal ? { signal } : {}) };
  try {
    if (plan.kind === 'capture') {
      const r = await provider.capture(ref, plan.amount, opts);
      return { ok: true, provider_ref: r.payment_ref, amount: r.amount_received_minor || plan.amount };
    }
    if (plan.kind === 'void') {
      const r = await provider.void(ref, plan.reason ?? undefined, opts);
      return { ok: true, provider_ref: r.payment_ref, amount: plan.amount };
    }
    const r = await provider.refund(ref, plan.amount, plan.reason ?? undefined, opts);
    return { ok: true, provider_ref: r.refund_ref, amount: r.amount_minor };
  } catch (err) {
    if (isAmbiguous(err))
      return { ok: false, ambiguous: true, reason: `${plan.kind}: ${err.supplierCode ?? err.kind}` };
    if (err instanceof SupplierError) return { ok: false, ambiguous: false, error: err };
    throw err;
  }
}
