/** A same-key retry of a money operation whose request died: the truth about its op, never a second act. */

import type { JsonResult, RequestContext } from '../../../kernel/types.ts';
import type { Db } from '../../../storage/schema.ts';

import { findOp, type MoneyOp, type OpKind, opOfScope } from './ops.ts';

export interface RetryOptions {
  db: Db;
  ctx: RequestContext;
  bookingId: number;
  kind: OpKind;
  /** Settles an in-flight op by asking the provider: the reconciliation job's own code. Throws while unknown. */
  settle: (op: MoneyOp) => Promise<void>;
  /**
   * What the request would have answered for a settled op, built from the recorded answer or the rows;
   * null: nothing happened at the provider, the retry runs anew.
   */
  answer: (db: Db, op: MoneyOp) => Promise<JsonResult | null>;
  /** The answer while the outcome is still unknown after asking (the operation's 202 pending). */
  pending?: (db: Db, op: MoneyOp) => Promise<JsonResult>;
}

/** What a retry found: the answer to give, or (no `pending` answer given) an op still in flight to adopt. */
export type RetryOutcome = { answer: JsonResult } | { inFlight: MoneyOp } | undefined;

/**
 * A request whose idempotency scope already owns an op on this booking is a retry of a request that never
 * stored an answer (its process died, or a 5xx released the key after the intent): it must answer the
 * truth about that op instead of deciding again (which would see the settled state and refuse it, or act
 * twice). The middleware let this request in only because that earlier request is gone, so the op's owner
 * is dead: an op still in flight is settled now by asking the provider, as the job would; a settled op is
 * answered as its request would have answered it; "nothing happened" runs anew (undefined).
 */
export async function answerRetry(o: RetryOptions): Promise<RetryOutcome> {
  const scope = o.ctx.idempotency?.scope;
  if (!scope) return undefined;
  let op = await opOfScope(o.db, o.bookingId, o.kind, scope);
  if (!op) return undefined;
  if (op.status === 'requested' || op.status === 'pending') {
    try {
      await o.settle(op);
    } catch (err) {
      o.ctx.log.info({ op: op.id, err: (err as Error).message }, 'retry: outcome still unknown');
    }
    op = (await findOp(o.db, op.id)) as MoneyOp;
    if (op.status === 'requested' || op.status === 'pending') {
      if (!o.pending) return { inFlight: op };
      return { answer: await o.pending(o.db, op) };
    }
  }
  const answer = await o.answer(o.db, op);
  return answer ? { answer } : undefined;
}
