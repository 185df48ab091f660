/**
 * The flight booking state machine: the one table every operation goes through to move a booking.
 * Documented in docs/decisions/0003-booking-states.md. The admin override is the spec's escape hatch and
 * is the only move that does not consult this table.
 */
import type { BookingStatus } from '@travel/contract';
import { badRequest, type ErrorCode } from '../../kernel/errors.ts';

// The contract's enum (`@travel/contract`), not a copy of it.
export { BOOKING_STATUSES, type BookingStatus } from '@travel/contract';

export type BookingEvent =
  | 'pnr_confirmed'
  | 'pnr_held'
  | 'pnr_unknown'
  | 'pnr_rejected'
  | 'await_payment'
  | 'payment_authorized'
  | 'payment_declined'
  | 'payment_captured'
  | 'payment_voided'
  | 'payment_refunded'
  | 'ticket_issued'
  | 'ticket_voided'
  | 'ticket_refunded'
  | 'cancel'
  | 'expire';

type Row = { from: readonly BookingStatus[]; to: BookingStatus | 'same' };

const PAYABLE = ['confirmed', 'on_hold', 'payment_pending', 'payment_failed'] as const;

/** event -> the statuses it may leave from, and where it goes ('same' keeps the status). */
export const BOOKING_TRANSITIONS: Record<BookingEvent, Row> = {
  // createPnr and reconciliation
  pnr_confirmed: { from: ['initiated', 'pending_pnr', 'payment_pending'], to: 'confirmed' },
  pnr_held: { from: ['initiated', 'pending_pnr'], to: 'on_hold' },
  pnr_unknown: { from: ['initiated', 'payment_pending'], to: 'pending_pnr' },
  pnr_rejected: { from: ['initiated', 'pending_pnr', 'payment_pending'], to: 'pnr_failed' },
  // PAYMENT_FIRST: the booking waits for its authorization before any supplier order exists
  await_payment: { from: ['initiated'], to: 'payment_pending' },
  // the booking follows its payment
  payment_authorized: { from: PAYABLE, to: 'payment_pending' },
  payment_declined: { from: PAYABLE, to: 'payment_failed' },
  payment_captured: { from: ['payment_pending', 'ticketed', 'cancelled'], to: 'same' },
  payment_voided: { from: ['payment_pending', 'cancelled', 'pnr_failed'], to: 'same' },
  payment_refunded: { from: ['paid', 'ticketed', 'cancelled'], to: 'refunded' },
  // ticketing (on_hold: PNR_ONLY bookings settled by the agency)
  ticket_issued: { from: ['paid', 'payment_pending', 'on_hold', 'confirmed'], to: 'ticketed' },
  ticket_voided: { from: ['ticketed', 'confirmed', 'paid'], to: 'cancelled' },
  ticket_refunded: { from: ['ticketed', 'confirmed', 'paid'], to: 'refunded' },
  cancel: {
    from: ['initiated', 'on_hold', 'confirmed', 'payment_pending', 'payment_failed', 'paid', 'ticketed'],
    to: 'cancelled',
  },
  expire: { from: ['on_hold', 'confirmed', 'payment_pending', 'payment_failed'], to: 'expired' },
};

/** Special cases of "same": where the payment event does land somewhere else. */
const SAME_OVERRIDES: Partial<Record<BookingEvent, Partial<Record<BookingStatus, BookingStatus>>>> = {
  payment_captured: { payment_pending: 'paid' },
  payment_voided: { payment_pending: 'confirmed' },
};

export function canTransition(from: BookingStatus, event: BookingEvent): boolean {
  return BOOKING_TRANSITIONS[event].from.includes(from);
}

/** The status `event` moves a booking in `from` to; 400 `invalid_booking_state` when it may not. */
export function nextStatus(
  from: BookingStatus,
  event: BookingEvent,
  code: ErrorCode = 'invalid_booking_state',
): BookingStatus {
  const row = BOOKING_TRANSITIONS[event];
  if (!row.from.includes(from)) {
    throw badRequest(code, `A booking in status ${from} cannot take ${event.replace(/_/g, ' ')}.`);
  }
  if (row.to !== 'same') return row.to;
  return SAME_OVERRIDES[event]?.[from] ?? from;
}

/** Where a confirmed void (cancelled) or refund (refunded) leaves the booking; the callers are the ticket
 * paths only (a booking cancelled by the cancel operation settles its payment there). */
export const TICKET_SETTLES: readonly string[] = ['cancelled', 'refunded'];
