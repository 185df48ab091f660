import { writeAudit } from '../../audit/audit-log.ts';
import { isLeaseHeld } from '../../idempotency/idempotency-store.ts';
import { callWindowMs } from '../../internal/config.ts';
import type { Job, JobHandler } from '../../jobs/runner.ts';
import type { ReservationDeps, ReservationRow } from './book.ts';
import { type CancelKind, CLEAR, foundMoney, providerBooking, table } from './cancel.ts';
import { cancelledAnswer, markCancelled } from './cancel-settled.ts';
import { getRow } from './queries.ts';
import { rewriteStoredPending } from './settled-answer.ts';
import { serviceDb } from './tables.ts';

/** The job that settles a cancellation whose answer was lost (queue `<entity>.cancel_check`). */
export function cancelCheck(d: ReservationDeps, k: CancelKind): JobHandler {
  return async (job: Job) => {
    const id = Number((job.payload as { booking_id: number }).booking_id);
    const db = serviceDb(d.db);
    const row = (await getRow(db, k.kind, id)) as ReservationRow | undefined;
    if (!row?.cancel_requested_at) return;
    const scope = row.cancel_scope as string | null;
    if (scope && (await isLeaseHeld(d.db, scope, d.clock.now())))
      throw new Error('the request that asked for the cancellation is still running');
    const found = await providerBooking(k, row, job.signal);
    const status = found.status;
    const asked = new Date(row.cancel_requested_at as Date | string);
    if (status !== 'cancelled' && d.clock.now().getTime() < asked.getTime() + callWindowMs())
      throw new Error(`${k.kind.entity} ${id} is not cancelled at ${row.provider} yet`);
    await db.transaction().execute(async (trx) => {
      const locked = (await getRow(trx, k.kind, id, true)) as ReservationRow;
      if (!locked.cancel_requested_at) return;
      const now = d.clock.now();
      if (status === 'cancelled') {
        const after = await markCancelled(trx, k, locked, d.clock, null, foundMoney(k, locked, found));
        await rewriteStoredPending(trx, locked.cancel_scope as string | null, cancelledAnswer(after));
        return;
      }
      await trx
        .updateTable(table(k))
        .set({ ...CLEAR, updated_at: now })
        .where('id', '=', id)
        .execute();
      await rewriteStoredPending(trx, locked.cancel_scope as string | null, null);
      await writeAudit(trx, null, {
        entity: k.kind.entity,
        entityId: id,
        action: 'cancel_withdrawn',
        reason: `Reconciliation: the provider still holds the booking (${status}); the cancellation did not happen.`,
        changes: { status: locked.status },
        companyId: locked.company_id,
      });
    });
  };
}
