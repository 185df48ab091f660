/**
 * Writes a status change and its audit row in the caller's transaction, so the two exist together.
 * The target status comes from the entity's state machine; this file only records it.
 */
import { writeAudit } from '../../../audit/audit-log.ts';
import type { Clock } from '../../../internal/clock.ts';
import { enqueue } from '../../../jobs/runner.ts';
import type { RequestContext } from '../../../kernel/types.ts';
import type { Db } from '../../../storage/schema.ts';
import { type BookingKind, reconcileKey, reconcileQueue } from './kind.ts';
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
  await trx
    .updateTable(k.table as 'hotel_bookings')
    .set({ ...(c.set ?? {}), status: to, updated_at: clock.now() })
    .where('id', '=', row.id)
    .execute();
  await writeAudit(trx as unknown as Db, c.ctx, {
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
    trx as unknown as Db,
    reconcileQueue(k),
    { booking_id: id },
    { runAt, maxAttempts: 8, dedupeKey: reconcileKey(k, id) },
    clock,
  );
}

/** Brings the booking's queued reconciliation forward (the supplier gave an ambiguous answer). */
export async function runReconcileAt(trx: ServiceDb, k: BookingKind, id: number, at: Date): Promise<void> {
  await trx
    .updateTable('jobs')
    .set({ run_at: at, updated_at: at })
    .where('dedupe_key', '=', reconcileKey(k, id))
    .where('status', '=', 'queued')
    .execute();
}

/** The booking settled on the request path: its queued safety net has nothing left to do. */
export async function dropReconcile(trx: ServiceDb, k: BookingKind, id: number): Promise<void> {
  await trx
    .deleteFrom('jobs')
    .where('dedupe_key', '=', reconcileKey(k, id))
    .where('status', '=', 'queued')
    .execute();
}
