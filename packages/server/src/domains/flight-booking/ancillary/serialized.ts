import type { HandlerResult, RequestContext } from '../../../kernel/types.ts';
import type { Db } from '../../../storage/schema.ts';
import type { BookingDeps } from '../deps.ts';
import {
  answerRetry,
  beginOp,
  failOp,
  idemKey,
  type MoneyOp,
  markPending,
  recordedAnswer,
  settleOp,
} from '../money-ops.ts';
import type { BookingRow } from '../store.ts';
import { pendingServiceChange, type ServiceOpKind, ServicePending } from './outcomes.ts';
import { reconcileServiceOp } from './reconcile.ts';

/**
 * A paid service change (seat issuance, ancillary purchase, EMD): one at a time per booking, decided
 * under the booking lock with its intent row written ahead (payment/money-ops.ts); a concurrent caller
 * gets 409 `operation_in_progress` or, once this one has settled, the operation's own 400. `detail` is
 * what the reconciliation job needs to read the outcome back. A supplier answer lost after the supplier
 * may have acted (`ServicePending`, thrown by `run`) is answered 202 pending and settled by the job
 * (ancillary/reconcile.ts), never recorded as a failure.
 */
export async function serialized<T, R>(
  d: BookingDeps,
  ctx: RequestContext,
  b: BookingRow,
  kind: ServiceOpKind,
  check: (trx: Db, b: BookingRow) => Promise<T>,
  detail: (t: T) => Record<string, unknown>,
  run: (t: T, op: MoneyOp) => Promise<R>,
): Promise<HandlerResult> {
  const { db, clock } = d;
  // A retry of a request that died: what the supplier shows for its intent, never bought twice.
  const prior = await answerRetry({
    db,
    ctx,
    bookingId: b.id,
    kind,
    settle: (op) => reconcileServiceOp(d, op),
    answer: async (_d, op) => recordedAnswer(op) ?? null,
    pending: async () => ({ status: 202, body: pendingServiceChange(b.id, kind) }),
  });
  if (prior && 'answer' in prior) return prior.answer;
  const { op, result } = await beginOp({
    db,
    clock,
    bookingId: b.id,
    kind,
    key: `bk${b.id}:${kind}:${idemKey(ctx)}`,
    requestId: ctx.requestId,
    ctx,
    check,
    detail: (t) => ({ detail: detail(t) }),
  });
  let r: R;
  try {
    r = await run(result, op);
  } catch (err) {
    if (err instanceof ServicePending) {
      ctx.log.warn({ booking: b.id, op: op.id, reason: err.message }, `${kind} outcome unknown: pending`);
      return ctx.transaction(async (trx) => {
        await markPending(trx, clock, op.id, err.message);
        return { status: 202, body: pendingServiceChange(b.id, kind) };
      });
    }
    await failOp(db, clock, op.id, `${kind}: ${(err as Error).message}`);
    throw err;
  }
  return ctx.transaction(async (trx) => {
    await settleOp(trx, op.id, 'done', clock.now(), { outcome: 'ok' });
    return { status: 200, body: r };
  });
}
