import type { Db } from '../../../storage/schema.ts';
import type { ProviderPayment } from '../../../suppliers/ports/payment.ts';
import { canTransition } from '../state-machine.ts';
import { type BookingRow, findBooking, transition } from '../store.ts';
import { nextPaymentState } from './state-machine.ts';
import { findPaymentById, type PaymentRow, settleTransaction, updatePayment } from './store.ts';

/** PENDING -> AUTHORIZED with the provider's reference; a payment already settled is left as it is. */
export async function settleAuthorized(
  trx: Db,
  pending: PaymentRow,
  key: string,
  p: ProviderPayment,
  now: Date,
) {
  const fresh = (await findPaymentById(trx, pending.id, true)) as PaymentRow;
  if (fresh.state !== 'PENDING') return fresh;
  const pay = await updatePayment(
    trx,
    fresh.id,
    {
      state: nextPaymentState('PENDING', 'authorize_succeeded'),
      amount_minor: p.amount_minor,
      provider_payment_ref: p.payment_ref,
    },
    now,
  );
  await settleTransaction(trx, fresh.id, key, {
    status: 'succeeded',
    provider_ref: p.payment_ref,
    amount_minor: p.amount_minor,
  });
  return pay;
}

export async function failAuthorization(
  trx: Db,
  bookingId: number,
  pending: PaymentRow,
  key: string,
  code: string,
  now: Date,
  declined: boolean,
) {
  const fresh = (await findPaymentById(trx, pending.id, true)) as PaymentRow;
  if (fresh.state !== 'PENDING') return;
  await updatePayment(trx, fresh.id, { state: nextPaymentState('PENDING', 'authorize_failed') }, now);
  await settleTransaction(trx, fresh.id, key, { status: 'failed', failure_code: code });
  if (declined) {
    const b = (await findBooking(trx, bookingId, { forUpdate: true })) as BookingRow;
    if (canTransition(b.status, 'payment_declined')) await transition(trx, b, 'payment_declined', now);
  }
}
