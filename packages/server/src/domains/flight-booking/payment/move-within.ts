import { badRequest } from '../../../kernel/errors.ts';
import type { Db } from '../../../storage/schema.ts';
import type { BookingDeps } from '../deps.ts';
import { type MoneyOp, markPending, opsDb, settleOp } from '../money-ops.ts';
import { type BookingRow, findBooking } from '../store.ts';
import { lockedPayment } from './locked-rows.ts';
import { callMovement, FAILED_CODE, type Movement, movementDetail, planMovement } from './movement.ts';
import { failMovement, recordMovement } from './record-movement.ts';
import { findPaymentById, type PaymentRow } from './store.ts';

/**
 * A movement inside another operation (cancel): plans it under the booking lock in its own short
 * transaction, calls the provider and returns the write for the caller's settling transaction. An
 * unknown outcome leaves the movement pending on `op` (its job settles it).
 */
export async function moveWithin(
  d: BookingDeps,
  op: MoneyOp,
  b: BookingRow,
  kind: Movement,
  amount: number | undefined,
  reason: string,
  key: string,
): Promise<(trx: Db) => Promise<PaymentRow | undefined>> {
  const { db, clock } = d;
  const plan = await db.transaction().execute(async (trx) => {
    await findBooking(trx, b.id, { forUpdate: true });
    const p = await lockedPayment(trx, b);
    const pl = await planMovement(d, trx, b, p, kind, amount, reason, key);
    await settleOpDetail(trx, op.id, { ...op.detail, ...movementDetail(pl) }, p.id);
    return pl;
  });
  const r = await callMovement(d, plan);
  if (!r.ok && !r.ambiguous) {
    await db.transaction().execute(async (trx) => {
      await failMovement(trx, plan, r.error);
      await settleOp(trx, op.id, 'failed', d.clock.now(), { outcome: r.error.message.slice(0, 500) });
    });
    throw badRequest(FAILED_CODE[kind], `The payment provider refused the ${kind}.`);
  }
  return async (trx) => {
    if (!r.ok) {
      await markPending(trx, clock, op.id, r.reason);
      return findPaymentById(trx, plan.payment.id);
    }
    return recordMovement(trx, b.id, plan, r, d.clock.now());
  };
}

async function settleOpDetail(trx: Db, opId: number, detail: Record<string, unknown>, paymentId: number) {
  await opsDb(trx)
    .updateTable('booking_money_ops')
    .set({ detail: JSON.stringify(detail), payment_id: paymentId })
    .where('id', '=', opId)
    .execute();
}
