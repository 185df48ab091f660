/**
 * The state machine of a single-supplier reservation (hotel and ground-transfer bookings): the one table
 * every operation (book, reconciliation, cancel, admin override) goes through to move one. Statuses are
 * the contract's `HotelBookingStatus` / `TransportBookingStatus`, which are the same six. A booking is born
 * `pending` (written before the supplier is called) and settles from there.
 */
import { SERVICE_BOOKING_STATUSES } from '@travel/contract';
import { badRequest } from '../../kernel/errors.ts';
import type { BookingKind } from './kind.ts';

/** The contract's hotel and transport booking statuses (`ServiceBookingStatus`). */
export const RESERVATION_STATUSES = SERVICE_BOOKING_STATUSES;
export type ReservationStatus = (typeof RESERVATION_STATUSES)[number];

export type ReservationEvent =
  | 'supplier_confirmed'
  | 'supplier_on_request'
  | 'supplier_rejected'
  | 'supplier_failed'
  | 'supplier_cancelled'
  | 'cancel'
  | 'override';

/** event -> the statuses it may leave from, and where it goes ('given' = the caller names the target). */
export const RESERVATION_TRANSITIONS: Record<
  ReservationEvent,
  { from: readonly ReservationStatus[]; to: ReservationStatus | 'given' }
> = {
  // the supplier's answer to book, or reconciliation's finding; on_request (held by the provider) confirms later
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
  override: { from: RESERVATION_STATUSES, to: 'given' },
};

/**
 * Where `event` moves a booking in `from`; 400 `invalid_booking_state` (naming the `noun`, e.g. "hotel
 * booking") when it may not.
 */
export function nextReservationStatus(
  noun: string,
  from: ReservationStatus,
  event: ReservationEvent,
  given?: ReservationStatus,
): ReservationStatus {
  const row = RESERVATION_TRANSITIONS[event];
  if (!row.from.includes(from)) {
    throw badRequest(
      'invalid_booking_state',
      `A ${noun} in status ${from} cannot take ${event.replace(/_/g, ' ')}.`,
    );
  }
  if (row.to !== 'given') return row.to;
  if (!given) throw new Error(`${event} needs a target status`);
  return given;
}

/** The state machine bound to one kind of booking (its refusals name the kind). */
export const nextStatus =
  (k: BookingKind) =>
  (from: ReservationStatus, event: ReservationEvent, given?: ReservationStatus): ReservationStatus =>
    nextReservationStatus(k.noun, from, event, given);
