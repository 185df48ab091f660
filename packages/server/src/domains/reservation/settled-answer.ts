/**
 * A cancellation settled by its job after the request that asked for it answered 502
 * `cancellation_pending` (stored under its Idempotency-Key, as 502s are): the stored answer becomes the
 * truth, so a same-key retry is answered with the settled cancellation instead of "pending" forever; a
 * cancellation that did not happen drops it, and the retry runs anew (it cancels, this time for real).
 */
import { json } from '../../storage/schema.ts';
import type { ServiceDb } from './tables.ts';

export async function rewriteStoredPending(
  trx: ServiceDb,
  scope: string | null,
  answer: { status: number; body?: unknown } | null,
): Promise<void> {
  if (!scope) return;
  if (answer === null) {
    await trx
      .deleteFrom('idempotency_keys')
      .where('scope', '=', scope)
      .where('status', '=', 'completed')
      .where('response_status', '=', 502)
      .execute();
    return;
  }
  await trx
    .updateTable('idempotency_keys')
    .set({ response_status: answer.status, response_body: json(answer.body) })
    .where('scope', '=', scope)
    .where('status', '=', 'completed')
    .where('response_status', '=', 502)
    .execute();
}
