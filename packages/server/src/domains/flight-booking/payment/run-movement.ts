import { badRequest } from '../../../kernel/errors.ts';
import type { HandlerResult, RequestContext } from '../../../kernel/types.ts';
import type { Db } from '../../../storage/schema.ts';
import type { BookingDeps } from '../deps.ts';
import { type MoneyOp, markPending, settleOp } from '../money-ops.ts';
import { pendingPayment } from './answers.ts';
import { callMovement, FAILED_CODE, type MovePlan } from './movement.ts';
import { failMovement, recordMovement } from './record-movement.ts';
import { findPaymentById, type PaymentRow, paymentWithTransactions } from './store.ts';

/**
 * Calls the provider for a planned movement and settles op and rows: 200 with the payment, 202 pending,
 * or the movement's 400 (its failure recorded). `after` runs in the settling transaction (audit).
 */
export async function runMovement(
  d: BookingDeps,
  ctx: RequestContext,
  op: MoneyOp,
  bookingId: number,
  plan: MovePlan,
  after?: (trx: Db, pay: PaymentRow, pending: boolean) => Promise<void>,
): Promise<HandlerResult> {
  const { db, clock } = d;
  const r = await callMovement(d, plan, ctx.signal);
  if (!r.ok && !r.ambiguous) {
    await db.transaction().execute(async (trx) => {
      await failMovement(trx, plan, r.error);
      await settleOp(trx, op.id, 'failed', d.clock.now(), { outcome: r.error.message.slice(0, 500) });
    });
    // The provider's own text stays in the op's outcome; the caller gets our words.
    throw badRequest(FAILED_CODE[plan.kind], `The payment provider refused the ${plan.kind}.`);
  }
  return ctx.transaction(async (trx) => {
    const now = d.clock.now();
    if (!r.ok) {
      ctx.log.warn({ booking: bookingId, op: op.id, reason: r.reason }, 'payment outcome unknown: pending');
      await markPending(trx, clock, op.id, r.reason);
      const pay = (await findPaymentById(trx, plan.payment.id)) as PaymentRow;
      if (after) await after(trx, pay, true);
      return { status: 202, body: pendingPayment(await paymentWithTransactions(trx, pay)) };
    }
    const pay = await recordMovement(trx, bookingId, plan, r, now);
    await settleOp(trx, op.id, 'done', now, { outcome: pay.state });
    if (after) await after(trx, pay, false);
    return { status: 200, body: await paymentWithTransactions(trx, pay) };
  });
}
