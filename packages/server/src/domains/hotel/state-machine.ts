/**
 * The hotel booking state machine: the one table every operation (book, reconciliation, cancel, admin
 * override) goes through to move a hotel booking. Statuses are the contract's `HotelBookingStatus`.
 * A booking is born `pending` (written before the supplier is called) and settles from there.
 */
import { badRequest } from '../../kernel/errors.ts';

export const HOTEL_BOOKING_STATUSES = [
  'pending',
  'confirmed',
  'on_request',
  'cancelled',
  'rejected',
  'failed',
] as const;
export type HotelBookingStatus = (typeof HOTEL_BOOKING_STATUSES)[number];

export type HotelBookingEvent =
  | 'supplier_confirmed'
  | 'supplier_on_request'
  | 'supplier_rejected'
  | 'supplier_failed'
  | 'supplier_cancelled'
  | 'cancel'
  | 'override';

const ALL = HOTEL_BOOKING_STATUSES;

/** event -> the statuses it may leave from, and where it goes ('given' = the caller names the target). */
export const HOTEL_TRANSITIONS: Record<
  HotelBookingEvent,
  { from: readonly HotelBookingStatus[]; to: HotelBookingStatus | 'given' }
> = {
  // the supplier's answer to book, or reconciliation's finding; on_request confirms later
  supplier_confirmed: { from: ['pending', 'on_request'], to: 'confirmed' },
  supplier_on_request: { from: ['pending'], to: 'on_request' },
  supplier_rejected: { from: ['pending'], to: 'rejected' },
  // no reservation exists at the supplier (definitive refusal other than a rejection, or never found)
  supplier_failed: { from: ['pending'], to: 'failed' },
  // reconciliation finds the supplier already cancelled it
  supplier_cancelled: { from: ['pending', 'confirmed', 'on_request'], to: 'cancelled' },
  // a pending booking cannot be cancelled: we do not yet know whether the supplier holds it
  cancel: { from: ['confirmed', 'on_request'], to: 'cancelled' },
  // the admin's audited escape hatch: any status to any status
  override: { from: ALL, to: 'given' },
};

export function canTransition(from: HotelBookingStatus, event: HotelBookingEvent): boolean {
  return HOTEL_TRANSITIONS[event].from.includes(from);
}

/** Where `event` moves a booking in `from`; 400 `invalid_booking_state` when it may not. */
export function nextHotelStatus(
  from: HotelBookingStatus,
  event: HotelBookingEvent,
  given?: HotelBookingStatus,
): HotelBookingStatus {
  const row = HOTEL_TRANSITIONS[event];
  if (!row.from.includes(from)) {
    throw badRequest(
      'invalid_booking_state',
      `A hotel booking in status ${from} cannot take ${event.replace(/_/g, ' ')}.`,
    );
  }
  if (row.to !== 'given') return row.to;
  if (!given) throw new Error(`${event} needs a target status`);
  return given;
}

export const isHotelBookingStatus = (s: string): s is HotelBookingStatus =>
  (HOTEL_BOOKING_STATUSES as readonly string[]).includes(s);
