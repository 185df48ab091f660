import { faultPoint } from '../../../internal/fault-hooks.ts';
import { badRequest, type ErrorCode } from '../../../kernel/errors.ts';
import { errorResult } from '../../../kernel/reply.ts';
import type { HandlerResult, OperationContext, RequestContext } from '../../../kernel/types.ts';
import type { Db } from '../../../storage/schema.ts';
import { SupplierError } from '../../../suppliers/ports/errors.ts';
import type { ProviderPayment } from '../../../suppliers/ports/payment.ts';
import type { BookingDeps } from '../deps.ts';
import {
  answerRetry,
  beginOp,
  idemKey,
  isAmbiguous,
  type MoneyOp,
  markPending,
  opsDb,
  referenceOf,
  settleOp,
} from '../money-ops.ts';
import { canTransition } from '../state-machine.ts';
import { type BookingRow, findBooking, loadBooking, transition } from '../store.ts';
import { answerOf, pendingPayment } from './answers.ts';
import { failAuthorization, settleAuthorized } from './authorization.ts';
import type { PaymentService } from './payment-service.ts';
import { pspKey } from './psp-keys.ts';
import { isLivePayment, nextPaymentState } from './state-machine.ts';
import {
  findPaymentById,
  insertPayment,
  insertTransaction,
  latestPayment,
  paymentWithTransactions,
  updatePayment,
} from './store.ts';

/** What PAYMENT_FIRST does once the authorization exists: place the order, then apply it in the transaction. */
export interface AfterAuthorize {
  apply(trx: Db, b: BookingRow, now: Date): Promise<BookingRow>;
  /** The supplier refused: the authorization was released at the provider. */
  voided?: boolean;
  error?: { code: ErrorCode; detail: string };
}

/**
 * Authorizes at the provider. Under the booking lock: at most one live payment (a PENDING one is written
 * ahead). A decline is recorded (payment FAILED, booking payment_failed) and answered 400; a lost answer
 * 202 pending.
 */
