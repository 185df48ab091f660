/**
 * Ticketing: issue (capturing an authorized payment first unless capture=false; a captured payment is
 * left alone), async status, documents, void/refund/reissue with confirm semantics, servicing list.
 */
import { writeAudit } from '../../audit/audit-log.ts';
import { badRequest, notFound, notSupported } from '../../kernel/errors.ts';
import type { HandlerResult, RequestContext } from '../../kernel/types.ts';
import type { Db } from '../../storage/schema.ts';
import { SupplierError, type TicketAction, type TicketDocument } from '../../suppliers/ports.ts';
import type { BookingDeps } from '../booking/deps.ts';
import { type BookingEvent, canTransition } from '../booking/state-machine.ts';
import { type BookingRow, findBooking, loadBooking, transition, updateBooking } from '../booking/store.ts';
import { flightSupplierOf, supplierFailure } from '../booking/suppliers.ts';
import { idemKey, type PaymentService } from '../payment/service.ts';
import { latestPayment, paymentWithTransactions } from '../payment/store.ts';
import { saveTickets, storedTickets } from './store.ts';

export class TicketingService {
  readonly #d: BookingDeps;
  readonly #payments: PaymentService;
  constructor(d: BookingDeps, payments: PaymentService) {
    this.#d = d;
    this.#payments = payments;
  }

  async issue(ctx: RequestContext): Promise<HandlerResult> {
    const { db } = this.#d;
    const b = await loadBooking(db, ctx, ctx.params.booking_id);
    const capture = (ctx.body as { capture?: boolean } | undefined)?.capture ?? true;
    if (b.status === 'ticketed') throw badRequest('already_ticketed', 'The booking is already ticketed.');
    if (!canTransition(b.status, 'ticket_issued'))
      throw badRequest('invalid_booking_state', `A booking in status ${b.status} cannot be ticketed.`);
    if (!b.supplier_order_ref)
      throw badRequest('invalid_booking_state', 'The booking has no supplier order yet.');
    let p = await latestPayment(db, b.id);
    const paid = p && (p.state === 'AUTHORIZED' || p.state === 'CAPTURED' || p.state === 'SETTLED');
    if (!paid && b.payment_mode !== 'PNR_ONLY')
      throw badRequest('payment_required', 'Authorize a payment before ticketing.');
    if (p?.state === 'AUTHORIZED' && capture) {
      // Committed on its own: money taken stays recorded even if the supplier then fails to ticket.
      const write = await this.#payments.captureNow(
        db,
        b,
        p,
        undefined,
        `bk${b.id}:ticket-capture:${idemKey(ctx)}`,
      );
      p = await db.transaction().execute((trx) => write(trx));
    }
    const supplier = flightSupplierOf(this.#d.suppliers, b.supplier);
    let result: Awaited<ReturnType<typeof supplier.issueTicket>>;
    try {
      const amount = b.supplier_total_minor ?? b.pricing.total_minor - b.pricing.markup_minor;
      result = await supplier.issueTicket(
        b.supplier_order_ref,
        { currency: b.pricing.currency as never, amount_minor: amount },
        { signal: ctx.signal },
      );
    } catch (err) {
      return supplierFailure(err, { failed: 'ticketing_failed', unsupported: 'ticketing_failed' });
    }
    return ctx.transaction(async (trx) => {
      const now = this.#d.clock.now();
      let fresh = (await findBooking(trx, b.id, { forUpdate: true })) as BookingRow;
      fresh = await updateBooking(trx, b.id, now, { ticket_raw_status: result.raw_status });
      if (result.issued) {
        fresh = await transition(trx, fresh, 'ticket_issued', now);
        await saveTickets(trx, b.id, result.tickets, now);
      }
      await writeAudit(trx, ctx, {
        entity: 'booking',
        entityId: b.id,
        action: result.issued ? 'ticketed' : 'ticketing_requested',
        changes: { raw_status: result.raw_status },
        companyId: b.company_id,
      });
      const pay = await latestPayment(trx, b.id);
      return {
        status: 200,
        body: {
          booking_id: b.id,
          status: fresh.status,
          issued: result.issued,
          raw_status: result.raw_status,
          tickets: result.tickets,
          payment: pay ? await paymentWithTransactions(trx, pay) : null,
        },
      };
    });
  }

