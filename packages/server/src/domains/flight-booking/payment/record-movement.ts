import type { Db } from '../../../storage/schema.ts';
import type { SupplierError } from '../../../suppliers/ports/errors.ts';
import { canTransition } from '../state-machine.ts';
import { transition } from '../store.ts';
import { bookingDb } from '../tables.ts';
import { loadFresh } from './locked-rows.ts';
import type { MovePlan } from './movement.ts';
import { nextPaymentState } from './state-machine.ts';
import { findPaymentById, type PaymentRow, settleTransaction, updatePayment } from './store.ts';

/**
 * Records a movement the provider confirmed: the payment (read fresh under its lock), the transaction
 * row and the booking. Settling the same movement twice (request and job) records it once.
 */
export async function recordMovement(
  trx: Db,
  bookingId: number,
  plan: MovePlan,
  r: { provider_ref: string | null; amount: number },
  now: Date,
): Promise<PaymentRow> {
  const fresh = (await findPaymentById(trx, plan.payment.id, true)) as PaymentRow;
  const tx = await settleTransactionCounted(trx, fresh.id, plan.key, r);
  if (!tx) return fresh;
  let pay: PaymentRow;
  let event: 'payment_captured' | 'payment_voided' | 'payment_refunded' | null;
  if (plan.kind === 'capture') {
    pay = await updatePayment(
      trx,
      fresh.id,
      { state: nextPaymentState(fresh.state, 'capture'), captured_minor: r.amount },
      now,
    );
    event = 'payment_captured';
  } else if (plan.kind === 'void') {
    pay = await updatePayment(trx, fresh.id, { state: nextPaymentState(fresh.state, 'void') }, now);
    event = 'payment_voided';
  } else {
    const refunded = fresh.refunded_minor + r.amount;
    const full = refunded >= fresh.captured_minor;
    pay = await updatePayment(
      trx,
      fresh.id,
      {
        state: nextPaymentState(fresh.state, full ? 'refund_full' : 'refund_partial'),
        refunded_minor: refunded,
      },
      now,
    );
    event = full ? 'payment_refunded' : null;
  }
  const b = await loadFresh(trx, bookingId);
  if (event && canTransition(b.status, event)) await transition(trx, b, event, now);
  return pay;
}

/** The provider refused the movement outright: its transaction row is failed. */
export async function failMovement(trx: Db, plan: MovePlan, error: SupplierError) {
  await settleTransaction(trx, plan.payment.id, plan.key, {
    status: 'failed',
    failure_code: error.supplierCode ?? error.kind,
  });
}

async function settleTransactionCounted(
  trx: Db,
  paymentId: number,
  key: string,
  r: { provider_ref: string | null; amount: number },
): Promise<boolean> {
  const res = await bookingDb(trx)
    .updateTable('booking_payment_transactions')
    .set({ status: 'succeeded', provider_ref: r.provider_ref, amount_minor: r.amount })
    .where('payment_id', '=', paymentId)
    .where('idempotency_key', '=', key)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}
