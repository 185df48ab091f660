/**
 * The money side of a confirmed ticket void or refund: once the booking is `ticket_voided` or
 * `ticket_refunded`, its payment gives the money back.
 *
 * - An authorization not yet captured is released (void); when the supplier keeps a fee, only the
 *   customer's share of that fee is captured and the rest of the authorization released (partial capture).
 * - A captured payment is refunded the customer's share of the supplier's refund: what the customer paid
 *   times refund / supplier total (markup and conversion included, so a full void returns everything and a
 *   refund that keeps a fee returns the same proportion of the customer's price). Without a quote, all of it.
 *
 * Exactly once: the movement carries one key per booking and payment (`bk<id>:ticket-settle:<intent>`), its pending transaction
 * row is written under the booking lock together with its intent op (`booking_money_ops`), and the provider
 * receives that same Idempotency-Key on every attempt. A lost provider answer leaves the op pending for the
 * money.reconcile job, as every other payment movement.
 *
 * Driven from two places: inline by whoever moved the booking (the confirming request, whose answer carries
 * `payment`; the follow-up job when a consolidator completes later), and by a durable job queued in the very
 * transaction that moved the booking, so a process that dies between the two still gives the money back.
 */
import { writeAudit } from '../../../audit/audit-log.ts';
import type { Clock } from '../../../internal/clock.ts';
import { faultPoint } from '../../../internal/fault-hooks.ts';
import { enqueue, finishQueued, type Job, type JobHandler } from '../../../jobs/runner.ts';
import { HttpError } from '../../../kernel/errors.ts';
import type { RequestContext } from '../../../kernel/types.ts';
import type { Db } from '../../../storage/schema.ts';
import type { BookingDeps } from '../deps.ts';
import { beginOp, markPending, opsDb, settleOp } from '../money-ops.ts';
import { TICKET_SETTLES } from '../state-machine.ts';
import type { BookingRow } from '../store.ts';
import { findBooking } from '../store.ts';
import { bookingDb } from '../tables.ts';
import { customerShare, type Quote } from '../ticket-quote.ts';
import { type Movement, type MovePlan, movementDetail } from './movement.ts';
import type { PaymentService } from './payment-service.ts';
import { findPaymentById, latestPayment, type PaymentRow } from './store.ts';

export const TICKET_SETTLE_QUEUE = 'payment.ticket_settle';
/** The backstop job looks this long after the booking moved (the mover settles inline before that). */
export const TICKET_SETTLE_DELAY_MS = 15_000;
const TICKET_SETTLE_MAX_ATTEMPTS = 20;

/** What a confirmed void/refund did (or will do) with the booking's payment; `payment` in the answer. */
export interface TicketPaymentOutcome {
  /** void: the authorization released; refund: captured money returned; partial_capture: only the fee
   * captured and the rest of the authorization released; none: nothing to give back. */
  action: 'void' | 'refund' | 'partial_capture' | 'none';
  /** Money returned to the customer, in the payment's currency and minor units. */
  amount_minor: number;
  currency: string;
  /** succeeded; pending (the provider's answer was lost: being settled); awaiting_supplier (the
   * consolidator has not completed the request yet: the money moves when it does); failed (the provider
   * refused: an operator must act, see the audit log); manual_review (a refund whose supplier quote was
   * never received: nothing was moved, an operator decides the amount with a manual refund);
   * not_required (no live payment, or nothing back). */
  status: 'succeeded' | 'pending' | 'awaiting_supplier' | 'failed' | 'manual_review' | 'not_required';
}

/** The movement's key: one per booking and payment (the provider's Idempotency-Key; its PaymentIntent in it
 * keeps it unique at the provider even where booking ids repeat, e.g. a restored database). */
const prefixOf = (bookingId: number) => `bk${bookingId}:ticket-settle`;
const keyOf = (bookingId: number, p: PaymentRow) =>
  `${prefixOf(bookingId)}:${p.provider_payment_ref ?? p.id}`;

/** Queues the backstop in `db` (the transaction that moved the booking). */
export async function queueTicketSettlement(db: Db, clock: Clock, bookingId: number): Promise<void> {
  const now = clock.now();
  await enqueue(
    db,
    TICKET_SETTLE_QUEUE,
    { booking_id: bookingId },
    {
      dedupeKey: `${TICKET_SETTLE_QUEUE}:${bookingId}`,
      maxAttempts: TICKET_SETTLE_MAX_ATTEMPTS,
      runAt: new Date(now.getTime() + TICKET_SETTLE_DELAY_MS),
    },
    clock,
  );
}