  /** Async issuance (Placed, then Ticketed): reading the status also completes the booking when issued. */
  async status(ctx: RequestContext) {
    const b = await loadBooking(this.#d.db, ctx, ctx.params.booking_id);
    const supplier = flightSupplierOf(this.#d.suppliers, b.supplier);
    if (!supplier.capabilities.ticketStatus)
      throw notSupported(
        'not_supported_by_provider',
        `Supplier ${b.supplier} issues tickets synchronously; there is no ticketing status.`,
      );
    if (!b.supplier_order_ref) throw notFound('booking_not_found', 'The booking has no supplier order yet.');
    let s: Awaited<ReturnType<typeof supplier.ticketStatus>>;
    try {
      s = await supplier.ticketStatus(b.supplier_order_ref, { signal: ctx.signal });
    } catch (err) {
      return supplierFailure(err, {
        failed: 'ticketing_failed',
        unsupported: 501,
        notFound: 'booking_not_found',
      });
    }
    if (s.issued && b.status !== 'ticketed' && canTransition(b.status, 'ticket_issued')) {
      const docs = await supplier.ticketDocuments(b.supplier_order_ref).catch(() => [] as TicketDocument[]);
      await this.#d.db.transaction().execute(async (trx) => {
        const now = this.#d.clock.now();
        const fresh = (await findBooking(trx, b.id, { forUpdate: true })) as BookingRow;
        if (canTransition(fresh.status, 'ticket_issued'))
          await transition(trx, fresh, 'ticket_issued', now, { ticket_raw_status: s.raw_status });
        await saveTickets(trx, b.id, docs, now);
      });
    }
    return {
      booking_id: b.id,
      issued: s.issued,
      raw_status: s.raw_status,
      raw_status_text: s.raw_status_text,
    };
  }

  async document(ctx: RequestContext) {
    const b = await loadBooking(this.#d.db, ctx, ctx.params.booking_id);
    const docs = await this.#documents(b);
    if (docs.length === 0) throw notFound('ticket_not_found', 'The booking has no tickets yet.');
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
      if (err instanceof SupplierError && err.kind === 'unsupported')
        throw notSupported('not_supported_by_provider', err.message);
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
  async action(ctx: RequestContext) {
    const b = await loadBooking(this.#d.db, ctx, ctx.params.booking_id);
    const action = ctx.params.action as TicketAction;
    const confirm = ctx.query.confirm === true;
    const note = ctx.query.note as string | undefined;
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
    let r: Awaited<ReturnType<typeof supplier.ticketAction>>;
    try {
      r = await supplier.ticketAction(b.supplier_order_ref, action, confirm && action !== 'reissue', note, {
        signal: ctx.signal,
      });
    } catch (err) {
      return supplierFailure(err, { failed: 'ticket_action_failed', unsupported: 501 });
    }
    let status = b.status;
    if (r.confirmed && r.permitted) {
      status = await this.#follow(ctx, b, action, r.coupon_status);
    }
    const { action: _a, ...rest } = r;
    return { booking_id: b.id, action, ...rest, booking_status: status };
  }

  /** On a confirmed, permitted action the booking follows the ticket document (its coupons). */
  async #follow(ctx: RequestContext, b: BookingRow, action: TicketAction, coupon?: string) {
    const docs = await this.#documents(b).catch(() => [] as TicketDocument[]);
    const coupons = docs.flatMap((d) => d.coupons.map((c) => c.status));
    const all = (s: string) => coupons.length > 0 && coupons.every((c) => c === s);
    let event: BookingEvent | null = null;
    if (all('VOID') || coupon === 'VOID') event = 'ticket_voided';
    else if (all('REFUNDED') || coupon === 'REFUNDED') event = 'ticket_refunded';
    return this.#d.db.transaction().execute(async (trx: Db) => {
      const fresh = (await findBooking(trx, b.id, { forUpdate: true })) as BookingRow;
      if (docs.length > 0) await saveTickets(trx, b.id, docs, this.#d.clock.now());
      if (!event || !canTransition(fresh.status, event)) return fresh.status;
      const after = await transition(trx, fresh, event, this.#d.clock.now());
      await writeAudit(trx, ctx, {
        entity: 'booking',
        entityId: b.id,
        action: `ticket_${action}`,
        changes: { from: fresh.status, to: after.status },
        companyId: b.company_id,
      });
      return after.status;
    });
  }

  /** "No records found." means no request was ever raised: an empty list, not an error. */
  async servicing(ctx: RequestContext) {
    const b = await loadBooking(this.#d.db, ctx, ctx.params.booking_id);
    const supplier = flightSupplierOf(this.#d.suppliers, b.supplier);
    if (!supplier.capabilities.servicing)
      throw notSupported('not_supported_by_provider', `Supplier ${b.supplier} has no servicing requests.`);
    if (!b.supplier_order_ref) return { booking_id: b.id, items: [], message: 'No records found.' };
    try {
      const items = await supplier.listServicing(b.supplier_order_ref, { signal: ctx.signal });
      return { booking_id: b.id, items, message: items.length === 0 ? 'No records found.' : null };
    } catch (err) {
      return supplierFailure(err, {
        failed: 'ticket_action_failed',
        unsupported: 501,
        notFound: 'booking_not_found',
      });
    }
  }
}
