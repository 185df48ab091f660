/**
 * Payments through the PaymentProvider adapter, written ahead (money-ops.ts): one short transaction locks
 * the booking, checks the move under the lock and commits the intent (a PENDING payment or a pending
 * transaction row, and the `booking_money_ops` row with its reconciliation job); then the provider is
 * called with its own Idempotency-Key `bk<booking>:<movement>:<Idempotency-Key>`; then one transaction
 * settles the rows and the booking (and, through ctx.transaction, stores the idempotent response).
 * An answer the provider may have acted on and that was lost (timeout, reset, 5xx after create) is never a
 * 500 or a stored failure: it is answered 202 with the payment as it stands and `outcome: "pending"`, and
 * the `money.reconcile` job settles it by asking the provider by reference (authorize: the PaymentIntent
 * carrying metadata `intent_ref`; capture, void, refund: the same call with the same Idempotency-Key,
 * which the provider replays or performs exactly once).
 */
import { writeAudit } from '../../../audit/audit-log.ts';
import { faultPoint } from '../../../internal/fault-hooks.ts';
import { badRequest, type ErrorCode, HttpError, notFound } from '../../../kernel/errors.ts';
import { errorResult } from '../../../kernel/reply.ts';
import type { HandlerResult, JsonResult, OperationContext, RequestContext } from '../../../kernel/types.ts';
import type { Db } from '../../../storage/schema.ts';
import { SupplierError } from '../../../suppliers/ports/errors.ts';
import type { ProviderPayment } from '../../../suppliers/ports/payment.ts';
import type { BookingDeps } from '../deps.ts';
import {
  answerRetry,
  beginOp,
  callWindowOver,
  countLook,
  findOp,
  idemKey,
  isAmbiguous,
  type MoneyOp,
  type MoveResult,
  markPending,
  opsDb,
  recordedAnswer,
  referenceOf,
  rewritePendingAnswer,
  settleOp,
} from '../money-ops.ts';
import { canTransition } from '../state-machine.ts';
import { type BookingRow, findBooking, loadBooking, transition } from '../store.ts';
import { bookingDb } from '../tables.ts';
import { queueUnticketed } from '../unticketed-queue.ts';
import { reconcileCancel } from './cancel-settle.ts';
import { pspKey } from './psp-keys.ts';
import { isLivePayment, nextPaymentState } from './state-machine.ts';
import {
  findPaymentById,
  insertPayment,
  insertTransaction,
  latestPayment,
  listPayments,
  type PaymentRow,
  paymentView,
  paymentWithTransactions,
  settleTransaction,
  transactionsOf,
  updatePayment,
} from './store.ts';

export type Movement = 'capture' | 'void' | 'refund';

/** A movement decided under the booking lock, its pending transaction row already committed. */
export interface MovePlan {
  kind: Movement;
  payment: PaymentRow;
  amount: number;
  reason: string | null;
  /** Our key; the provider gets it prefixed with the installation (psp-keys.ts). */
  key: string;
  /** When the op was written (settling an old op): one written before the installation keeps a bare key. */
  writtenAt?: Date;
}

const FAILED_CODE: Record<Movement, ErrorCode> = {
  capture: 'capture_failed',
  void: 'void_failed',
  refund: 'refund_failed',
};

export const PENDING_MESSAGE =
  'The payment provider did not confirm the outcome (its answer was lost or timed out). Nothing is charged twice: the outcome is being settled with the provider and will show in payment/history within seconds to minutes. Do not retry with a new Idempotency-Key.';

/** The 202 body: the payment as it stands, plainly marked pending. */
export const pendingPayment = (view: ReturnType<typeof paymentView>, message = PENDING_MESSAGE) => ({
  ...view,
  outcome: 'pending' as const,
  message,
});

/** What the authorize job may conclude after this many looks that found no intent at the provider. */
const AUTHORIZE_NOT_FOUND_ATTEMPTS = 3;

export class PaymentService {
  readonly #d: BookingDeps;
  constructor(d: BookingDeps) {
    this.#d = d;
  }