/** The supplier's quote of the latest confirmed void/refund on the booking (recorded on its op). */
async function latestQuote(db: Db, bookingId: number): Promise<Quote> {
  const op = await opsDb(db)
    .selectFrom('booking_money_ops')
    .select(['detail'])
    .where('booking_id', '=', bookingId)
    .where('kind', 'in', ['ticket_void', 'ticket_refund'])
    .where('status', '=', 'done')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  const detail = (op?.detail ?? {}) as Record<string, unknown>;
  return { refund: detail.refund as Quote['refund'], fee: detail.fee as Quote['fee'] };
}

/** What giving the money back means for this payment, or null when nothing moves. */
export function decide(
  p: PaymentRow,
  share: number,
): {
  kind: Movement;
  amount: number | undefined;
  returned: number;
  action: TicketPaymentOutcome['action'];
} | null {
  if (p.state === 'AUTHORIZED') {
    const fee = p.amount_minor - Math.min(share, p.amount_minor);
    if (fee <= 0) return { kind: 'void', amount: undefined, returned: p.amount_minor, action: 'void' };
    return { kind: 'capture', amount: fee, returned: p.amount_minor - fee, action: 'partial_capture' };
  }
  if (p.state === 'CAPTURED' || p.state === 'SETTLED') {
    const refundable = p.captured_minor - p.refunded_minor;
    const amount = Math.min(refundable, share - p.refunded_minor);
    if (amount <= 0) return null;
    return { kind: 'refund', amount, returned: amount, action: 'refund' };
  }
  return null;
}

/** What a confirmed action that the consolidator still works on will give back (nothing moved yet). */
export async function projectedSettlement(
  db: Db,
  b: BookingRow,
  quote: Quote,
): Promise<TicketPaymentOutcome | null> {
  const p = await latestPayment(db, b.id);
  if (!p) return null;
  const d = decide(p, customerShare(p.amount_minor, quote, b.supplier_total_minor, p.currency));
  if (!d) return { action: 'none', amount_minor: 0, currency: p.currency, status: 'not_required' };
  return { action: d.action, amount_minor: d.returned, currency: p.currency, status: 'awaiting_supplier' };
}

/** The settlement already written for this booking, as the answer shows it. */
async function recorded(db: Db, bookingId: number): Promise<TicketPaymentOutcome | null> {
  const tx = await bookingDb(db)
    .selectFrom('booking_payment_transactions')
    .selectAll()
    .where('booking_id', '=', bookingId)
    .where('idempotency_key', 'like', `${prefixOf(bookingId)}:%`)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  if (!tx) return null;
  const pay = await findPaymentById(db, Number(tx.payment_id));
  const amount = Number(tx.amount_minor);
  const returned = tx.type === 'capture' && pay ? pay.amount_minor - amount : amount;
  const action: TicketPaymentOutcome['action'] =
    tx.type === 'capture' ? 'partial_capture' : tx.type === 'void' ? 'void' : 'refund';
  return {
    action,
    amount_minor: returned,
    currency: tx.currency,
    status: tx.status === 'succeeded' ? 'succeeded' : tx.status === 'failed' ? 'failed' : 'pending',
  };
}

class NothingToMove extends Error {}

/**
 * Gives the money back for a booking that is ticket_voided or ticket_refunded, once. Returns what it did (or
 * what was done before), null when the booking is not in such a status. Throws only on infrastructure
 * errors; an op in the way answers `pending` (the job tries again).
 */
export async function settleTicketChange(
  d: BookingDeps,
  payments: PaymentService,
  bookingId: number,
  /** The request that moved the booking (its lease owns the movement), or none for a job. */
  ctx: RequestContext | null = null,
): Promise<TicketPaymentOutcome | null> {
  const out = await settle(d, payments, bookingId, ctx);
  // Settled inline: the backstop has nothing left to do.
  if (out && out.status !== 'pending')
    await finishQueued(d.db, `${TICKET_SETTLE_QUEUE}:${bookingId}`, d.clock.now());
  return out;
}

