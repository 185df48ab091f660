/**
 * Ticketing: issue (capturing an authorized payment first unless capture=false; a captured payment is
 * left alone; bags the supplier takes only on a paid order added right after), async status, documents,
 * void/refund/reissue with confirm semantics, servicing list. The booking follows its tickets: on a
 * confirmed action, and on any read (status, document, servicing) that finds a consolidator's request done.
 * A booking nobody reads is followed by a durable job (follow-up.ts) that runs the same reads.
 */
import { writeAudit } from '../../../audit/audit-log.ts';
import { faultPoint } from '../../../internal/fault-hooks.ts';
import type { Job, JobHandler } from '../../../jobs/runner.ts';
import { badRequest, notFound, notSupported } from '../../../kernel/errors.ts';
import type { HandlerResult, JsonResult, OperationContext, RequestContext } from '../../../kernel/types.ts';
import type { Db } from '../../../storage/schema.ts';
import { SupplierError } from '../../../suppliers/ports/errors.ts';
import type { ServicingRequest, TicketDocument, TicketStatus } from '../../../suppliers/ports/flight.ts';
import { addBagsOncePaid, bagsIssued, bookedBags } from '../bags.ts';
import type { BookingDeps } from '../deps.ts';
import {
  answerRetry,
  beginOp,
  callWindowOver,
  countLook,
  failOp,
  findOp,
  idemKey,
  isAmbiguous,
  MONEY_RECONCILE_QUEUE,
  type MoneyOp,
  type MoveResult,
  markPending,
  type OpKind,
  opsDb,
  ownerAlive,
  recordAnswer,
  recordedAnswer,
  rewritePendingAnswer,
  SERVICE_OP_KINDS,
  settleOp,
} from '../money-ops.ts';
import { type BookingEvent, type BookingStatus, canTransition, TICKET_SETTLES } from '../state-machine.ts';
import { type BookingRow, findBooking, loadBooking, transition, updateBooking } from '../store.ts';
import { flightSupplierOf, supplierFailure } from '../suppliers.ts';
import { json } from '../tables.ts';
import { shownQuote } from '../ticket-quote.ts';
import { queueUnticketed, UNTICKETED_QUEUE } from '../unticketed-queue.ts';
import { pendingActionBody, priorTicketAction, type TicketAction } from './action-retry.ts';
import {
  FOLLOW_UP_LIMIT_MS,
  type FollowUpPayload,
  queueTicketFollowUp,
  TICKET_FOLLOW_UP_QUEUE,
} from './follow-up.ts';
import { saveTickets, storedTickets } from './store.ts';
import { unticketedHandler } from './unticketed.ts';

/** Who moves the booking: the caller of a read endpoint, or the follow-up job (null: system). */
type Actor = RequestContext | null;

/** The booking's payment as ticketing sees it: its state, to decide whether a capture is due. */
interface TicketPayment {
  id: number;
  state: string;
}

/** A capture decided under the booking lock (payment/service.ts `MovePlan`). */
interface CapturePlan {
  payment: { id: number };
  amount: number;
  key: string;
}

/**
 * What ticketing asks of the payment sub-aggregate. Ticketing never imports payment/: ../routes.ts wires
 * PaymentService and the payment store in (the capture that a ticket request takes, and the payment shown
 * in its answer).
 */
export interface TicketPayments {
  latest(db: Db, bookingId: number, forUpdate?: boolean): Promise<TicketPayment | undefined>;
  view(db: Db, p: TicketPayment): Promise<unknown>;
  planCapture(trx: Db, b: BookingRow, p: TicketPayment, key: string): Promise<CapturePlan>;
  callMovement(plan: CapturePlan, signal?: AbortSignal): Promise<MoveResult>;
  failMovement(trx: Db, plan: CapturePlan, error: SupplierError): Promise<unknown>;
  recordMovement(
    trx: Db,
    bookingId: number,
    plan: CapturePlan,
    r: Extract<MoveResult, { ok: true }>,
    now: Date,
  ): Promise<unknown>;
  /** Settles a payment op (authorize, capture, void, refund, manual refund, cancel) by asking the provider. */
  reconcile(op: MoneyOp): Promise<void>;
  /**
   * Gives the money back for a booking a confirmed void or refund left in TICKET_SETTLES, once; what it did,
   * for the answer (payment/ticket-settlement.ts).
   */
  settleTicketChange(bookingId: number, ctx?: RequestContext | null): Promise<unknown>;
  /** Refunds the whole capture of a booking left `paid` without a ticket (payment/unticketed-refund.ts). */
  refundUnticketed(bookingId: number, reason: string): Promise<unknown>;
  /** What a confirmed action the consolidator still works on will give back (nothing moved yet). */
  projectedSettlement(
    db: Db,
    b: BookingRow,
    quote: {
      refund?: { amount_minor: number; currency: string } | undefined;
      fee?: { amount_minor: number; currency: string } | undefined;
    },
  ): Promise<unknown>;
  /** The backstop job of a settlement, queued in the transaction that moves the booking. */
  queueTicketSettlement(trx: Db, bookingId: number): Promise<void>;
}

