import { writeAudit } from '../../../audit/audit-log.ts';
import type { Db } from '../../../storage/schema.ts';
import type { BookingDeps } from '../deps.ts';
import {
  callWindowOver,
  countLook,
  findOp,
  type MoneyOp,
  referenceOf,
  rewritePendingAnswer,
  settleOp,
} from '../money-ops.ts';
import { canTransition } from '../state-machine.ts';
import { findBooking, transition } from '../store.ts';
import { bookingDb } from '../tables.ts';
import { failAuthorization, settleAuthorized } from './authorization.ts';
import { loadFresh } from './locked-rows.ts';
import { nextPaymentState } from './state-machine.ts';
import {
  findPaymentById,
  insertTransaction,
  type PaymentRow,
  paymentWithTransactions,
  updatePayment,
} from './store.ts';

/** What the authorize job may conclude after this many looks that found no intent at the provider. */
const AUTHORIZE_NOT_FOUND_ATTEMPTS = 3;

/** The `money.reconcile` job for an authorize op: the provider asked by the intent's reference. */
export async function reconcileAuthorize(d: BookingDeps, op: MoneyOp): Promise<void> {
  const { db } = d;
  const provider = d.suppliers.payments();
  const pending = op.payment_id === null ? undefined : await findPaymentById(db, op.payment_id);
  if (pending?.state !== 'PENDING') {
    await settleOp(db, op.id, pending ? 'done' : 'failed', d.clock.now(), { outcome: 'already settled' });
    return;
  }
  if (!provider.findByReference)
    throw new Error('the payment provider cannot look an authorization up by reference');
  const ref = String(op.detail.intent_ref ?? referenceOf(op.reference));
  const found = await provider.findByReference(ref);
  // Its owner is gone (the job checked, or this is its retry): once the call window is over, one look
  // that finds nothing is final; before, a call still on its way may yet create it.
  const looks = found ? op.looks : await countLook(db, op);
  if (!found && looks < AUTHORIZE_NOT_FOUND_ATTEMPTS && !callWindowOver(op, d.clock.now()))
    throw new Error(`no authorization with reference ${ref} at the provider yet`);
  await db.transaction().execute(async (trx) => {
    const fresh = await findOp(trx, op.id, true);
    if (!fresh || (fresh.status !== 'requested' && fresh.status !== 'pending')) return;
    const now = d.clock.now();
    if (found && (found.status === 'requires_capture' || found.status === 'succeeded')) {
      const pay = await settleAuthorized(trx, pending, op.reference, found, now);
      const b = await loadFresh(trx, op.booking_id);
      if (canTransition(b.status, 'payment_authorized')) await transition(trx, b, 'payment_authorized', now);
      await settleOp(trx, op.id, 'done', now, { outcome: `reconciled: ${pay.state} ${found.payment_ref}` });
      await rewritePendingAnswer(trx, fresh, {
        status: 200,
        body: await paymentWithTransactions(trx, pay),
      });
      return;
    }
    if (found && found.status === 'canceled') {
      // Authorized, then released at the provider: recorded as the void it was.
      const pay = await settleAuthorized(trx, pending, op.reference, found, now);
      await updatePayment(trx, pay.id, { state: nextPaymentState(pay.state, 'void') }, now);
      await insertTransaction(
        trx,
        {
          payment_id: pay.id,
          booking_id: op.booking_id,
          type: 'void',
          status: 'succeeded',
          amount_minor: pay.amount_minor,
          currency: pay.currency,
          provider_ref: found.payment_ref,
          reason: 'released at the provider',
        },
        now,
      );
      await settleOp(trx, op.id, 'done', now, { outcome: `reconciled: VOIDED ${found.payment_ref}` });
      const voided = (await findPaymentById(trx, pay.id)) as PaymentRow;
      await rewritePendingAnswer(trx, fresh, {
        status: 200,
        body: await paymentWithTransactions(trx, voided),
      });
      return;
    }
    if (!found && fresh.status === 'requested') {
      // Never reached the provider and never shown (its request died before answering): the write-ahead
      // rows are withdrawn (as createPnr withdraws its booking), so the key's retry authorizes anew with
      // the same provider key and the key ends with one payment row. A payment answered 202 stays FAILED.
      await withdrawAuthorization(trx, fresh, pending, now);
      return;
    }
    const declined = found?.status === 'requires_payment_method';
    const code = declined ? 'card_declined' : found ? `provider_${found.status}` : 'not_found_at_provider';
    await failAuthorization(trx, op.booking_id, pending, op.reference, code, now, declined);
    await settleOp(trx, op.id, 'failed', now, { outcome: `reconciled: ${code}` });
    // Declined: the answer the request would have given. Nothing at the provider: a same-key retry runs anew.
    await rewritePendingAnswer(
      trx,
      fresh,
      declined
        ? {
            status: 400,
            body: {
              detail: 'The payment was declined.',
              code: 'payment_declined',
              request_id: op.request_id,
              decline_code: code,
            },
          }
        : null,
    );
  });
}

async function withdrawAuthorization(trx: Db, op: MoneyOp, pending: PaymentRow, now: Date) {
  await settleOp(trx, op.id, 'failed', now, {
    outcome: 'reconciled: not found at the provider; intent withdrawn',
    payment_id: null,
  });
  await bookingDb(trx)
    .deleteFrom('booking_payment_transactions')
    .where('payment_id', '=', pending.id)
    .execute();
  await bookingDb(trx)
    .deleteFrom('booking_payments')
    .where('id', '=', pending.id)
    .where('state', '=', 'PENDING')
    .execute();
  const b = await findBooking(trx, op.booking_id);
  await writeAudit(trx, null, {
    entity: 'booking',
    entityId: op.booking_id,
    action: 'authorize_unconfirmed',
    reason: `reconciled: no authorization at the provider after ${op.looks} look(s) (${op.outcome ?? 'request died'}); payment ${pending.id} withdrawn`,
    changes: { op_id: op.id, payment_id: pending.id, amount_minor: pending.amount_minor },
    companyId: b?.company_id ?? null,
  });
  await rewritePendingAnswer(trx, op, null);
}
