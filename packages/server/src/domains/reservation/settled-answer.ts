/**
 * A cancellation settled by its job after the request that asked for it answered 502
 * `cancellation_pending` (stored under its Idempotency-Key, as 502s are): the stored answer becomes the
 * truth, so a same-key retry is answered with the settled cancellation instead of "pending" forever; a
 * cancellation that did not happen drops it, and the retry runs anew (it cancels, this time for real).
 */
import { idempotencyStatements } from '../../idempotency/idempotency-store.ts';
import type { ServiceDb } from './tables.ts';

/** The stored answer that says "pending": a cancel whose supplier answer was lost. */
const PENDING = [502];

export async function rewriteStoredPending(
  trx: ServiceDb,
  scope: string | null,
  answer: { status: number; body?: unknown } | null,
): Promise<void> {
  if (!scope) return;
  if (answer === null) await idempotencyStatements.dropPending(trx, scope, PENDING).execute();
  else await idempotencyStatements.rewritePending(trx, scope, answer, PENDING).execute();
}
