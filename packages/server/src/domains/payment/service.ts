/**
 * Payments through the PaymentProvider adapter. Each provider call carries its own idempotency key,
 * derived from the booking, the movement and the request's Idempotency-Key, so a retried request never
 * moves money twice. Provider first, then one transaction writes the payment, its transaction row and
 * the booking's status (and, through ctx.transaction, the idempotent response).
 */
import { badRequest, HttpError, notFound } from '../../kernel/errors.ts';
import type { RequestContext } from '../../kernel/types.ts';
import type { Db } from '../../storage/schema.ts';
import { SupplierError } from '../../suppliers/ports.ts';
import type { BookingDeps } from '../booking/deps.ts';
import { canTransition } from '../booking/state-machine.ts';
import { type BookingRow, findBooking, loadBooking, transition } from '../booking/store.ts';
import { isLivePayment, nextPaymentState } from './state-machine.ts';
import {
  insertPayment,
  insertTransaction,
  latestPayment,
  listPayments,
  type PaymentRow,
  paymentView,
  paymentWithTransactions,
  transactionsOf,
  updatePayment,
} from './store.ts';

const errorBody = (
  ctx: RequestContext,
  code: string,
  detail: string,
  extra: Record<string, unknown> = {},
) => ({
  status: 400,
  body: { detail, code, request_id: ctx.requestId, ...extra },
});

export const idemKey = (ctx: RequestContext) => ctx.headers['idempotency-key'] ?? ctx.requestId;

export class PaymentService {
  readonly #d: BookingDeps;
  constructor(d: BookingDeps) {
    this.#d = d;
  }

