/**
 * The reconcile job of hotel and transport bookings left `pending` (book.ts writes them ahead of the
 * supplier call): settled from the provider by client reference once the request that wrote the row is
 * gone, or failed once the call window has passed without the provider holding the booking.
 */
import { isLeaseHeld } from '../../idempotency/idempotency-store.ts';
import { callWindowMs } from '../../internal/config.ts';
import type { Job, JobHandler } from '../../jobs/runner.ts';
import { type ReservationDeps, type ReservationKind, type SupplierReservation, settled } from './book.ts';
import { getRow } from './queries.ts';
import { nextStatus, type ReservationStatus } from './state-machine.ts';
import { moveStatus } from './status-change.ts';
import { serviceDb } from './tables.ts';

/** The reconciliation job of pending bookings of kind `k` (queue `<entity>.reconcile`). */
export function reconcileReservation<B extends SupplierReservation>(
  d: ReservationDeps,
  k: ReservationKind<B>,
): JobHandler {
  return async (job: Job) => {
    const id = Number((job.payload as { booking_id: number }).booking_id);
    const db = serviceDb(d.db);
    const row = await getRow(db, k.kind, id);
    if (row?.status !== 'pending') return;
    // Written ahead of a supplier call: while the request that wrote it lives, it settles the row itself.
    const scope = row.idempotency_scope as string | null;
    if (scope && (await isLeaseHeld(d.db, scope, d.clock.now())))
      throw new Error('the request that wrote the booking is still running');
    const finder = k.finder(row.provider as string);
    if (!finder) throw new Error(`provider ${row.provider} is not configured`);
    const found = await finder.findBookingByClientReference(row.client_reference as string, {
      signal: job.signal,
    });
    const event = found ? k.eventOf(found.status) : null;
    if (found && !event) throw new Error(`${k.kind.entity} ${id} is still pending at ${row.provider}`);
    const written = new Date(row.created_at as Date | string).getTime();
    if (!found && d.clock.now().getTime() < written + callWindowMs())
      throw new Error(`${k.kind.entity} ${id} not found at ${row.provider} yet; the call may be under way`);
    await db.transaction().execute(async (trx) => {
      const locked = await getRow(trx, k.kind, id, true);
      if (locked?.status !== 'pending') return;
      const from = locked.status as ReservationStatus;
      if (!found || !event) {
        await moveStatus(trx, k.kind, locked, nextStatus(k.kind)(from, 'supplier_failed'), d.clock, {
          ctx: null,
          action: 'supplier_failed',
          reason: 'Reconciliation: the provider holds no booking with this reference.',
        });
        return;
      }
      await moveStatus(trx, k.kind, locked, nextStatus(k.kind)(from, event), d.clock, {
        ctx: null,
        action: event,
        reason: 'Reconciliation: settled from the provider by client reference.',
        set: settled(k, found),
      });
    });
  };
}
