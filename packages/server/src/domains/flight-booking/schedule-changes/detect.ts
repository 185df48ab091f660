/**
 * Detection (issue 30): re-reads a live booking's supplier order and records what the airline changed.
 * The supplier call runs outside any transaction; the record runs under the booking's row lock, so two
 * processes finding the same change write it once (and its unique fingerprint backs that up).
 */
import type { BookingStatus } from '@travel/contract';
import type { CallOptions } from '../../../suppliers/ports/errors.ts';
import type { FlightSegment } from '../../../suppliers/ports/flight.ts';
import type { BookingDeps } from '../deps.ts';
import { findBooking } from '../store.ts';
import { fingerprint, mergeSegments, sameSchedule } from './compare.ts';
import { recordScheduleEvent } from './events.ts';
import { insertChange, pendingChange, type ScheduleChangeRow, supersedePending } from './store.ts';

/** Bookings whose flights the airline may still change: an order exists and is alive. */
export const WATCHED_STATUSES: readonly BookingStatus[] = ['on_hold', 'confirmed', 'paid', 'ticketed'];

/**
 * Compares the booking's flights with the supplier's order now; records a pending change (and the
 * event `schedule_change.detected`) when they differ in a way not recorded yet. Returns the new change.
 */
export async function detectScheduleChange(
  d: BookingDeps,
  bookingId: number,
  opts?: CallOptions,
): Promise<ScheduleChangeRow | undefined> {
  const b = await findBooking(d.db, bookingId);
  if (!b?.supplier_order_ref || !WATCHED_STATUSES.includes(b.status)) return undefined;
  const supplier = d.suppliers.flight(b.supplier);
  if (!supplier?.orderItinerary) return undefined;
  const itinerary = await supplier.orderItinerary(b.supplier_order_ref, opts);
  if (itinerary.segments.length === 0) return undefined;
  const now = d.clock.now();
  return d.db.transaction().execute(async (trx) => {
    const locked = await findBooking(trx, bookingId, { forUpdate: true });
    if (!locked || !WATCHED_STATUSES.includes(locked.status)) return undefined;
    const flights = locked.flights as unknown as FlightSegment[];
    if (sameSchedule(flights, itinerary.segments)) {
      // The airline is back on the booked schedule: nothing is left to accept.
      const pending = await pendingChange(trx, bookingId);
      if (pending) await supersedePending(trx, pending.id, now);
      return undefined;
    }
    const next = mergeSegments(flights, itinerary.segments);
    const open = itinerary.changes.filter((c) => c.action_taken === null).at(-1);
    const change = await insertChange(
      trx,
      {
        booking_id: locked.id,
        company_id: locked.company_id,
        supplier: locked.supplier,
        supplier_change_id: open?.change_id ?? null,
        fingerprint: fingerprint(next),
        old_segments: flights,
        new_segments: next,
      },
      now,
    );
    if (change) await recordScheduleEvent(trx, 'schedule_change.detected', locked, change, now);
    return change;
  });
}
