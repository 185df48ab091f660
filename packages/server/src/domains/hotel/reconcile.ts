/**
 * The reconciliation job for pending hotel bookings: asks the provider by our client reference whether
 * it holds the booking, and settles it through the state machine. Not found yet: retried with the job
 * runner's backoff (the create may still be in flight); not found on the last attempt: failed (no
 * reservation exists).
 */
import type { Job, JobHandler } from '../../jobs/runner.ts';
import type { HotelDeps } from './deps.ts';
import { HOTEL_KIND, reconcileQueue } from './shared/kind.ts';
import { getRow } from './shared/queries.ts';
import { moveStatus } from './shared/status-change.ts';
import { json, serviceDb } from './shared/tables.ts';
import { type HotelBookingEvent, type HotelBookingStatus, nextHotelStatus } from './state-machine.ts';

const EVENT_OF: Record<string, HotelBookingEvent | undefined> = {
  confirmed: 'supplier_confirmed',
  on_request: 'supplier_on_request',
  rejected: 'supplier_rejected',
  cancelled: 'supplier_cancelled',
};

export function reconcileHotelBooking(deps: HotelDeps): JobHandler {
  return async (job: Job) => {
    const id = Number((job.payload as { booking_id: number }).booking_id);
    const db = serviceDb(deps.db);
    const row = await getRow(db, HOTEL_KIND, id);
    if (row?.status !== 'pending') return;
    const supplier = deps.suppliers.hotel(row.provider as string);
    if (!supplier) throw new Error(`hotel provider ${row.provider} is not configured`);
    const found = await supplier.findBookingByClientReference(row.client_reference as string);
    const event = found ? EVENT_OF[found.status] : undefined;
    if (found && !event) throw new Error(`hotel booking ${id} is still pending at ${row.provider}`);
    if (!found && job.attempts < job.maxAttempts)
      throw new Error(`hotel booking ${id} not found at ${row.provider} yet`);
    await db.transaction().execute(async (trx) => {
      const locked = await getRow(trx, HOTEL_KIND, id, true);
      if (locked?.status !== 'pending') return;
      const from = locked.status as HotelBookingStatus;
      if (!found || !event) {
        await moveStatus(trx, HOTEL_KIND, locked, nextHotelStatus(from, 'supplier_failed'), deps.clock, {
          ctx: null,
          action: 'supplier_failed',
          reason: 'Reconciliation: the provider holds no booking with this reference.',
        });
        return;
      }
      await moveStatus(trx, HOTEL_KIND, locked, nextHotelStatus(from, event), deps.clock, {
        ctx: null,
        action: event,
        reason: 'Reconciliation: settled from the provider by client reference.',
        set: {
          supplier_booking_ref: found.booking_ref,
          hotel_confirmation: found.hotel_confirmation,
          currency: found.total.currency,
          total_minor: found.total.amount_minor,
          cancellation_policies: json(found.cancellation_policies),
        },
      });
    });
  };
}

/** Register with the kernel's job runner: `new JobRunner({ handlers: { ...hotelJobHandlers(deps) } })`. */
export const hotelJobHandlers = (deps: HotelDeps): Record<string, JobHandler> => ({
  [reconcileQueue(HOTEL_KIND)]: reconcileHotelBooking(deps),
});