  get #now() {
    return this.#d.clock.now();
  }

  async #payment(db: Db, b: BookingRow): Promise<PaymentRow> {
    const p = await latestPayment(db, b.id);
    if (!p) throw notFound('payment_not_found', 'The booking has no payment.');
    return p;
  }

  /** Authorizes at the provider; a decline is recorded (payment FAILED, booking payment_failed) and answered 400. */
  async authorize(
    ctx: RequestContext,
    afterAuthorized?: (b: BookingRow) => Promise<AfterAuthorize | undefined>,
  ) {
    const { db } = this.#d;
    const b = await loadBooking(db, ctx, ctx.params.booking_id);
    const body = ctx.body as { token: string; currency: string; amount_minor: number };
    if (body.currency !== b.pricing.currency)
      throw badRequest('currency_mismatch', `The booking is priced in ${b.pricing.currency}.`);
    if (body.amount_minor !== b.pricing.total_minor) {
      throw badRequest('amount_mismatch', `The booking total is ${b.pricing.total_minor} minor units.`);
    }
    if (!canTransition(b.status, 'payment_authorized')) {
      throw badRequest('invalid_booking_state', `A booking in status ${b.status} cannot be paid.`);
    }
    const live = await latestPayment(db, b.id);
    if (live && isLivePayment(live.state))
      throw badRequest('invalid_payment_state', `The booking already has a ${live.state} payment.`);
    const key = `bk${b.id}:authorize:${idemKey(ctx)}`;
    const provider = this.#d.suppliers.payments();
    try {
      const p = await provider.authorize(
        {
          token: body.token,
          amount_minor: body.amount_minor,
          currency: body.currency as never,
          description: `Flight booking ${b.pnr ?? b.id}`,
          metadata: { booking_id: String(b.id) },
        },
        { idempotencyKey: key, signal: ctx.signal },
      );
      const after = afterAuthorized ? await afterAuthorized(b) : undefined;
      if (after?.voided) {
        await provider.void(p.payment_ref, 'supplier rejected the booking', {
          idempotencyKey: `${key}:void`,
        });
      }
      return ctx.transaction(async (trx) => {
        const now = this.#now;
        let pay = await insertPayment(
          trx,
          {
            booking_id: b.id,
            state: nextPaymentState('PENDING', 'authorize_succeeded'),
            amount_minor: p.amount_minor,
            captured_minor: 0,
            refunded_minor: 0,
            currency: body.currency,
            provider: provider.name,
            provider_payment_ref: p.payment_ref,
          },
          now,
        );
        await insertTransaction(
          trx,
          {
            payment_id: pay.id,
            booking_id: b.id,
            type: 'authorization',
            status: 'succeeded',
            amount_minor: p.amount_minor,
            currency: body.currency,
            provider_ref: p.payment_ref,
            idempotency_key: key,
          },
          now,
        );
        let booking = b;
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
        if (after?.error) return errorBody(ctx, after.error.code, after.error.detail);
        return { status: 200, body: await paymentWithTransactions(trx, pay) };
      });
    } catch (err) {
      if (!(err instanceof SupplierError) || err.kind !== 'declined') throw err;
      const decline = String(err.details.decline_code ?? err.supplierCode ?? 'card_declined');
      return ctx.transaction(async (trx) => {
        const now = this.#now;
        const pay = await insertPayment(
          trx,
          {
            booking_id: b.id,
            state: nextPaymentState('PENDING', 'authorize_failed'),
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
            status: 'failed',
            amount_minor: body.amount_minor,
            currency: body.currency,
            failure_code: decline,
            idempotency_key: key,
          },
          now,
        );
        await transition(trx, b, 'payment_declined', now);
        return errorBody(ctx, 'payment_declined', 'The payment was declined.', { decline_code: decline });
      });
    }
  }

  /** Captures at the provider and records it; used by capture and by ticketing (capture=true). */
  async captureNow(_db: Db, b: BookingRow, p: PaymentRow, amount: number | undefined, key: string) {
    nextPaymentState(p.state, 'capture');
    const capturable = p.amount_minor - p.captured_minor;
    const amt = amount ?? capturable;
    if (amt > capturable)
      throw badRequest('amount_exceeds_capturable', `At most ${capturable} minor units can be captured.`);
    let res: Awaited<ReturnType<ReturnType<BookingDeps['suppliers']['payments']>['capture']>>;
    try {
      res = await this.#d.suppliers
        .payments()
        .capture(p.provider_payment_ref as string, amt, { idempotencyKey: key });
    } catch (err) {
      if (err instanceof SupplierError)
        throw badRequest('capture_failed', `The capture failed: ${err.message}`);
      throw err;
    }
    return async (trx: Db) => {
      const now = this.#now;
      const pay = await updatePayment(
        trx,
        p.id,
        { state: nextPaymentState(p.state, 'capture'), captured_minor: res.amount_received_minor || amt },
        now,
      );
      await insertTransaction(
        trx,
        {
          payment_id: p.id,
          booking_id: b.id,
          type: 'capture',
          status: 'succeeded',
          amount_minor: amt,
          currency: p.currency,
          provider_ref: res.payment_ref,
          idempotency_key: key,
        },
        now,
      );
      const fresh = await loadFresh(trx, b.id);
      if (canTransition(fresh.status, 'payment_captured'))
        await transition(trx, fresh, 'payment_captured', now);
      return pay;
    };
  }

  async capture(ctx: RequestContext) {
    const b = await loadBooking(this.#d.db, ctx, ctx.params.booking_id);
    const p = await this.#payment(this.#d.db, b);
    const write = await this.captureNow(
      this.#d.db,
      b,
      p,
      ctx.query.amount_minor as number | undefined,
      `bk${b.id}:capture:${idemKey(ctx)}`,
    );
    return ctx.transaction(async (trx) => ({
      status: 200,
      body: await paymentWithTransactions(trx, await write(trx)),
    }));
  }

  async voidNow(b: BookingRow, p: PaymentRow, reason: string | undefined, key: string) {
    nextPaymentState(p.state, 'void');
    try {
      await this.#d.suppliers
        .payments()
        .void(p.provider_payment_ref as string, reason, { idempotencyKey: key });
    } catch (err) {
      if (err instanceof SupplierError) throw badRequest('void_failed', `The void failed: ${err.message}`);
      throw err;
    }
    return async (trx: Db) => {
      const now = this.#now;
      const pay = await updatePayment(trx, p.id, { state: nextPaymentState(p.state, 'void') }, now);
      await insertTransaction(
        trx,
        {
          payment_id: p.id,
          booking_id: b.id,
          type: 'void',
          status: 'succeeded',
          amount_minor: p.amount_minor,
          currency: p.currency,
          provider_ref: p.provider_payment_ref,
          reason: reason ?? null,
          idempotency_key: key,
        },
        now,
      );
      const fresh = await loadFresh(trx, b.id);
      if (canTransition(fresh.status, 'payment_voided')) await transition(trx, fresh, 'payment_voided', now);
      return pay;
    };
  }

  async void(ctx: RequestContext) {
    const b = await loadBooking(this.#d.db, ctx, ctx.params.booking_id);
    const p = await this.#payment(this.#d.db, b);
    const write = await this.voidNow(
      b,
      p,
      ctx.query.reason as string | undefined,
      `bk${b.id}:void:${idemKey(ctx)}`,
    );
    return ctx.transaction(async (trx) => ({
      status: 200,
      body: await paymentWithTransactions(trx, await write(trx)),
    }));
  }

  /** Partial refunds keep CAPTURED/SETTLED; the one that leaves nothing refundable makes it REFUNDED. */
  async refundNow(
    b: BookingRow,
    p: PaymentRow,
    amount: number | undefined,
    reason: string | undefined,
    key: string,
  ) {
    const refundable = p.captured_minor - p.refunded_minor;
    const amt = amount ?? refundable;
    const full = amt >= refundable;
    nextPaymentState(p.state, full ? 'refund_full' : 'refund_partial');
    if (amt > refundable)
      throw badRequest('amount_exceeds_refundable', `At most ${refundable} minor units can be refunded.`);
    let res: { refund_ref: string; amount_minor: number };
    try {
      res = await this.#d.suppliers
        .payments()
        .refund(p.provider_payment_ref as string, amt, reason, { idempotencyKey: key });
    } catch (err) {
      if (err instanceof SupplierError)
        throw badRequest('refund_failed', `The refund failed: ${err.message}`);
      throw err;
    }
    return async (trx: Db) => {
      const now = this.#now;
      const pay = await updatePayment(
        trx,
        p.id,
        {
          state: nextPaymentState(p.state, full ? 'refund_full' : 'refund_partial'),
          refunded_minor: p.refunded_minor + amt,
        },
        now,
      );
      await insertTransaction(
        trx,
        {
          payment_id: p.id,
          booking_id: b.id,
          type: 'refund',
          status: 'succeeded',
          amount_minor: amt,
          currency: p.currency,
          provider_ref: res.refund_ref,
          reason: reason ?? null,
          idempotency_key: key,
        },
        now,
      );
      const fresh = await loadFresh(trx, b.id);
      if (full && canTransition(fresh.status, 'payment_refunded'))
        await transition(trx, fresh, 'payment_refunded', now);
      return pay;
    };
  }

  async refund(ctx: RequestContext) {
    const b = await loadBooking(this.#d.db, ctx, ctx.params.booking_id);
    const p = await this.#payment(this.#d.db, b);
    const write = await this.refundNow(
      b,
      p,
      ctx.query.amount_minor as number | undefined,
      ctx.query.reason as string | undefined,
      `bk${b.id}:refund:${idemKey(ctx)}`,
    );
    return ctx.transaction(async (trx) => ({
      status: 200,
      body: await paymentWithTransactions(trx, await write(trx)),
    }));
  }

  async history(ctx: RequestContext) {
    const b = await loadBooking(this.#d.db, ctx, ctx.params.booking_id);
    const txs = await transactionsOf(this.#d.db, b.id);
    const payments = (await listPayments(this.#d.db, b.id)).map((p) => paymentView(p, txs));
    return { booking_id: b.id, payments, transactions: txs };
  }
}

/** What PAYMENT_FIRST does once the authorization exists: place the order, then apply it in the transaction. */
export interface AfterAuthorize {
  apply(trx: Db, b: BookingRow, now: Date): Promise<BookingRow>;
  /** The supplier refused: the authorization was released at the provider. */
  voided?: boolean;
  error?: { code: string; detail: string };
}

async function loadFresh(db: Db, id: number): Promise<BookingRow> {
  const b = await findBooking(db, id);
  if (!b) throw new HttpError(404, 'booking_not_found', 'Booking not found.');
  return b;
}
