import type { HandlerResult, OperationContext } from '../../../kernel/types.ts';
import type { BookingDeps } from '../deps.ts';
import { answerRetry, beginOp, idemKey } from '../money-ops.ts';
import { loadBooking } from '../store.ts';
import { answerOf, pendingAnswer } from './answers.ts';
import { lockedPayment } from './locked-rows.ts';
import { type Movement, movementDetail, planMovement } from './movement.ts';
import type { PaymentService } from './payment-service.ts';
import { runMovement } from './run-movement.ts';

/** capture / void / refund endpoints: the booking's latest payment, keyed per request. */
export async function movementEndpoint(
  d: BookingDeps,
  payments: PaymentService,
  ctx: OperationContext<'capturePayment' | 'voidPayment' | 'refundPayment'>,
  kind: Movement,
): Promise<HandlerResult> {
  const b0 = await loadBooking(d.db, ctx, ctx.params.booking_id);
  const key = `bk${b0.id}:${kind}:${idemKey(ctx)}`;
  // What any of the three may carry (capture: amount; void: reason; refund: both).
  const query: { amount_minor?: number; reason?: string } = ctx.query;
  const amount = kind === 'void' ? undefined : query.amount_minor;
  const reason = kind === 'capture' ? undefined : query.reason;
  const prior = await answerRetry({
    db: d.db,
    ctx,
    bookingId: b0.id,
    kind,
    settle: (op) => payments.reconcile(op),
    answer: (d, op) => answerOf(d, op),
    pending: (d, op) => pendingAnswer(d, op),
  });
  if (prior && 'answer' in prior) return prior.answer;
  const { op, result: plan } = await beginOp({
    db: d.db,
    clock: d.clock,
    bookingId: b0.id,
    kind,
    key,
    requestId: ctx.requestId,
    ctx,
    check: async (trx, b) => planMovement(d, trx, b, await lockedPayment(trx, b), kind, amount, reason, key),
    detail: (pl) => ({ payment_id: pl.payment.id, detail: movementDetail(pl) }),
  });
  return runMovement(d, ctx, op, b0.id, plan);
}
