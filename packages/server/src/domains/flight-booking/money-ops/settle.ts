/** Step 3 of a money operation (../money-ops.ts): its outcome, or `pending` with its job brought forward. */

import type { Clock } from '../../../internal/clock.ts';
import { finishQueued } from '../../../jobs/runner.ts';
import { jobStatements } from '../../../jobs/statements.ts';
import type { Db } from '../../../storage/schema.ts';
import { json } from '../../../storage/schema.ts';

import { MONEY_RECONCILE_QUEUE, opsDb, RECONCILE_PENDING_DELAY_MS } from './ops.ts';

/** Step 3: the op's outcome, in the transaction that records it. A settled op is left alone. */
export async function settleOp(
  trx: Db,
  opId: number,
  status: 'done' | 'failed',
  now: Date,
  patch: { outcome?: string; payment_id?: number | null; detail?: Record<string, unknown> } = {},
): Promise<boolean> {
  const r = await opsDb(trx)
    .updateTable('booking_money_ops')
    .set({
      status,
      updated_at: now,
      ...(patch.outcome !== undefined ? { outcome: patch.outcome } : {}),
      ...(patch.payment_id !== undefined ? { payment_id: patch.payment_id } : {}),
      ...(patch.detail !== undefined ? { detail: json(patch.detail) } : {}),
    })
    .where('id', '=', opId)
    .where('status', 'in', ['requested', 'pending'])
    .executeTakeFirst();
  const settled = Number(r.numUpdatedRows) > 0;
  // Settled in the request: its reconciliation job has nothing left to do (a running job ends by itself).
  if (settled) await finishQueued(trx, `${MONEY_RECONCILE_QUEUE}:${opId}`, now);
  return settled;
}

/** The outcome is unknown: the op stays in flight as `pending` and its job runs at once. */
export async function markPending(
  trx: Db,
  clock: Clock,
  opId: number,
  reason: string,
  detail?: Record<string, unknown>,
): Promise<void> {
  const now = clock.now();
  await opsDb(trx)
    .updateTable('booking_money_ops')
    .set({
      status: 'pending',
      outcome: reason.slice(0, 500),
      updated_at: now,
      ...(detail ? { detail: json(detail) } : {}),
    })
    .where('id', '=', opId)
    .where('status', 'in', ['requested', 'pending'])
    .execute();
  const runAt = new Date(now.getTime() + RECONCILE_PENDING_DELAY_MS);
  await jobStatements.reschedule(trx, `${MONEY_RECONCILE_QUEUE}:${opId}`, runAt, { now }).execute();
}

/** Ends an op that could not start (a refusal after the intent row, e.g. the provider said no at once). */
export async function failOp(db: Db, clock: Clock, opId: number, outcome: string): Promise<void> {
  await settleOp(db, opId, 'failed', clock.now(), { outcome: outcome.slice(0, 500) });
}
