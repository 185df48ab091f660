/**
 * `servicing.updated` (issue 30, docs/events.md): a change to what a booking holds besides its status
 * (seats, paid ancillaries, their EMDs, a void/refund request left with a consolidator). Recorded in the
 * transaction that stores the change, under the booking's row lock (its events' versions follow one
 * another); the data is the booking as the API returns it plus `servicing`, what changed. A change that
 * moves the booking's status emits the status's event (booking-events.ts) instead, never both.
 */
import { record } from '../../events/record.ts';
import type { Db } from '../../storage/schema.ts';
import { findBooking } from './store.ts';
import { bookingView } from './view.ts';

export type ServicingChange =
  /** ids: `segment_id/passenger_id/seat_number` of each seat stored. */
  | { kind: 'seats'; action: 'selected' | 'issued'; ids: string[] }
  /** ids: the `ancillary_id`s held by the purchase. */
  | { kind: 'ancillaries'; action: 'purchased'; ids: number[] }
  /** ids: the `ancillary_id`s the cancellation voided (an issued EMD) or removed (an unissued service). */
  | { kind: 'ancillaries'; action: 'voided' | 'removed'; ids: number[] }
  /** ids: the `ancillary_id`s that became issued with their EMD. */
  | { kind: 'emds'; action: 'issued'; ids: number[] }
  /** ids: the consolidator's request id, when it gave one. */
  | { kind: 'servicing_request'; action: 'requested'; type: 'void' | 'refund'; ids: string[] };

/** Records `servicing.updated` for `change` of booking `bookingId` in `trx`, the change's transaction. */
export async function recordServicing(
  trx: Db,
  bookingId: number,
  change: ServicingChange,
  at: Date,
): Promise<void> {
  const b = await findBooking(trx, bookingId, { forUpdate: true });
  if (!b) return;
  await record(trx, {
    type: 'servicing.updated',
    companyId: b.company_id,
    resource: { type: 'booking', id: b.id, data: { ...bookingView(b), servicing: change } },
    at,
  });
}

/** Runs `write` in `db` when it is a transaction already, else in a new one. */
export function inTransaction<T>(db: Db, write: (trx: Db) => Promise<T>): Promise<T> {
  return db.isTransaction ? write(db) : db.transaction().execute(write);
}

export const seatId = (s: { segment_id: string; passenger_id: string; seat_number: string }) =>
  `${s.segment_id}/${s.passenger_id}/${s.seat_number}`;