async function settle(
  d: BookingDeps,
  payments: PaymentService,
  bookingId: number,
  ctx: RequestContext | null,
): Promise<TicketPaymentOutcome | null> {
  const { db, clock } = d;
  const b0 = await findBooking(db, bookingId);
  if (!b0 || !TICKET_SETTLES.includes(b0.status)) return null;
  const before = await recorded(db, bookingId);
  if (before) return before;
  const quote = await latestQuote(db, bookingId);
  let key = prefixOf(bookingId);
  let begun: Awaited<
    ReturnType<typeof beginOp<{ plan: MovePlan; returned: number; action: TicketPaymentOutcome['action'] }>>
  >;
  let nothing: TicketPaymentOutcome | null = null;
  try {
    begun = await beginOp({
      db,
      clock,
      bookingId,
      kind: 'refund',
      key,
      ctx,
      check: async (trx, b) => {
        const p = await latestPayment(trx, b.id, true);
        const already = await bookingDb(trx)
          .selectFrom('booking_payment_transactions')
          .select('id')
          .where('booking_id', '=', b.id)
          .where('idempotency_key', 'like', `${prefixOf(b.id)}:%`)
          .executeTakeFirst();
        if (already || !TICKET_SETTLES.includes(b.status)) throw new NothingToMove();
        if (!p || p.state === 'PENDING') {
          // An authorization whose outcome is still being settled: the job comes back once it is known.
          if (p) throw new HttpError(409, 'operation_in_progress', 'The payment is still being settled.');
          nothing = { action: 'none', amount_minor: 0, currency: b.pricing.currency, status: 'not_required' };
          throw new NothingToMove();
        }
        if (!quote.refund && b.status === 'refunded' && p.state !== 'AUTHORIZED') {
          // A void gives everything back; a refund keeps what the supplier keeps, which only its quote says.
          nothing = { action: 'refund', amount_minor: 0, currency: p.currency, status: 'manual_review' };
          throw new NothingToMove();
        }
        const dec = decide(p, customerShare(p.amount_minor, quote, b.supplier_total_minor, p.currency));
        if (!dec) {
          nothing = { action: 'none', amount_minor: 0, currency: p.currency, status: 'not_required' };
          throw new NothingToMove();
        }
        const reason = `ticket ${b.status === 'cancelled' ? 'void' : 'refund'} confirmed`;
        key = keyOf(b.id, p);
        const plan = await payments.planMovement(trx, b, p, dec.kind, dec.amount, reason, key);
        return { plan, returned: dec.returned, action: dec.action };
      },
      detail: (r) => ({ payment_id: r.plan.payment.id, detail: movementDetail(r.plan) }),
    });
  } catch (err) {
    if (err instanceof NothingToMove) {
      const n = nothing as TicketPaymentOutcome | null;
      if (n?.status === 'manual_review')
        await writeAudit(db, null, {
          entity: 'booking',
          entityId: bookingId,
          action: 'ticket_payment_settlement',
          reason:
            'refund confirmed without the supplier quote: an operator decides the amount (manual refund)',
          changes: { key, status: 'manual_review' },
          companyId: b0.company_id,
        });
      return n ?? (await recorded(db, bookingId));
    }
    if (err instanceof HttpError && err.status === 409) {
      const p = await latestPayment(db, bookingId);
      return p ? { action: 'refund', amount_minor: 0, currency: p.currency, status: 'pending' } : null;
    }
    throw err;
  }
  const { op, result } = begun;
  const { plan } = result;
  await faultPoint('ticketSettle:before-provider');
  const r = await payments.callMovement(plan);
  const outcome: TicketPaymentOutcome = {
    action: result.action,
    amount_minor: result.returned,
    currency: plan.payment.currency,
    status: 'succeeded',
  };
  await db.transaction().execute(async (trx) => {
    const now = clock.now();
    if (r.ok) {
      await payments.recordMovement(trx, bookingId, plan, r, now);
      await settleOp(trx, op.id, 'done', now, { outcome: `ticket settlement: ${plan.kind}` });
    } else if (r.ambiguous) {
      await markPending(trx, clock, op.id, r.reason);
      outcome.status = 'pending';
    } else {
      await payments.failMovement(trx, plan, r.error);
      await settleOp(trx, op.id, 'failed', now, { outcome: r.error.message.slice(0, 500) });
      outcome.status = 'failed';
    }
    await writeAudit(trx, null, {
      entity: 'booking',
      entityId: bookingId,
      action: 'ticket_payment_settlement',
      reason: `${outcome.action} ${outcome.amount_minor} ${outcome.currency}: ${outcome.status}`,
      changes: { movement: plan.kind, amount_minor: plan.amount, key },
      companyId: b0.company_id,
    });
  });
  return outcome;
}

/** The backstop job: settles, and runs again while the outcome is still pending. */
export function ticketSettlementJobHandlers(
  d: BookingDeps,
  payments: PaymentService,
): Record<string, JobHandler> {
  return {
    [TICKET_SETTLE_QUEUE]: async (job: Job) => {
      const { booking_id } = job.payload as { booking_id: number };
      const out = await settleTicketChange(d, payments, booking_id);
      if (out?.status === 'pending')
        throw new Error(`ticket settlement of booking ${booking_id} still pending`);
    },
  };
}
