/**
 * What a settled money operation answers: kept on the op, and written over the pending answer stored
 * under its owner's Idempotency-Key.
 */

import { sql } from 'kysely';
import { idempotencyStatements } from '../../../idempotency/idempotency-store.ts';
import type { JsonResult } from '../../../kernel/types.ts';
import type { Db } from '../../../storage/schema.ts';
import { json } from '../../../storage/schema.ts';

import { type MoneyOp, opsDb } from './ops.ts';

/**
 * A settled op rewrites the pending answer (202, or a cancel's 502) stored under its owner's Idempotency-Key, so a same-key
 * retry gets the settled truth instead of "pending" forever: `answer` is what the request would have
 * answered had the provider's answer arrived. `null` means nothing happened at the provider: the stored
 * pending answer is dropped and a same-key retry runs anew (contracts §3: a response that committed no
 * effect is not kept). Any other stored answer (the request settled it itself) is left alone.
 */
export async function rewritePendingAnswer(
  trx: Db,
  op: MoneyOp,
  answer: { status: number; body: unknown } | null,
): Promise<void> {
  await recordAnswer(trx, op.id, answer);
  if (!op.owner_scope) return;
  if (answer === null)
    await idempotencyStatements.dropPending(trx, op.owner_scope, PENDING_STATUSES).execute();
  else await idempotencyStatements.rewritePending(trx, op.owner_scope, answer, PENDING_STATUSES).execute();
}

/** The stored answers that say "pending": 202 (money), 502 (a cancel whose supplier answer was lost). */
const PENDING_STATUSES = [202, 502];

/**
 * Keeps on the op what its request would have answered (`detail.answer`; null: nothing happened, a retry
 * runs anew), so a same-key retry of a request that died before storing any answer gets it (answerRetry).
 */
export async function recordAnswer(
  trx: Db,
  opId: number,
  answer: { status: number; body: unknown } | null,
): Promise<void> {
  await opsDb(trx)
    .updateTable('booking_money_ops')
    .set({ detail: sql`detail || ${json({ answer })}::jsonb` as never })
    .where('id', '=', opId)
    .execute();
}

/** The answer recorded on a settled op: undefined when none was recorded, null for "run anew". */
export function recordedAnswer(op: MoneyOp): JsonResult | null | undefined {
  if (!('answer' in op.detail)) return undefined;
  const a = op.detail.answer as { status: number; body: unknown } | null;
  return a === null ? null : { status: a.status, body: a.body };
}
