/**
 * The reconciliation job for pending transport bookings: asks the provider by our client reference whether
 * it holds the booking, and settles it through the state machine. Not found yet: retried with the job
 * runner's backoff (the create may still be in flight); not found on the last attempt: failed (no
 * reservation exists).
 */
import type { Job, JobHandler } from '../../jobs/runner.ts';
import { reconcileQueue, TRANSPORT_KIND } from '../hotel/shared/kind.ts';
import { getRow } from '../hotel/shared/queries.ts';
import { moveStatus } from '../hotel/shared/status-change.ts';
import { serviceDb } from '../hotel/shared/tables.ts';
import type { TransportDeps } from './deps.ts';
import {
  nextTransportStatus,
  type TransportBookingEvent,
  type TransportBookingStatus,
} from './state-machine.ts';

const EVENT_OF: Record<string, TransportBookingEvent | undefined> = {
  confirmed: 'supplier_confirmed',
  rejected: 'supplier_rejected',
  cancelled: 'supplier_cancelled',
};

export function reconcileTransportBooking(deps: TransportDeps): JobHandler {
  return async (job: Job) => {
    const id = Number((job.payload as { booking_id: number }).booking_id);
    const db = serviceDb(deps.db);
    const row = await getRow(db, TRANSPORT_KIND, id);
    if (row?.status !== 'pending') return;
    const supplier = deps.suppliers.transfer(row.provider as string);
    if (!supplier) throw new Error(`transfer provider ${row.provider} is not configured`);
    const found = await supplier.findBookingByClientReference(row.client_reference as string);
    const event = found ? EVENT_OF[found.status] : undefined;
    if (found && !event) throw new Error(`transport booking ${id} is still pending at ${row.provider}`);
    if (!found && job.attempts < job.maxAttempts)
      throw new Error(`transport booking ${id} not found at ${row.provider} yet`);
    await db.transaction().execute(async (trx) => {
      const locked = await getRow(trx, TRANSPORT_KIND, id, true);
      if (locked?.status !== 'pending') return;
      const from = locked.status as TransportBookingStatus;
      if (!found || !event) {
        await moveStatus(
          trx,
          TRANSPORT_KIND,
          locked,
          nextTransportStatus(from, 'supplier_failed'),
          deps.clock,
          {
            ctx: null,
            action: 'supplier_failed',
            reason: 'Reconciliation: the provider holds no booking with this reference.',
          },
        );
        return;
      }
      await moveStatus(trx, TRANSPORT_KIND, locked, nextTransportStatus(from, event), deps.clock, {
        ctx: null,
        action: event,
        reason: 'Reconciliation: settled from the provider by client reference.',
        set: {
          supplier_booking_ref: found.booking_ref,
          confirmation_number: found.confirmation_number,
          currency: found.total.currency,
          total_minor: found.total.amount_minor,
        },
      });
    });
  };
}

/** Register with the kernel's job runner: `new JobRunner({ handlers: { ...transportJobHandlers(deps) } })`. */
export const transportJobHandlers = (deps: TransportDeps): Record<string, JobHandler> => ({
  [reconcileQueue(TRANSPORT_KIND)]: reconcileTransportBooking(deps),
});