export class TicketingService {
  readonly #d: BookingDeps;
  readonly #payments: TicketPayments;
  readonly #reconcileService: (op: MoneyOp) => Promise<void>;
  /** `reconcileService` settles the ancillary sub-aggregate's ops (SERVICE_OP_KINDS) met by the money job. */
  constructor(d: BookingDeps, payments: TicketPayments, reconcileService: (op: MoneyOp) => Promise<void>) {
    this.#d = d;
    this.#payments = payments;
    this.#reconcileService = reconcileService;
  }

  /**
   * Written ahead (money-ops.ts): under the booking lock the checks run and the intent (`ticket` op, and the
   * pending capture when one is due) commits; then capture, then the supplier. A supplier failure is first
   * checked against the supplier's own state: tickets found ("ALREADY TICKETED", a 5xx after the payment
   * was taken) settle the booking as ticketed; an unknown outcome is answered 202 pending and the
   * `money.reconcile` job reads the supplier until it knows; only a clear refusal is `ticketing_failed`.
   */
  async issue(ctx: OperationContext<'issueTickets'>): Promise<HandlerResult> {
    const { db, clock } = this.#d;
    const b0 = await loadBooking(db, ctx, ctx.params.booking_id);
    const capture = ctx.body?.capture ?? true;
    const key = `bk${b0.id}:ticket:${idemKey(ctx)}`;
    const captureKey = `bk${b0.id}:ticket-capture:${idemKey(ctx)}`;
    // A retry of a ticket request that died: the truth its intent settled to (asked now if still open).
    const prior = await answerRetry({
      db,
      ctx,
      bookingId: b0.id,
      kind: 'ticket',
      settle: (op) => this.reconcileOp(op),
      answer: (d, op) => this.#ticketAnswer(d, op),
      pending: async (d, op) => ({ status: 202, body: await this.#pendingBody(d, op.booking_id) }),
    });
    if (prior && 'answer' in prior) return prior.answer;
    const { op, result: plan } = await beginOp({
      db,
      clock,
      bookingId: b0.id,
      kind: 'ticket',
      key,
      requestId: ctx.requestId,
      ctx,
      check: async (trx, b) => {
        if (b.status === 'ticketed') throw badRequest('already_ticketed', 'The booking is already ticketed.');
        if (!canTransition(b.status, 'ticket_issued'))
          throw badRequest('invalid_booking_state', `A booking in status ${b.status} cannot be ticketed.`);
        if (!b.supplier_order_ref)
          throw badRequest('invalid_booking_state', 'The booking has no supplier order yet.');
        const p = await this.#payments.latest(trx, b.id, true);
        const paid = p && (p.state === 'AUTHORIZED' || p.state === 'CAPTURED' || p.state === 'SETTLED');
        if (!paid && b.payment_mode !== 'PNR_ONLY')
          throw badRequest('payment_required', 'Authorize a payment before ticketing.');
        if (p?.state === 'AUTHORIZED' && capture) return this.#payments.planCapture(trx, b, p, captureKey);
        return null;
      },
      detail: (pl) =>
        pl
          ? {
              payment_id: pl.payment.id,
              detail: { stage: 'capture', movement: 'capture', amount_minor: pl.amount, key: pl.key },
            }
          : { detail: { stage: 'issue' } },
    });
    if (plan) {
      // Committed on its own: money taken stays recorded even if the supplier then fails to ticket.
      await faultPoint('ticket:before-capture');
      const r = await this.#payments.callMovement(plan, ctx.signal);
      await faultPoint('ticket:after-capture');
      if (!r.ok && !r.ambiguous) {
        await db.transaction().execute(async (trx) => {
          await this.#payments.failMovement(trx, plan, r.error);
          await settleOp(trx, op.id, 'failed', clock.now(), { outcome: r.error.message.slice(0, 500) });
        });
        // The provider's own text stays in the op's outcome; the caller gets our words.
        throw badRequest('capture_failed', 'The payment provider refused the capture.');
      }
      if (!r.ok) return this.#pending(ctx, op, b0.id, r.reason);
      await db.transaction().execute(async (trx) => {
        await this.#payments.recordMovement(trx, b0.id, plan, r, clock.now());
        // updated_at: the supplier's call window (callWindowOver) starts now, not at the intent.
        await opsDb(trx)
          .updateTable('booking_money_ops')
          .set({ detail: JSON.stringify({ stage: 'issue', captured: r.amount }), updated_at: clock.now() })
          .where('id', '=', op.id)
          .execute();
        await faultPoint('ticket:before-capture-commit');
      });
    }
    const b = (await findBooking(db, b0.id)) as BookingRow;
    const orderRef = b.supplier_order_ref as string;
    const supplier = flightSupplierOf(this.#d.suppliers, b.supplier);
    let result: Awaited<ReturnType<typeof supplier.issueTicket>>;
    let settledBy: string | null = null;
    await faultPoint('ticket:before-supplier');
    try {
      // What the supplier's order costs; bags waiting for the payment are paid for as they are added.
      const amount = b.supplier_total_minor ?? b.pricing.total_minor - b.pricing.markup_minor;
      result = await supplier.issueTicket(
        orderRef,
        // In the supplier's currency: a converted booking's supplier total is not in pricing.currency.
        { currency: (b.supplier_currency ?? b.pricing.currency) as never, amount_minor: amount },
        { signal: ctx.signal },
      );
    } catch (err) {
      // Did the supplier ticket after all (an earlier attempt, or an answer lost after it acted)?
      const probe = await this.#probeIssued(b).catch(() => null);
      if (probe?.issued) {
        settledBy = `issued at the supplier despite: ${(err as Error).message}`.slice(0, 500);
        ctx.log.warn(
          { booking: b.id, err: (err as Error).message },
          'ticketing settled from the supplier state',
        );
        result = { issued: true, raw_status: probe.raw_status, tickets: probe.tickets };
      } else if (
        isAmbiguous(err) ||
        // Our own abort (shutdown grace over, client gone) says nothing about what the supplier did.
        ctx.signal?.aborted ||
        (err instanceof SupplierError && err.kind === 'unavailable' && !probe)
      ) {
        return this.#pending(
          ctx,
          op,
          b.id,
          `ticket: ${(err as SupplierError).supplierCode ?? (err as SupplierError).kind}`,
        );
      } else {
        await failOp(db, clock, op.id, `ticket: ${(err as Error).message}`);
        if (b.status === 'paid') await queueUnticketed(db, clock, b.id, 'the supplier refused the issuance');
        return supplierFailure(err, { failed: 'ticketing_failed', unsupported: 'ticketing_failed' });
      }
    }
    await faultPoint('ticket:after-supplier');
    // The order is paid now: bags the supplier would not take on the hold are added right after.
    const added = await addBagsOncePaid(supplier, b, orderRef, ctx.signal);
    return ctx.transaction(async (trx) => {
      const now = this.#d.clock.now();
      let fresh = (await findBooking(trx, b.id, { forUpdate: true })) as BookingRow;
      const bags = added?.bags ?? bookedBags(fresh);
      fresh = await updateBooking(trx, b.id, now, {
        ticket_raw_status: result.raw_status,
        ...(bags.length > 0
          ? { offer: json({ ...fresh.offer, booked_bags: result.issued ? bagsIssued(bags) : bags }) }
          : {}),
        ...(added?.added_minor
          ? { supplier_total_minor: (fresh.supplier_total_minor ?? 0) + added.added_minor }
          : {}),
      });
      if (result.issued) {
        if (canTransition(fresh.status, 'ticket_issued'))
          fresh = await transition(trx, fresh, 'ticket_issued', now);
        await saveTickets(trx, b.id, result.tickets, now);
      } else if (supplier.capabilities.asyncTicketing && supplier.capabilities.ticketStatus) {
        // In process at the supplier: a job reads the status until the tickets are issued.
        await queueTicketFollowUp(trx, this.#d.clock, { booking_id: b.id, kind: 'issue' });
      }
      await writeAudit(trx, ctx, {
        entity: 'booking',
        entityId: b.id,
        action: result.issued ? 'ticketed' : 'ticketing_requested',
        ...(settledBy ? { reason: settledBy } : {}),
        changes: { raw_status: result.raw_status },
        companyId: b.company_id,
      });
      await faultPoint('ticket:before-commit');
      await settleOp(trx, op.id, 'done', now, { outcome: settledBy ?? result.raw_status });
      if (added) {
        const failed = added.bags.filter((x) => x.status === 'failed');
        await writeAudit(trx, ctx, {
          entity: 'booking',
          entityId: b.id,
          action: failed.length > 0 ? 'bags_failed' : 'bags_added',
          ...(failed.length > 0 ? { reason: failed.map((x) => x.reason).join('; ') } : {}),
          changes: {
            added_minor: added.added_minor,
            bags: added.bags.map((x) => ({ bag_option_id: x.bag_option_id, status: x.status })),
          },
          companyId: b.company_id,
        });
      }
      const pay = await this.#payments.latest(trx, b.id);
      return {
        status: 200,
        body: {
          booking_id: b.id,
          status: fresh.status,
          issued: result.issued,
          raw_status: result.raw_status,
          tickets: result.tickets,
          payment: pay ? await this.#payments.view(trx, pay) : null,
        },
      };
    });
  }

  /** 202: the ticketing (or its capture) outcome is unknown; the `money.reconcile` job settles it. */
  async #pending(
    ctx: RequestContext,
    op: MoneyOp,
    bookingId: number,
    reason: string,
  ): Promise<HandlerResult> {
    ctx.log.warn({ booking: bookingId, op: op.id, reason }, 'ticketing outcome unknown: pending');
    return ctx.transaction(async (trx) => {
      await markPending(trx, this.#d.clock, op.id, reason);
      return { status: 202, body: await this.#pendingBody(trx, bookingId) };
    });
  }

  async #pendingBody(db: Db, bookingId: number) {
    const fresh = (await findBooking(db, bookingId)) as BookingRow;
    const pay = await this.#payments.latest(db, bookingId);
    return {
      booking_id: bookingId,
      status: fresh.status,
      issued: false,
      raw_status: 'pending',
      tickets: [],
      payment: pay ? await this.#payments.view(db, pay) : null,
      outcome: 'pending' as const,
      message: TICKETING_PENDING_MESSAGE,
    };
  }

  /**
   * What a ticket op's request would have answered, for a same-key retry: the answer recorded when it was
   * settled, else, for a done op, the booking's tickets as they stand. A failed op, or one whose capture
   * alone was settled (the tickets were never asked for), runs anew: the capture is not repeated.
   */
  async #ticketAnswer(db: Db, op: MoneyOp): Promise<JsonResult | null> {
    const recorded = recordedAnswer(op);
    if (recorded !== undefined) return recorded;
    if (op.status !== 'done' || op.detail.stage === 'capture') return null;
    const b = (await findBooking(db, op.booking_id)) as BookingRow;
    const pay = await this.#payments.latest(db, b.id);
    return {
      status: 200,
      body: {
        booking_id: b.id,
        status: b.status,
        issued: b.status === 'ticketed',
        raw_status: b.ticket_raw_status ?? (b.status === 'ticketed' ? 'issued' : 'unknown'),
        tickets: await storedTickets(db, b.id),
        payment: pay ? await this.#payments.view(db, pay) : null,
      },
    };
  }

  /** Whether the supplier holds issued tickets for the order (status where it has one, else documents). */
  async #probeIssued(
    b: BookingRow,
  ): Promise<{ issued: boolean; raw_status: string; tickets: TicketDocument[] }> {
    const supplier = flightSupplierOf(this.#d.suppliers, b.supplier);
    const ref = b.supplier_order_ref as string;
    if (supplier.capabilities.ticketStatus) {
      const s = await supplier.ticketStatus(ref);
      if (!s.issued) return { issued: false, raw_status: s.raw_status, tickets: [] };
      const tickets = await supplier.ticketDocuments(ref).catch(() => [] as TicketDocument[]);
      return { issued: true, raw_status: s.raw_status, tickets };
    }
    const tickets = await supplier.ticketDocuments(ref);
    return { issued: tickets.length > 0, raw_status: tickets.length > 0 ? 'issued' : 'unknown', tickets };
  }

  /**
   * The `money.reconcile` job: payment ops go to the payment service; a ticket op reads the supplier until
   * it knows (tickets found: ticketed; none after TICKET_RECONCILE_ATTEMPTS looks: failed, with an audit
   * entry, the booking left as it is); a ticket void/refund follows the document; an op of another kind
   * that is still open after its request died is closed as abandoned.
   */
  /** The follow-up of a captured booking left without a ticket (unticketed.ts). */
  unticketed(job: Job): Promise<void> {
    const probe = (b: BookingRow) => this.#probeIssued(b);
    return unticketedHandler(this.#d, probe, (id, why) => this.#payments.refundUnticketed(id, why))(job);
  }

  async reconcileMoney(job: Job): Promise<void> {
    const { db, clock } = this.#d;
    const { op_id } = job.payload as { op_id: number };
    const op = await findOp(db, op_id);
    if (!op || (op.status !== 'requested' && op.status !== 'pending')) return;
    // Its request is still working on it (lease held): it settles the op itself; look again later.
    if (await ownerAlive(db, op, clock.now())) throw new Error(`op ${op.id} still owned by a live request`);
    return this.reconcileOp(op);
  }

  /**
   * Settles an op whose owner is gone by asking the provider or supplier: the job, or a same-key retry of
   * the request that died (answerRetry). Throws while the outcome is still unknown.
   */
  async reconcileOp(op: MoneyOp): Promise<void> {
    const { db, clock } = this.#d;
    const payKinds = ['authorize', 'capture', 'void', 'refund', 'manual_refund', 'cancel'];
    if (payKinds.includes(op.kind) || (op.kind === 'ticket' && op.detail.stage === 'capture'))
      return this.#payments.reconcile(op);
    if (SERVICE_OP_KINDS.includes(op.kind)) return this.#reconcileService(op);
    const b = await findBooking(db, op.booking_id);
    if (!b?.supplier_order_ref) {
      await failOp(db, clock, op.id, 'abandoned: no supplier order');
      return;
    }
    const giveUp = (await countLook(db, op)) >= TICKET_RECONCILE_ATTEMPTS;
    if (op.kind === 'ticket') {
      const probe = await this.#probeIssued(b).catch(() => null);
      // Its owner is gone: once the supplier call window is over, one look that finds no tickets is final.
      const final = giveUp || (probe !== null && callWindowOver(op, clock.now()));
      if (probe?.issued) {
        await db.transaction().execute(async (trx) => {
          const now = clock.now();
          const fresh = (await findBooking(trx, b.id, { forUpdate: true })) as BookingRow;
          const bags = bookedBags(fresh);
          if (canTransition(fresh.status, 'ticket_issued'))
            await transition(trx, fresh, 'ticket_issued', now, {
              ticket_raw_status: probe.raw_status,
              ...(bags.length > 0 ? { offer: json({ ...fresh.offer, booked_bags: bagsIssued(bags) }) } : {}),
            });
          await saveTickets(trx, b.id, probe.tickets, now);
          await writeAudit(trx, null, {
            entity: 'booking',
            entityId: b.id,
            action: 'ticketed',
            reason: `reconciled: tickets found at the supplier (${op.outcome ?? 'outcome unknown'})`,
            changes: { raw_status: probe.raw_status },
            companyId: b.company_id,
          });
          await settleOp(trx, op.id, 'done', now, { outcome: `reconciled: ${probe.raw_status}` });
          const after = (await findBooking(trx, b.id)) as BookingRow;
          const pay = await this.#payments.latest(trx, b.id);
          await rewritePendingAnswer(trx, op, {
            status: 200,
            body: {
              booking_id: b.id,
              status: after.status,
              issued: true,
              raw_status: probe.raw_status,
              tickets: probe.tickets,
              payment: pay ? await this.#payments.view(trx, pay) : null,
            },
          });
        });
        return;
      }
      if (!final)
        throw new Error(
          `ticketing still unconfirmed at the supplier (${probe?.raw_status ?? 'unreachable'})`,
        );
      await db.transaction().execute(async (trx) => {
        await writeAudit(trx, null, {
          entity: 'booking',
          entityId: b.id,
          action: 'ticketing_unconfirmed',
          reason: `no tickets at the supplier after ${op.looks} looks (${op.outcome ?? 'request died'})`,
          changes: { op_id: op.id },
          companyId: b.company_id,
        });
        await settleOp(trx, op.id, 'failed', clock.now(), {
          outcome: 'reconciled: no tickets at the supplier',
        });
        // Captured without a ticket: the follow-up tickets it (if the supplier did after all) or refunds.
        if ((await findBooking(trx, b.id))?.status === 'paid')
          await queueUnticketed(trx, clock, b.id, 'ticketing_unconfirmed');
        // Nothing was ticketed: a same-key retry runs anew instead of replaying "pending".
        await rewritePendingAnswer(trx, op, null);
      });
      return;
    }
    if (op.kind === 'ticket_void' || op.kind === 'ticket_refund') {
      const docs = await this.#documents(b).catch(() => [] as TicketDocument[]);
      const event = settledBy(docs);
      if (event || giveUp) {
        if (event) await this.#followTickets(null, b, { docs, cause: `reconciled ${op.kind}` });
        const after = await findBooking(db, b.id);
        await db.transaction().execute(async (trx) => {
          await settleOp(trx, op.id, event ? 'done' : 'failed', clock.now(), {
            outcome: event ? `reconciled: ${event}` : 'reconciled: tickets unchanged',
          });
          // For a same-key retry of a request that died: the confirmed action, or (unchanged) run anew.
          const action = op.kind === 'ticket_void' ? 'void' : 'refund';
          await recordAnswer(
            trx,
            op.id,
            event
              ? {
                  status: 200,
                  body: {
                    booking_id: b.id,
                    action,
                    confirmed: true,
                    permitted: true,
                    determination: 'ok',
                    message: `The ${action} was confirmed: the ticket document shows it.`,
                    booking_status: after?.status ?? b.status,
                  },
                }
              : null,
          );
        });
        if (event) await this.#payments.settleTicketChange(b.id);
        return;
      }
      throw new Error(`${op.kind} still unconfirmed at the supplier`);
    }
    await failOp(db, clock, op.id, `abandoned: the ${op.kind} request ended without settling`);
  }

  /** Async issuance (Placed, then Ticketed): reading the status also completes the booking when issued. */
  async status(ctx: OperationContext<'getTicketStatus'>) {
    const b = await loadBooking(this.#d.db, ctx, ctx.params.booking_id);
    const supplier = flightSupplierOf(this.#d.suppliers, b.supplier);
    if (!supplier.capabilities.ticketStatus)
      throw notSupported(
        'not_supported_by_provider',
        `Supplier ${b.supplier} issues tickets synchronously; there is no ticketing status.`,
      );
    if (!b.supplier_order_ref) throw notFound('booking_not_found', 'The booking has no supplier order yet.');
    const s = await this.#readStatus(ctx, b, ctx.signal);
    return {
      booking_id: b.id,
      issued: s.issued,
      raw_status: s.raw_status,
      raw_status_text: s.raw_status_text,
    };
  }

  /**
   * Reads the supplier's ticket status and moves the booking on (issued -> ticketed with its documents; a
   * later raw status -> the booking follows its tickets). GET …/ticket/status and the follow-up job.
   */
  async #readStatus(actor: Actor, b: BookingRow, signal?: AbortSignal): Promise<TicketStatus> {
    const supplier = flightSupplierOf(this.#d.suppliers, b.supplier);
    const ref = b.supplier_order_ref as string;
    let s: TicketStatus;
    try {
      s = await supplier.ticketStatus(ref, { signal });
    } catch (err) {
      return supplierFailure(err, {
        failed: 'ticketing_failed',
        unsupported: 501,
        notFound: 'booking_not_found',
      });
    }
    if (s.issued && b.status !== 'ticketed' && canTransition(b.status, 'ticket_issued')) {
      const docs = await supplier.ticketDocuments(ref).catch(() => [] as TicketDocument[]);
      await this.#d.db.transaction().execute(async (trx) => {
        const now = this.#d.clock.now();
        const fresh = (await findBooking(trx, b.id, { forUpdate: true })) as BookingRow;
        const bags = bookedBags(fresh);
        if (canTransition(fresh.status, 'ticket_issued')) {
          await transition(trx, fresh, 'ticket_issued', now, {
            ticket_raw_status: s.raw_status,
            ...(bags.length > 0 ? { offer: json({ ...fresh.offer, booked_bags: bagsIssued(bags) }) } : {}),
          });
          if (!actor)
            await writeAudit(trx, null, {
              entity: 'booking',
              entityId: b.id,
              action: 'ticketed',
              reason: `ticket status ${s.raw_status} read by the follow-up job`,
              changes: { raw_status: s.raw_status },
              companyId: b.company_id,
            });
        }
        await saveTickets(trx, b.id, docs, now);
      });
      // Issued and already voided or refunded before anyone looked: the booking follows at once.
      if (settledBy(docs))
        await this.#followTickets(actor, b, { docs, cause: `ticket status ${s.raw_status}` });
    } else if (s.issued && s.raw_status !== b.ticket_raw_status && FOLLOWS.includes(b.status)) {
      // The ticket changed at the supplier since we last looked (a consolidator completing a void or a
      // refund request): the booking follows its document.
      await this.#followTickets(actor, b, { cause: `ticket status ${s.raw_status} (${s.raw_status_text})` });
      await updateBooking(this.#d.db, b.id, this.#d.clock.now(), { ticket_raw_status: s.raw_status });
    }
    return s;
  }

  /** The booking follows the document it reads (coupons all VOID or REFUNDED). */
  async document(ctx: OperationContext<'getTicketDocument'>) {
    const b = await loadBooking(this.#d.db, ctx, ctx.params.booking_id);
    const docs = await this.#documents(b);
    if (docs.length === 0) throw notFound('ticket_not_found', 'The booking has no tickets yet.');
    if (FOLLOWS.includes(b.status) && settledBy(docs))
      await this.#followTickets(ctx, b, { docs, cause: 'ticket document read' });
    return { booking_id: b.id, pnr: b.pnr, tickets: docs };
  }

  async #documents(b: BookingRow): Promise<TicketDocument[]> {
    if (!b.supplier_order_ref) return [];
    const supplier = flightSupplierOf(this.#d.suppliers, b.supplier);
    try {
      const docs = await supplier.ticketDocuments(b.supplier_order_ref);
      if (docs.length > 0) await saveTickets(this.#d.db, b.id, docs, this.#d.clock.now());
      return docs;
    } catch (err) {
      if (err instanceof SupplierError && err.kind === 'unsupported') {
        this.#d.logger?.warn({ err, booking_id: b.id }, 'supplier does not support ticket documents');
        throw notSupported('not_supported_by_provider', 'The supplier does not provide ticket documents.');
      }
      // The supplier is unreachable: the last snapshot still answers.
      const kept = await storedTickets(this.#d.db, b.id);
      if (kept.length > 0) return kept;
      return supplierFailure(err, {
        failed: 'ticket_not_found',
        unsupported: 501,
        notFound: 'ticket_not_found',
      });
    }
  }

  /** confirm=false quotes; confirm=true raises void/refund; reissue is quote-only. Determinations are 200. */
  async action(ctx: OperationContext<'performTicketAction'>) {
    const b = await loadBooking(this.#d.db, ctx, ctx.params.booking_id);
    const action = ctx.params.action;
    const confirm = ctx.query.confirm === true;
    const note = ctx.query.note;
    // A retry of a confirmed action whose request died: the settled truth first (reconciliation may have
    // moved the booking already), never the state check that the action itself changed.
    const settled =
      confirm && action !== 'reissue'
        ? await priorTicketAction(this.#d.db, ctx, b, action as TicketAction, (op) => this.reconcileOp(op))
        : undefined;
    if (settled) return settled;
    if (!b.supplier_order_ref || !['ticketed', 'confirmed', 'paid'].includes(b.status)) {
      throw badRequest('not_ticketed', `A booking in status ${b.status} has no ticket to ${action}.`);
    }
    if (action === 'reissue' && confirm) {
      return {
        booking_id: b.id,
        action,
        confirmed: false,
        permitted: false,
        determination: 'reissue_quote_only',
        message: 'Reissue is quote-only; call without confirm to price the change.',
        booking_status: b.status,
      };
    }
    const supplier = flightSupplierOf(this.#d.suppliers, b.supplier);
    const raise = confirm && action !== 'reissue';
    const kind: OpKind = action === 'void' ? 'ticket_void' : 'ticket_refund';
    const pendingBody = (status: BookingStatus) => pendingActionBody(b.id, action, status);
    // A confirmed void or refund moves the tickets: one at a time per booking, written ahead.
    const op = raise
      ? (
          await beginOp({
            db: this.#d.db,
            clock: this.#d.clock,
            bookingId: b.id,
            kind,
            key: `bk${b.id}:ticket-${action}:${idemKey(ctx)}`,
            requestId: ctx.requestId,
            ctx,
            check: async (_trx, fresh) => {
              if (!fresh.supplier_order_ref || !['ticketed', 'confirmed', 'paid'].includes(fresh.status))
                throw badRequest(
                  'not_ticketed',
                  `A booking in status ${fresh.status} has no ticket to ${action}.`,
                );
              return null;
            },
          })
        ).op
      : null;
    let r: Awaited<ReturnType<typeof supplier.ticketAction>>;
    try {
      r = await supplier.ticketAction(b.supplier_order_ref, action, raise, note, {
        signal: ctx.signal,
      });
    } catch (err) {
      if (op && isAmbiguous(err)) {
        await this.#d.db
          .transaction()
          .execute((trx) =>
            markPending(trx, this.#d.clock, op.id, `${action}: ${err.supplierCode ?? err.kind}`),
          );
        return pendingBody(b.status);
      }
      if (op) await failOp(this.#d.db, this.#d.clock, op.id, `${action}: ${(err as Error).message}`);
      return supplierFailure(err, { failed: 'ticket_action_failed', unsupported: 501 });
    }
    let status = b.status;
    let payment: unknown = null;
    if (r.confirmed && r.permitted) {
      status = await this.#followTickets(ctx, b, {
        coupon: r.coupon_status,
        cause: `${action} confirmed`,
        // Left pending at a consolidator: a job follows the request until the tickets show it.
        followUp:
          supplier.capabilities.servicing || supplier.capabilities.ticketStatus
            ? { request_id: r.servicing_request_id ?? null }
            : undefined,
      });
    }
    if (op)
      await settleOp(this.#d.db, op.id, 'done', this.#d.clock.now(), {
        outcome: `${r.determination}${r.confirmed && r.permitted ? '' : ' (not raised)'}`,
        // The supplier's quote: what the payment settlement gives back (now, or when a consolidator completes).
        detail: { ...op.detail, refund: r.refund ?? null, fee: r.fee ?? null },
      });
    if (raise && r.confirmed && r.permitted) {
      if (TICKET_SETTLES.includes(status) && status !== b.status) {
        await faultPoint('ticketAction:before-settlement');
        payment = await this.#payments.settleTicketChange(b.id, ctx);
        // A full refund moves a voided (cancelled) booking on to refunded.
        status = ((await findBooking(this.#d.db, b.id)) as BookingRow).status;
      } else
        payment = await this.#payments.projectedSettlement(this.#d.db, b, { refund: r.refund, fee: r.fee });
    }
    const { action: _a, refund, fee, ...rest } = r;
    // The quote in the booking's currency (contract §6), the supplier's own amounts beside it.
    return {
      booking_id: b.id,
      action,
      ...rest,
      ...shownQuote(b, { refund, fee }),
      booking_status: status,
      payment,
    };
  }

  /**
   * The booking follows its ticket document: coupons all VOID -> ticket_voided, all REFUNDED ->
   * ticket_refunded. Runs on a confirmed action (whose coupon status the supplier may report before its
   * documents show it) and whenever a read finds a servicing request done later (consolidators).
   */
  async #followTickets(
    actor: Actor,
    b: BookingRow,
    o: {
      docs?: TicketDocument[];
      coupon?: string | undefined;
      cause: string;
      /** Queue the follow-up job (same transaction) when the booking does not move now. */
      followUp?: { request_id: string | null } | undefined;
    },
  ) {
    const docs = o.docs ?? (await this.#documents(b).catch(() => [] as TicketDocument[]));
    const event = settledBy(docs) ?? COUPON_EVENTS[o.coupon ?? ''] ?? null;
    return this.#d.db.transaction().execute(async (trx: Db) => {
      const fresh = (await findBooking(trx, b.id, { forUpdate: true })) as BookingRow;
      if (docs.length > 0 && !o.docs) await saveTickets(trx, b.id, docs, this.#d.clock.now());
      if (!event || !canTransition(fresh.status, event)) {
        if (o.followUp && FOLLOWS.includes(fresh.status))
          await queueTicketFollowUp(trx, this.#d.clock, {
            booking_id: b.id,
            kind: 'servicing',
            request_id: o.followUp.request_id,
          });
        return fresh.status;
      }
      const after = await transition(trx, fresh, event, this.#d.clock.now());
      // The money goes back with the tickets: the mover settles inline, this job if it dies first.
      if (TICKET_SETTLES.includes(after.status)) await this.#payments.queueTicketSettlement(trx, b.id);
      await writeAudit(trx, actor, {
        entity: 'booking',
        entityId: b.id,
        action: event === 'ticket_voided' ? 'ticket_void' : 'ticket_refund',
        reason: o.cause,
        changes: { from: fresh.status, to: after.status },
        companyId: b.company_id,
      });
      return after.status;
    });
  }

  /** Reads the servicing list; a completed void/refund moves the booking. GET …/servicing and the job. */
  async #readServicing(actor: Actor, b: BookingRow, signal?: AbortSignal): Promise<ServicingRequest[]> {
    const supplier = flightSupplierOf(this.#d.suppliers, b.supplier);
    let items: ServicingRequest[];
    try {
      items = await supplier.listServicing(b.supplier_order_ref as string, { signal });
    } catch (err) {
      return supplierFailure(err, {
        failed: 'ticket_action_failed',
        unsupported: 501,
        notFound: 'booking_not_found',
      });
    }
    // A void or refund the consolidator has completed: the booking follows the tickets. (Quotes complete
    // at once and look the same here; their document shows live coupons, which moves nothing.)
    const done = items.find((x) => x.type !== 'reissue' && x.state === 'Completed');
    if (done && FOLLOWS.includes(b.status))
      await this.#followTickets(actor, b, { cause: `servicing request ${done.request_id} completed` });
    return items;
  }

  /**
   * The follow-up job: re-reads the status (issue) or the servicing list (void/refund) the way the read
   * endpoints do. Still pending -> throws, so the runner retries with backoff; past the bound -> gives up
   * with an audit entry. Done, moved on, or turned down by the consolidator -> nothing more to follow.
   */
  async followUp(job: Job): Promise<void> {
    const p = job.payload as FollowUpPayload;
    const { db, clock } = this.#d;
    const b = await findBooking(db, p.booking_id);
    if (!b?.supplier_order_ref) return;
    const supplier = flightSupplierOf(this.#d.suppliers, b.supplier);
    let pending: string;
    if (p.kind === 'issue') {
      if (b.status === 'ticketed' || !canTransition(b.status, 'ticket_issued')) return;
      const s = await this.#readStatus(null, b);
      if (s.issued) return;
      pending = `ticket status ${s.raw_status} (${s.raw_status_text})`;
    } else {
      if (!FOLLOWS.includes(b.status)) return;
      let req: ServicingRequest | undefined;
      if (supplier.capabilities.servicing) {
        const items = await this.#readServicing(null, b);
        req = items.find((x) => x.request_id === p.request_id);
        if (req && !SERVICING_PENDING.includes(req.state)) return; // rejected or withdrawn: tickets stand
      } else await this.#readStatus(null, b);
      const after = await findBooking(db, b.id);
      if (after && TICKET_SETTLES.includes(after.status)) {
        // The consolidator completed: the money moves now.
        await this.#payments.settleTicketChange(b.id);
        return;
      }
      if (!after || !FOLLOWS.includes(after.status)) return;
      pending = req ? `servicing request ${req.request_id} ${req.state}` : 'servicing request pending';
    }
    const expired = clock.now().getTime() >= new Date(p.since).getTime() + FOLLOW_UP_LIMIT_MS;
    if (job.attempts >= job.maxAttempts || expired) {
      await writeAudit(db, null, {
        entity: 'booking',
        entityId: b.id,
        action: 'ticket_follow_up_abandoned',
        reason: `${p.kind} still pending at the supplier after ${job.attempts} attempts since ${p.since}: ${pending}`,
        changes: { kind: p.kind, request_id: p.request_id ?? null, attempts: job.attempts },
        companyId: b.company_id,
      });
      return;
    }
    throw new Error(`still pending at the supplier: ${pending}`);
  }

  /** "No records found." means no request was ever raised: an empty list, not an error. */
  async servicing(ctx: OperationContext<'listServicingRequests'>) {
    const b = await loadBooking(this.#d.db, ctx, ctx.params.booking_id);
    const supplier = flightSupplierOf(this.#d.suppliers, b.supplier);
    if (!supplier.capabilities.servicing)
      throw notSupported('not_supported_by_provider', `Supplier ${b.supplier} has no servicing requests.`);
    if (!b.supplier_order_ref) return { booking_id: b.id, items: [], message: 'No records found.' };
    const items = await this.#readServicing(ctx, b, ctx.signal);
    return { booking_id: b.id, items, message: items.length === 0 ? 'No records found.' : null };
  }
}

/** The handlers of the follow-up queue (follow-up.ts) and the money job; ../routes.ts wires them. */
export function ticketingJobs(t: TicketingService): Record<string, JobHandler> {
  return {
    [TICKET_FOLLOW_UP_QUEUE]: (job) => t.followUp(job),
    [MONEY_RECONCILE_QUEUE]: (job) => t.reconcileMoney(job),
    [UNTICKETED_QUEUE]: (job) => t.unticketed(job),
  };
}

/** Looks at the supplier (with the runner's backoff) before an unconfirmed ticketing is given up. */
const TICKET_RECONCILE_ATTEMPTS = 8;

export const TICKETING_PENDING_MESSAGE =
  'The supplier (or the payment provider) did not confirm the outcome: its answer was lost or timed out. Nothing is done twice: the outcome is being settled with the supplier and the booking moves to ticketed once tickets are found. Read the booking or ticket/document; do not retry with a new Idempotency-Key.';

/** Servicing states a request leaves the consolidator's hands in without moving the tickets. */
const SERVICING_PENDING: readonly string[] = ['Requested', 'InProcess', 'Completed'];

/** Statuses a booking holding live tickets can be in (ticket_voided and ticket_refunded leave from them). */
const FOLLOWS: readonly BookingStatus[] = ['ticketed', 'confirmed', 'paid'];

const COUPON_EVENTS: Record<string, BookingEvent> = { VOID: 'ticket_voided', REFUNDED: 'ticket_refunded' };

/** The booking event a document settles: every coupon VOID, or every coupon REFUNDED. */
function settledBy(docs: TicketDocument[]): BookingEvent | null {
  const coupons = docs.flatMap((d) => d.coupons.map((c) => c.status));
  if (coupons.length === 0) return null;
  for (const [status, event] of Object.entries(COUPON_EVENTS))
    if (coupons.every((c) => c === status)) return event;
  return null;
}