  get #now() {
    return this.#d.clock.now();
  }

  async #payment(db: Db, b: BookingRow): Promise<PaymentRow> {
    const p = await latestPayment(db, b.id, true);
    if (!p) throw notFound('payment_not_found', 'The booking has no payment.');
    return p;
  }

  /**
   * Authorizes at the provider. Under the booking lock: at most one live payment (a PENDING one is written
   * ahead). A decline is recorded (payment FAILED, booking payment_failed) and answered 400; a lost answer
   * 202 pending.
   */
  async authorize(
    ctx: OperationContext<'authorizePayment'>,
    afterAuthorized?: (b: BookingRow) => Promise<AfterAuthorize | undefined>,
  ): Promise<HandlerResult> {
    const { db, clock } = this.#d;
    const b0 = await loadBooking(db, ctx, ctx.params.booking_id);
    const body = ctx.body;
    const key = pspKey(this.#d, `bk${b0.id}:authorize:${idemKey(ctx)}`);
    const ref = referenceOf(key);
    const provider = this.#d.suppliers.payments();
    // A retry of a request that died: the truth about its intent, or the intent itself, taken over (the
    // same payment row and provider key: Stripe replays or performs the authorization once).
    const prior = await answerRetry({
      db,
      ctx,
      bookingId: b0.id,
      kind: 'authorize',
      settle: (op) => this.reconcile(op),
      answer: (d, op) => this.answerOf(d, op),
    });
    if (prior && 'answer' in prior) return prior.answer;
    const adopted = prior ? await this.#adopt(ctx, prior.inFlight) : undefined;
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
        const now = this.#now;
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
        const now = this.#now;
        await this.#failAuthorization(trx, b.id, pending, key, code, now, declined);
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
      const now = this.#now;
      let pay = await this.#settleAuthorized(trx, pending, sent.key, p, now);
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
  async #adopt(ctx: RequestContext, op: MoneyOp) {
    const { db } = this.#d;
    const pay = op.payment_id === null ? undefined : await findPaymentById(db, op.payment_id);
    const b = await findBooking(db, op.booking_id);
    if (pay?.state !== 'PENDING' || !b) return undefined;
    await opsDb(db)
      .updateTable('booking_money_ops')
      .set({ request_id: ctx.requestId, updated_at: this.#now })
      .where('id', '=', op.id)
      .execute();
    ctx.log.info({ booking: b.id, op: op.id }, 'retry takes over the authorize intent of a dead request');
    return { op, booking: b, result: pay };
  }

  /**
   * What a payment op's request would have answered, for a same-key retry: the answer recorded when it
   * was settled (by the job or a retry), else the payment as it stands for a done op; a failed op without
   * a recorded answer changed nothing at the provider, so the retry runs anew (null).
   */
  async answerOf(db: Db, op: MoneyOp): Promise<JsonResult | null> {
    const recorded = recordedAnswer(op);
    if (recorded !== undefined) return recorded;
    if (op.status !== 'done' || op.payment_id === null) return null;
    const pay = await findPaymentById(db, op.payment_id);
    return pay ? { status: 200, body: await paymentWithTransactions(db, pay) } : null;
  }

  /** PENDING -> AUTHORIZED with the provider's reference; a payment already settled is left as it is. */
  async #settleAuthorized(trx: Db, pending: PaymentRow, key: string, p: ProviderPayment, now: Date) {
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

  async #withdrawAuthorization(trx: Db, op: MoneyOp, pending: PaymentRow, now: Date) {
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

  async #failAuthorization(
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

  /**
   * Decides a movement under the booking lock (`trx` holds it): the state table's refusals, the amounts,
   * then the pending transaction row. Used by capture/void/refund, ticketing, cancel and manual refunds.
   */
  async planMovement(
    trx: Db,
    b: BookingRow,
    p: PaymentRow,
    kind: Movement,
    amount: number | undefined,
    reason: string | undefined | null,
    key: string,
  ): Promise<MovePlan> {
    let amt: number;
    if (kind === 'capture') {
      nextPaymentState(p.state, 'capture');
      const capturable = p.amount_minor - p.captured_minor;
      amt = amount ?? capturable;
      if (amt > capturable)
        throw badRequest('amount_exceeds_capturable', `At most ${capturable} minor units can be captured.`);
    } else if (kind === 'void') {
      nextPaymentState(p.state, 'void');
      amt = p.amount_minor;
    } else {
      const refundable = p.captured_minor - p.refunded_minor;
      amt = amount ?? refundable;
      nextPaymentState(p.state, amt >= refundable ? 'refund_full' : 'refund_partial');
      if (amt > refundable)
        throw badRequest('amount_exceeds_refundable', `At most ${refundable} minor units can be refunded.`);
    }
    await insertTransaction(
      trx,
      {
        payment_id: p.id,
        booking_id: b.id,
        type: kind,
        status: 'pending',
        amount_minor: amt,
        currency: p.currency,
        provider_ref: kind === 'refund' ? null : p.provider_payment_ref,
        reason: reason ?? null,
        idempotency_key: key,
      },
      this.#now,
    );
    return { kind, payment: p, amount: amt, reason: reason ?? null, key };
  }

  /** The provider call of a planned movement; never throws for a provider failure. */
  async callMovement(plan: MovePlan, signal?: AbortSignal): Promise<MoveResult> {
    const provider = this.#d.suppliers.payments();
    const ref = plan.payment.provider_payment_ref as string;
    const opts = { idempotencyKey: pspKey(this.#d, plan.key, plan.writtenAt), ...(signal ? { signal } : {}) };
    try {
      if (plan.kind === 'capture') {
        const r = await provider.capture(ref, plan.amount, opts);
        return { ok: true, provider_ref: r.payment_ref, amount: r.amount_received_minor || plan.amount };
      }
      if (plan.kind === 'void') {
        const r = await provider.void(ref, plan.reason ?? undefined, opts);
        return { ok: true, provider_ref: r.payment_ref, amount: plan.amount };
      }
      const r = await provider.refund(ref, plan.amount, plan.reason ?? undefined, opts);
      return { ok: true, provider_ref: r.refund_ref, amount: r.amount_minor };
    } catch (err) {
      if (isAmbiguous(err))
        return { ok: false, ambiguous: true, reason: `${plan.kind}: ${err.supplierCode ?? err.kind}` };
      if (err instanceof SupplierError) return { ok: false, ambiguous: false, error: err };
      throw err;
    }
  }

  /**
   * Records a movement the provider confirmed: the payment (read fresh under its lock), the transaction
   * row and the booking. Settling the same movement twice (request and job) records it once.
   */
  async recordMovement(
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
  async failMovement(trx: Db, plan: MovePlan, error: SupplierError) {
    await settleTransaction(trx, plan.payment.id, plan.key, {
      status: 'failed',
      failure_code: error.supplierCode ?? error.kind,
    });
  }

  /**
   * Calls the provider for a planned movement and settles op and rows: 200 with the payment, 202 pending,
   * or the movement's 400 (its failure recorded). `after` runs in the settling transaction (audit).
   */
  async runMovement(
    ctx: RequestContext,
    op: MoneyOp,
    bookingId: number,
    plan: MovePlan,
    after?: (trx: Db, pay: PaymentRow, pending: boolean) => Promise<void>,
  ): Promise<HandlerResult> {
    const { db, clock } = this.#d;
    const r = await this.callMovement(plan, ctx.signal);
    if (!r.ok && !r.ambiguous) {
      await db.transaction().execute(async (trx) => {
        await this.failMovement(trx, plan, r.error);
        await settleOp(trx, op.id, 'failed', this.#now, { outcome: r.error.message.slice(0, 500) });
      });
      // The provider's own text stays in the op's outcome; the caller gets our words.
      throw badRequest(FAILED_CODE[plan.kind], `The payment provider refused the ${plan.kind}.`);
    }
    return ctx.transaction(async (trx) => {
      const now = this.#now;
      if (!r.ok) {
        ctx.log.warn({ booking: bookingId, op: op.id, reason: r.reason }, 'payment outcome unknown: pending');
        await markPending(trx, clock, op.id, r.reason);
        const pay = (await findPaymentById(trx, plan.payment.id)) as PaymentRow;
        if (after) await after(trx, pay, true);
        return { status: 202, body: pendingPayment(await paymentWithTransactions(trx, pay)) };
      }
      const pay = await this.recordMovement(trx, bookingId, plan, r, now);
      await settleOp(trx, op.id, 'done', now, { outcome: pay.state });
      if (after) await after(trx, pay, false);
      return { status: 200, body: await paymentWithTransactions(trx, pay) };
    });
  }

  /** capture / void / refund endpoints: the booking's latest payment, keyed per request. */
  async #endpoint(
    ctx: OperationContext<'capturePayment' | 'voidPayment' | 'refundPayment'>,
    kind: Movement,
  ): Promise<HandlerResult> {
    const b0 = await loadBooking(this.#d.db, ctx, ctx.params.booking_id);
    const key = `bk${b0.id}:${kind}:${idemKey(ctx)}`;
    // What any of the three may carry (capture: amount; void: reason; refund: both).
    const query: { amount_minor?: number; reason?: string } = ctx.query;
    const amount = kind === 'void' ? undefined : query.amount_minor;
    const reason = kind === 'capture' ? undefined : query.reason;
    const prior = await answerRetry({
      db: this.#d.db,
      ctx,
      bookingId: b0.id,
      kind,
      settle: (op) => this.reconcile(op),
      answer: (d, op) => this.answerOf(d, op),
      pending: (d, op) => this.pendingAnswer(d, op),
    });
    if (prior && 'answer' in prior) return prior.answer;
    const { op, result: plan } = await beginOp({
      db: this.#d.db,
      clock: this.#d.clock,
      bookingId: b0.id,
      kind,
      key,
      requestId: ctx.requestId,
      ctx,
      check: async (trx, b) =>
        this.planMovement(trx, b, await this.#payment(trx, b), kind, amount, reason, key),
      detail: (pl) => ({ payment_id: pl.payment.id, detail: movementDetail(pl) }),
    });
    return this.runMovement(ctx, op, b0.id, plan);
  }

  /** The 202 of a payment op whose outcome is still unknown at the provider. */
  async pendingAnswer(db: Db, op: MoneyOp): Promise<JsonResult> {
    const pay = op.payment_id === null ? undefined : await findPaymentById(db, op.payment_id);
    if (!pay) throw new HttpError(409, 'operation_in_progress', 'The payment operation is still in flight.');
    return { status: 202, body: pendingPayment(await paymentWithTransactions(db, pay)) };
  }

  capture(ctx: OperationContext<'capturePayment'>) {
    return this.#endpoint(ctx, 'capture');
  }

  void(ctx: OperationContext<'voidPayment'>) {
    return this.#endpoint(ctx, 'void');
  }

  refund(ctx: OperationContext<'refundPayment'>) {
    return this.#endpoint(ctx, 'refund');
  }

  /**
   * A movement inside another operation (cancel): plans it under the booking lock in its own short
   * transaction, calls the provider and returns the write for the caller's settling transaction. An
   * unknown outcome leaves the movement pending on `op` (its job settles it).
   */
  async moveWithin(
    op: MoneyOp,
    b: BookingRow,
    kind: Movement,
    amount: number | undefined,
    reason: string,
    key: string,
  ): Promise<(trx: Db) => Promise<PaymentRow | undefined>> {
    const { db, clock } = this.#d;
    const plan = await db.transaction().execute(async (trx) => {
      await findBooking(trx, b.id, { forUpdate: true });
      const p = await this.#payment(trx, b);
      const pl = await this.planMovement(trx, b, p, kind, amount, reason, key);
      await settleOpDetail(trx, op.id, { ...op.detail, ...movementDetail(pl) }, p.id);
      return pl;
    });
    const r = await this.callMovement(plan);
    if (!r.ok && !r.ambiguous) {
      await db.transaction().execute(async (trx) => {
        await this.failMovement(trx, plan, r.error);
        await settleOp(trx, op.id, 'failed', this.#now, { outcome: r.error.message.slice(0, 500) });
      });
      throw badRequest(FAILED_CODE[kind], `The payment provider refused the ${kind}.`);
    }
    return async (trx) => {
      if (!r.ok) {
        await markPending(trx, clock, op.id, r.reason);
        return findPaymentById(trx, plan.payment.id);
      }
      return this.recordMovement(trx, b.id, plan, r, this.#now);
    };
  }

  async history(ctx: OperationContext<'getPaymentHistory'>) {
    const b = await loadBooking(this.#d.db, ctx, ctx.params.booking_id);
    const txs = await transactionsOf(this.#d.db, b.id);
    const payments = (await listPayments(this.#d.db, b.id)).map((p) => paymentView(p, txs));
    return { booking_id: b.id, payments, transactions: txs };
  }

  /**
   * The `money.reconcile` job for payment ops (authorize, capture, void, refund, manual_refund, and the
   * movement of a cancel). Throws while the outcome is still unknown, so the runner retries with backoff.
   */
  async reconcile(op: MoneyOp): Promise<void> {
    const { db } = this.#d;
    if (op.kind === 'authorize') return this.#reconcileAuthorize(op);
    const movement = op.detail.movement as Movement | undefined;
    // A cancel that died before its payment step: the supplier's word on the order decides (cancel-settle.ts).
    if (op.kind === 'cancel' && !movement) return reconcileCancel(this.#d, this, op);
    if (!movement || op.payment_id === null) {
      // An op that died before its movement was planned (cancel before the payment step): nothing moved.
      await settleOp(db, op.id, 'failed', this.#now, { outcome: 'abandoned before the payment movement' });
      return;
    }
    const p = await findPaymentById(db, op.payment_id);
    if (!p) return;
    const key = String(op.detail.key ?? op.reference);
    const plan: MovePlan = {
      kind: movement,
      payment: p,
      amount: Number(op.detail.amount_minor),
      reason: (op.detail.reason as string | null) ?? null,
      key,
      writtenAt: op.created_at,
    };
    // The same call with the same Idempotency-Key: the provider replays what it did, or does it once now.
    const r = await this.callMovement(plan);
    if (!r.ok && r.ambiguous) throw new Error(`still unknown at the provider: ${r.reason}`);
    await db.transaction().execute(async (trx) => {
      const fresh = await findOp(trx, op.id, true);
      if (!fresh || (fresh.status !== 'requested' && fresh.status !== 'pending')) return;
      if (!r.ok) {
        await this.failMovement(trx, plan, r.error);
        await settleOp(trx, op.id, 'failed', this.#now, {
          outcome: `reconciled: ${r.error.message}`.slice(0, 500),
        });
        await rewritePendingAnswer(
          trx,
          fresh,
          op.kind === 'ticket'
            ? null
            : {
                status: 400,
                body: {
                  detail: `The payment provider refused the ${plan.kind}.`,
                  code: FAILED_CODE[plan.kind],
                  request_id: op.request_id,
                },
              },
        );
        return;
      }
      const pay = await this.recordMovement(trx, op.booking_id, plan, r, this.#now);
      await settleOp(trx, op.id, 'done', this.#now, { outcome: `reconciled: ${pay.state}` });
      // A ticket's capture settled here: the tickets were never asked for, the card is taken (unticketed).
      if (op.kind === 'ticket' && (await findBooking(trx, op.booking_id))?.status === 'paid')
        await queueUnticketed(trx, this.#d.clock, op.booking_id, 'the ticket request died after its capture');
      await rewritePendingAnswer(trx, fresh, await this.#settledAnswer(trx, fresh, plan, r.amount, pay));
    });
  }

  /**
   * What the request of a movement settled by reconciliation would have answered: the payment (capture,
   * void, refund, manual refund); a cancel's body; for a ticket op whose capture was lost, nothing (the
   * tickets were not asked for: a same-key retry runs anew and tickets, the capture is not repeated).
   */
  async #settledAnswer(trx: Db, op: MoneyOp, plan: MovePlan, amount: number, pay: PaymentRow) {
    if (op.kind === 'ticket') return null;
    if (op.kind !== 'cancel') return { status: 200, body: await paymentWithTransactions(trx, pay) };
    // A cancel plans its movement only after the supplier cancelled: the booking is cancelled too.
    let b = await loadFresh(trx, op.booking_id);
    if (canTransition(b.status, 'cancel')) {
      const from = b.status;
      b = await transition(trx, b, 'cancel', this.#now);
      await writeAudit(trx, null, {
        entity: 'booking',
        entityId: b.id,
        action: 'cancelled',
        reason: 'reconciled: the cancel request died after the supplier cancelled',
        changes: { from, to: b.status },
        companyId: b.company_id,
      });
    }
    const refund = plan.kind === 'refund' ? amount : 0;
    return {
      status: 200,
      body: {
        booking_id: b.id,
        status: b.status,
        cancelled: true,
        refund: { currency: pay.currency, amount_minor: refund },
        cancellation_fee: { currency: pay.currency, amount_minor: Number(op.detail.fee_minor ?? 0) },
      },
    };
  }

  async #reconcileAuthorize(op: MoneyOp): Promise<void> {
    const { db } = this.#d;
    const provider = this.#d.suppliers.payments();
    const pending = op.payment_id === null ? undefined : await findPaymentById(db, op.payment_id);
    if (pending?.state !== 'PENDING') {
      await settleOp(db, op.id, pending ? 'done' : 'failed', this.#now, { outcome: 'already settled' });
      return;
    }
    if (!provider.findByReference)
      throw new Error('the payment provider cannot look an authorization up by reference');
    const ref = String(op.detail.intent_ref ?? referenceOf(op.reference));
    const found = await provider.findByReference(ref);
    // Its owner is gone (the job checked, or this is its retry): once the call window is over, one look
    // that finds nothing is final; before, a call still on its way may yet create it.
    const looks = found ? op.looks : await countLook(db, op);
    if (!found && looks < AUTHORIZE_NOT_FOUND_ATTEMPTS && !callWindowOver(op, this.#now))
      throw new Error(`no authorization with reference ${ref} at the provider yet`);
    await db.transaction().execute(async (trx) => {
      const fresh = await findOp(trx, op.id, true);
      if (!fresh || (fresh.status !== 'requested' && fresh.status !== 'pending')) return;
      const now = this.#now;
      if (found && (found.status === 'requires_capture' || found.status === 'succeeded')) {
        const pay = await this.#settleAuthorized(trx, pending, op.reference, found, now);
        const b = await loadFresh(trx, op.booking_id);
        if (canTransition(b.status, 'payment_authorized'))
          await transition(trx, b, 'payment_authorized', now);
        await settleOp(trx, op.id, 'done', now, { outcome: `reconciled: ${pay.state} ${found.payment_ref}` });
        await rewritePendingAnswer(trx, fresh, {
          status: 200,
          body: await paymentWithTransactions(trx, pay),
        });
        return;
      }
      if (found && found.status === 'canceled') {
        // Authorized, then released at the provider: recorded as the void it was.
        const pay = await this.#settleAuthorized(trx, pending, op.reference, found, now);
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
        await this.#withdrawAuthorization(trx, fresh, pending, now);
        return;
      }
      const declined = found?.status === 'requires_payment_method';
      const code = declined ? 'card_declined' : found ? `provider_${found.status}` : 'not_found_at_provider';
      await this.#failAuthorization(trx, op.booking_id, pending, op.reference, code, now, declined);
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
}

export function movementDetail(pl: MovePlan): Record<string, unknown> {
  return { movement: pl.kind, amount_minor: pl.amount, reason: pl.reason, key: pl.key };
}

async function settleOpDetail(trx: Db, opId: number, detail: Record<string, unknown>, paymentId: number) {
  await opsDb(trx)
    .updateTable('booking_money_ops')
    .set({ detail: JSON.stringify(detail), payment_id: paymentId })
    .where('id', '=', opId)
    .execute();
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

/** What PAYMENT_FIRST does once the authorization exists: place the order, then apply it in the transaction. */
export interface AfterAuthorize {
  apply(trx: Db, b: BookingRow, now: Date): Promise<BookingRow>;
  /** The supplier refused: the authorization was released at the provider. */
  voided?: boolean;
  error?: { code: ErrorCode; detail: string };
}

async function loadFresh(db: Db, id: number): Promise<BookingRow> {
  const b = await findBooking(db, id, { forUpdate: true });
  if (!b) throw new HttpError(404, 'booking_not_found', 'Booking not found.');
  return b;
}
