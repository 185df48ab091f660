import { HttpError } from '../../../kernel/errors.ts';
import type { JsonResult } from '../../../kernel/types.ts';
import type { Db } from '../../../storage/schema.ts';
import { type MoneyOp, recordedAnswer } from '../money-ops.ts';
import { findPaymentById, type paymentView, paymentWithTransactions } from './store.ts';

export const PENDING_MESSAGE =
  'The payment provider did not confirm the outcome (its answer was lost or timed out). Nothing is charged twice: the outcome is being settled with the provider and will show in payment/history within seconds to minutes. Do not retry with a new Idempotency-Key.';

/** The 202 body: the payment as it stands, plainly marked pending. */
export const pendingPayment = (view: ReturnType<typeof paymentView>, message = PENDING_MESSAGE) => ({
  ...view,
  outcome: 'pending' as const,
  message,
});

/**
 * What a payment op's request would have answered, for a same-key retry: the answer recorded when it
 * was settled (by the job or a retry), else the payment as it stands for a done op; a failed op without
 * a recorded answer changed nothing at the provider, so the retry runs anew (null).
 */
export async function answerOf(db: Db, op: MoneyOp): Promise<JsonResult | null> {
  const recorded = recordedAnswer(op);
  if (recorded !== undefined) return recorded;
  if (op.status !== 'done' || op.payment_id === null) return null;
  const pay = await findPaymentById(db, op.payment_id);
  return pay ? { status: 200, body: await paymentWithTransactions(db, pay) } : null;
}

/** The 202 of a payment op whose outcome is still unknown at the provider. */
export async function pendingAnswer(db: Db, op: MoneyOp): Promise<JsonResult> {
  const pay = op.payment_id === null ? undefined : await findPaymentById(db, op.payment_id);
  if (!pay) throw new HttpError(409, 'operation_in_progress', 'The payment operation is still in flight.');
  return { status: 202, body: pendingPayment(await paymentWithTransactions(db, pay)) };
}
