/**
 * Writes a status change and its audit row in the caller's transaction, so the two exist together.
 * The target status comes from the entity's state machine; this file only records it.
 */
import { writeAudit } from '../../audit/audit-log.ts';
import type { Clock } from '../../internal/clock.ts';
import { enqueue, enqueueOrRearm } from '../../jobs/runner.ts';
import { jobStatements } from '../../jobs/statements.ts';
import type { RequestContext } from '../../kernel/types.ts';
import { recordReservationChange } from './events.ts';
import { type BookingKind, cancelKey, cancelQueue, reconcileKey, reconcileQueue } from './kind.ts';
import type { ServiceDb } from './tables.ts';

export interface StatusChange {
  /** null for the system (reconciliation jobs) */
  ctx: Pick<RequestContext, 'auth' | 'requestId' | 'ip'> | null;
  /** audit action, e.g. `confirmed`, `status_overridden` */
  action: string;
  reason?: string | null;
  /** other columns to set with the status (supplier refs, fee) */
  set?: Record<string, unknown>;
  details?: Record<string, unknown>;
}

export async function moveStatus(
  trx: ServiceDb,
  k: BookingKind,
  row: { id: number; status: string; company_id: number | null },
  to: string,
  clock: Clock,
  c: StatusChange,
): Promise<void> {
  const after = await trx
    .updateTable(k.table as 'hotel_bookings')
    .set({ ...(c.set ?? {}), status: to, updated_at: clock.now() })
    .where('id', '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await recordReservationChange(trx, k, row.status, after as Record<string, unknown>, {
    action: c.action,
    job: c.ctx === null,
  });
  await writeAudit(trx, c.ctx, {
    entity: k.entity,
    entityId: row.id,
    action: c.action,
    reason: c.reason ?? null,
    changes: { from: row.status, to, ...(c.details ?? {}) },
    companyId: row.company_id,
  });
}

/** The safety net queued with the booking itself: if the request dies mid-way, the job still settles it. */
export function enqueueReconcile(trx: ServiceDb, k: BookingKind, id: number, runAt: Date, clock: Clock) {
  return enqueue(
    trx,
    reconcileQueue(k),
    { booking_id: id },
    { runAt, maxAttempts: 12, dedupeKey: reconcileKey(k, id) },
    clock,
  );
}

/** Brings the booking's queued reconciliation forward (the supplier gave an ambiguous answer). */
export async function runReconcileAt(trx: ServiceDb, k: BookingKind, id: number, at: Date): Promise<void> {
  await jobStatements.reschedule(trx, reconcileKey(k, id), at).execute();
}

/** The booking settled on the request path: its queued safety net has nothing left to do. */
export async function dropReconcile(trx: ServiceDb, k: BookingKind, id: number): Promise<void> {
  await jobStatements.dropQueued(trx, reconcileKey(k, id)).execute();
}

/**
 * The cancellation's safety net, queued with its intent: asks the provider whether the booking is
 * cancelled once the request that asked is gone. A job left from an earlier cancellation of the same
 * booking (done or failed) is queued again with fresh attempts.
 */
export async function enqueueCancelCheck(
  trx: ServiceDb,
  k: BookingKind,
  id: number,
  runAt: Date,
  clock: Clock,
): Promise<void> {
  await enqueueOrRearm(
    trx,
    cancelQueue(k),
    { booking_id: id },
    { runAt, maxAttempts: 12, dedupeKey: cancelKey(k, id) },
    clock,
  );
}

/** Brings the cancellation check forward (the provider's answer was lost). */
export async function runCancelCheckAt(trx: ServiceDb, k: BookingKind, id: number, at: Date): Promise<void> {
  await jobStatements.reschedule(trx, cancelKey(k, id), at).execute();
}

/** The cancellation settled on the request path: its queued check is done. */
export async function dropCancelCheck(trx: ServiceDb, k: BookingKind, id: number, at: Date): Promise<void> {
  await jobStatements.finishQueued(trx, cancelKey(k, id), at).execute();
}