export async function authorize(
  d: BookingDeps,
  payments: PaymentService,
  ctx: OperationContext<'authorizePayment'>,
  afterAuthorized?: (b: BookingRow) => Promise<AfterAuthorize | undefined>,
): Promise<HandlerResult> {
  const { db, clock } = d;
  const b0 = await loadBooking(db, ctx, ctx.params.booking_id);
  const body = ctx.body;
  const key = pspKey(d, `bk${b0.id}:authorize:${idemKey(ctx)}`);
  const ref = referenceOf(key);
  const provider = d.suppliers.payments();
  // A retry of a request that died: the truth about its intent, or the intent itself, taken over (the
  // same payment row and provider key: Stripe replays or performs the authorization once).
  const prior = await answerRetry({
    db,
    ctx,
    bookingId: b0.id,
    kind: 'authorize',
    settle: (op) => payments.reconcile(op),
    answer: (d, op) => answerOf(d, op),
  });
  if (prior && 'answer' in prior) return prior.answer;
  const adopted = prior ? await adopt(d, ctx, prior.inFlight) : undefined;
  const {
    op,
    booking: b,
    result: pending,
  } = adopted ??
  (await beginOp({
    db,
    clock,
    bookingId: b0.id,
    kind: 'authorize',
    key,
    requestId: ctx.requestId,
    ctx,
    check: async (trx, b) => {
      if (body.currency !== b.pricing.currency)
        throw badRequest('currency_mismatch', `The booking is priced in ${b.pricing.currency}.`);
      if (body.amount_minor !== b.pricing.total_minor)
        throw badRequest('amount_mismatch', `The booking total is ${b.pricing.total_minor} minor units.`);
      if (!canTransition(b.status, 'payment_authorized'))
        throw badRequest('invalid_booking_state', `A booking in status ${b.status} cannot be paid.`);
      const live = await latestPayment(trx, b.id, true);
      if (live && isLivePayment(live.state))
        throw badRequest('invalid_payment_state', `The booking already has a ${live.state} payment.`);
      const now = d.clock.now();
      const pay = await insertPayment(
        trx,
        {
          booking_id: b.id,
          state: 'PENDING',
          amount_minor: body.amount_minor,
          captured_minor: 0,
          refunded_minor: 0,
          currency: body.currency,
          provider: provider.name,
          provider_payment_ref: null,
        },
        now,
      );
      await insertTransaction(
        trx,
        {
          payment_id: pay.id,
          booking_id: b.id,
          type: 'authorization',
          status: 'pending',
          amount_minor: body.amount_minor,
          currency: body.currency,
          idempotency_key: key,
        },
        now,
      );
      return pay;
    },
    detail: (pay) => ({ payment_id: pay.id, detail: { intent_ref: ref } }),
  }));
  // An adopted intent keeps the key and reference it was first sent with.
  const sent = { key: op.reference, ref: String(op.detail.intent_ref ?? ref) };
  await faultPoint('authorize:before-provider');
  let p: ProviderPayment;
  try {
    p = await provider.authorize(
      {
        token: body.token,
        amount_minor: body.amount_minor,
        currency: body.currency,
        description: `Flight booking ${b.pnr ?? b.id}`,
        metadata: { booking_id: String(b.id), intent_ref: sent.ref },
      },
      { idempotencyKey: sent.key, signal: ctx.signal },
    );
  } catch (err) {
    if (isAmbiguous(err)) {
      ctx.log.warn({ booking: b.id, op: op.id, err: err.message }, 'authorize outcome unknown: pending');
      return ctx.transaction(async (trx) => {
        await markPending(trx, clock, op.id, `authorize: ${err.supplierCode ?? err.kind}`);
        return {
          status: 202,
          body: pendingPayment(await paymentWithTransactions(trx, pending)),
        };
      });
    }
    const declined = err instanceof SupplierError && err.kind === 'declined';
    const code = declined
      ? String(err.details.decline_code ?? err.supplierCode ?? 'card_declined')
      : err instanceof SupplierError
        ? (err.supplierCode ?? err.kind)
        : 'internal_error';
    const settle = async (trx: Db) => {
      const now = d.clock.now();
      await failAuthorization(trx, b.id, pending, key, code, now, declined);
      await settleOp(trx, op.id, 'failed', now, { outcome: `authorize: ${code}` });
    };
    if (!declined) {
      // Nothing was created (a refusal, our credentials): recorded as failed, then the 500 releases the key.
      await db.transaction().execute(settle);
      throw err;
    }
    return ctx.transaction(async (trx) => {
      await settle(trx);
      return errorResult(
        badRequest('payment_declined', 'The payment was declined.', { decline_code: code }),
        ctx,
      );
    });
  }
  await faultPoint('authorize:after-provider');
  const after = afterAuthorized ? await afterAuthorized(b) : undefined;
  if (after?.voided) {
    await provider.void(p.payment_ref, 'supplier rejected the booking', {
      idempotencyKey: `${sent.key}:void`,
    });
  }
  return ctx.transaction(async (trx) => {
    const now = d.clock.now();
    let pay = await settleAuthorized(trx, pending, sent.key, p, now);
    let booking = (await findBooking(trx, b.id, { forUpdate: true })) as BookingRow;
    if (after) booking = await after.apply(trx, booking, now);
    if (after?.voided) {
      pay = await updatePayment(trx, pay.id, { state: nextPaymentState(pay.state, 'void') }, now);
      await insertTransaction(
        trx,
        {
          payment_id: pay.id,
          booking_id: b.id,
          type: 'void',
          status: 'succeeded',
          amount_minor: pay.amount_minor,
          currency: pay.currency,
          provider_ref: p.payment_ref,
          reason: 'supplier rejected the booking',
        },
        now,
      );
    } else if (canTransition(booking.status, 'payment_authorized')) {
      booking = await transition(trx, booking, 'payment_authorized', now);
    }
    await faultPoint('authorize:before-commit');
    await settleOp(trx, op.id, 'done', now, { outcome: pay.state });
    if (after?.error) return errorResult(badRequest(after.error.code, after.error.detail), ctx);
    return { status: 200, body: await paymentWithTransactions(trx, pay) };
  });
}

/**
 * An authorize intent whose request died before the provider call, found by its retry (same scope, so
 * the same provider Idempotency-Key) and not at the provider: the retry carries it on with its rows.
 */
async function adopt(d: BookingDeps, ctx: RequestContext, op: MoneyOp) {
  const { db } = d;
  const pay = op.payment_id === null ? undefined : await findPaymentById(db, op.payment_id);
  const b = await findBooking(db, op.booking_id);
  if (pay?.state !== 'PENDING' || !b) return undefined;
  await opsDb(db)
    .updateTable('booking_money_ops')
    .set({ request_id: ctx.requestId, updated_at: d.clock.now() })
    .where('id', '=', op.id)
    .execute();
  ctx.log.info({ booking: b.id, op: op.id }, 'retry takes over the authorize intent of a dead request');
  return { op, booking: b, result: pay };
}
