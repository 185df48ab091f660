/**
 * Flight bookings: createPnr (idempotent, 502 pending path), reads, live order, FOID, commission, notes
 * and cancel. Every status change goes through the transition table in state-machine.ts.
 */

import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { auditStatements, writeAudit } from '../../audit/audit-log.ts';
import { deliveriesFor, deliveryJobsFor, recordWhen } from '../../events/record.ts';
import { idempotencyStatements } from '../../idempotency/idempotency-store.ts';
import { callWindowMs } from '../../internal/config.ts';
import { faultPoint } from '../../internal/fault-hooks.ts';
import { jobStatements } from '../../jobs/statements.ts';
import { badRequest, HttpError, notSupported } from '../../kernel/errors.ts';
import { errorResult } from '../../kernel/reply.ts';
import type { BodyOf, HandlerResult, OperationContext, RequestContext } from '../../kernel/types.ts';
import { bindBooking } from '../../observability/call-scope.ts';
import { resolveFlightOffer } from '../../search/resolve-offer.ts';
import type { Db } from '../../storage/schema.ts';
import { logSupplierError } from '../../suppliers/http-errors.ts';
import { SupplierError } from '../../suppliers/ports/errors.ts';
import type {
  BagSelection,
  PassengerInput,
  SupplierFlightOffer,
  SupplierFlightOrder,
} from '../../suppliers/ports/flight.ts';
import { bookableTraveler } from '../accounts/store.ts';
import { bagsOncePaid, bookBags, bookedBags, saveBookedBags } from './bags.ts';
import { bookingEvent } from './booking-events.ts';
import type { BookingDeps } from './deps.ts';
import { normalizePassengers, preparePassengers } from './passengers.ts';
import { cancelBooking } from './payment/cancel.ts';
import type { AfterAuthorize, PaymentService } from './payment/service.ts';
import { BOOKING_OFFER } from './pricing.ts';
import {
  applyOrder,
  orderChange,
  queueReconcile,
  reconcileDedupe,
  reconcileJobEach,
  reconcileSettled,
} from './reconcile.ts';
import {
  type BookingRow,
  callerOf,
  findBooking,
  findByClientReference,
  loadBooking,
  loadBookingView,
  transition,
} from './store.ts';
import { flightSupplierOf, supplierFailure } from './suppliers.ts';
import { bookingDb, json } from './tables.ts';
import { bookingView } from './view.ts';

/** The contract's `CreateBookingRequest`. */
type CreateBody = BodyOf<'createPnr'>;

/** An instant with its offset, which the database reads as this process does (`timestamptz`). */
const INSTANT = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d{1,3})?)?(Z|[+-]\d\d:?\d\d)$/;

/** `bagsLater`: the order was held without its bags, which the supplier takes once it is paid (bags.ts). */
type Outcome =
  | { kind: 'order'; order: SupplierFlightOrder; bagsLater: boolean }
  | { kind: 'unknown'; error: string; bagsLater: boolean };

export class BookingService {
  readonly #d: BookingDeps;
  readonly #payments: PaymentService;
  constructor(d: BookingDeps, payments: PaymentService) {
    this.#d = d;
    this.#payments = payments;
  }

  /** Supplier order for a booking. Rejections throw 400 supplier_rejected; an unknown outcome is returned. */
  async #placeOrder(
    b: Pick<BookingRow, 'supplier' | 'payment_mode' | 'client_reference' | 'order_remarks'>,
    offer: SupplierFlightOffer,
    input: { passengers: PassengerInput[]; contact: CreateBody['contact']; bags: BagSelection[] },
    signal?: AbortSignal,
  ): Promise<Outcome> {
    const supplier = flightSupplierOf(this.#d.suppliers, b.supplier);
    // Held where the supplier can (the PNR waits for our payment); low-cost content is instant-only.
    const hold = supplier.capabilities.holdOrders && !offer.lcc;
    const create = (bags: BagSelection[]) =>
      supplier.createOrder(
        {
          offer,
          passengers: input.passengers,
          contact: input.contact,
          hold,
          remarks: b.order_remarks,
          client_reference: b.client_reference,
          ...(bags.length > 0 ? { bags } : {}),
        },
        { signal },
      );
    let bagsLater = false;
    try {
      let order: SupplierFlightOrder;
      try {
        order = await create(input.bags);
      } catch (err) {
        const refusedBags = err instanceof SupplierError && err.kind === 'unsupported';
        if (!(refusedBags && hold && input.bags.length > 0)) throw err;
        // The supplier sells no services on a held order (Duffel): hold it without the bags, which the
        // booking keeps (priced in from the start) and ticketing adds right after paying the hold.
        bagsLater = true;
        order = await create([]);
      }
      if (order.status === 'pending')
        return { kind: 'unknown', error: 'the supplier reported the order as pending', bagsLater };
      if (order.status === 'rejected')
        throw badRequest('supplier_rejected', 'The supplier rejected the reservation.');
      return { kind: 'order', order, bagsLater };
    } catch (err) {
      if (!(err instanceof SupplierError)) throw err;
      switch (err.kind) {
        case 'unknown_outcome':
        case 'timeout':
          return { kind: 'unknown', error: err.message, bagsLater };
        case 'rejected':
        case 'sold_out':
        case 'invalid_request':
        // The supplier cannot book this as asked: a refusal, not an outage.
        case 'unsupported':
          // Our words; the supplier's own (which may echo its internals) goes to the log only.
          logSupplierError(this.#d.logger, err, 'supplier_rejected');
          throw badRequest('supplier_rejected', 'The supplier rejected the reservation.');
        case 'offer_expired':
          throw badRequest('offer_expired', 'The offer has expired; search again.');
        case 'price_changed':
          throw badRequest('price_changed', 'The price changed at the supplier; revalidate the offer.', {
            old_total_minor: err.details.old_total_minor ?? null,
            new_total_minor: err.details.new_total_minor ?? null,
          });
        default:
          // Nothing happened at the supplier: no booking, and the idempotency key is released.
          throw new HttpError(500, 'booking_failed', 'The booking could not be created; retry later.');
      }
    }
  }

  /**
   * Write-ahead: the booking is committed `initiated` (with its reconciliation job, due at the end of the
   * call window) before the supplier is called, under a client reference derived from the caller's
   * Idempotency-Key and request. Then the supplier is called, then the row is settled. A process that dies
   * anywhere in between leaves a row that reconciliation settles by that reference, and a retry of the key
   * (its lease lapsed with the process) finds the row instead of ordering again (`#resume`).
   */
  async createPnr(ctx: OperationContext<'createPnr'>): Promise<HandlerResult> {
    const body = ctx.body;
    const now = this.#d.clock.now();
    const r = await resolveFlightOffer(
      this.#d.db,
      body.offer_id,
      callerOf(ctx),
      this.#d.clock,
      BOOKING_OFFER,
    );
    if (body.currency !== r.offer.price.currency) {
      throw badRequest('currency_mismatch', `The offer is priced in ${r.offer.price.currency}.`, {
        offer_currency: r.offer.price.currency,
      });
    }
    // Saved travelers, flat documents and the offer's booking_requirements: every missing field is one
    // 422 here, before the supplier is called and before the write-ahead row exists.
    const caller = callerOf(ctx);
    const prepared = await preparePassengers(
      body.passengers,
      r.supplierOffer,
      (id) => bookableTraveler(this.#d.db, caller, id),
      now,
    );
    const passengers = normalizePassengers(prepared, r.supplierOffer, now);
    const mode = body.payment_mode ?? 'PNR_FIRST';
    const key = ctx.idempotency;
    const clientReference = `bk_${key ? key.effect.slice(0, 20) : randomBytes(10).toString('hex')}`;
    // Bags chosen on a re-price (a bag offer's id) go to the supplier with the order.
    const bags = r.bags?.selections ?? [];
    const { supplier_ref, ...offerNoRef } = r.supplierOffer;
    const p = r.offer.price;
    const bagsMinor = r.bags?.amount_minor ?? 0;
    const t = this.#d.clock.now();
    const stored = {
      order_remarks: json(body.order_remarks ?? []),
      passengers: json(passengers),
      contact: json(body.contact),
      flights: json(r.supplierOffer.slices.flatMap((s) => s.segments)),
      pricing: json({
        currency: p.currency,
        // Adapters count a bag charge in the offer's base fare; the booking shows it on its own.
        base_minor: p.total_minor - p.taxes_minor - p.markup_minor - bagsMinor,
        taxes_minor: p.taxes_minor,
        markup_minor: p.markup_minor,
        bags_minor: bagsMinor,
        total_minor: p.total_minor,
      }),
    };
    const row = {
      status: 'initiated' as const,
      supplier: r.supplier,
      payment_mode: mode,
      client_reference: clientReference,
      idempotency_scope: key?.scope ?? null,
      order_remarks: stored.order_remarks,
      offer_id: r.offer_id,
      offer: json({ ...offerNoRef, bag_selections: bags, booked_bags: bookBags(r.bags) }),
      supplier_ref: json(supplier_ref ?? null),
      passengers: stored.passengers,
      contact: stored.contact,
      flights: stored.flights,
      pricing: stored.pricing,
      // For reconciliation: what the supplier charges in its own currency, and the rate shown.
      supplier_currency: r.supplierOffer.price.currency,
      supplier_total_minor: r.supplierOffer.price.total_minor,
      fx_rate: r.offer.fx_rate ?? 1,
      commission:
        body.commission_percentage === undefined ? null : json({ percentage: body.commission_percentage }),
      client_ref: body.client_ref ?? null,
      snapshot_id: body.snapshot_id ?? null,
      search_id: body.search_id ?? r.search_id,
      user_id: caller.userId,
      company_id: caller.companyId,
      created_at: t,
      updated_at: t,
    };
    // One statement, so one commit: the row and (unless PAYMENT_FIRST, which calls no supplier here) its
    // reconciliation job, due at the end of the call window. A row already written under this client
    // reference (an earlier attempt of this request) inserts nothing, and no job either.
    const db = bookingDb(this.#d.db);
    const insert = (qb: typeof db) =>
      qb
        .insertInto('flight_bookings')
        .values(row)
        .onConflict((oc) => oc.column('client_reference').doNothing())
        .returning('id');
    const inserted =
      mode === 'PAYMENT_FIRST'
        ? await insert(db).executeTakeFirst()
        : await db
            .with('b', (qb) => insert(qb as typeof db))
            .with('j', (() => reconcileJobEach('b', new Date(t.getTime() + callWindowMs()))) as never)
            .selectFrom('b')
            .select('b.id')
            .executeTakeFirst();
    // The row as written, from what was sent (JSON columns as they read back): nothing is re-read.
    const written: BookingRow | undefined = inserted && {
      ...row,
      id: Number(inserted.id),
      pnr: null,
      supplier_order_ref: null,
      offer: JSON.parse(row.offer),
      supplier_ref: supplier_ref ?? null,
      order_remarks: JSON.parse(stored.order_remarks),
      passengers: JSON.parse(stored.passengers),
      contact: JSON.parse(stored.contact),
      flights: JSON.parse(stored.flights),
      pricing: JSON.parse(stored.pricing),
      ticketing_deadline: null,
      ticket_raw_status: null,
      assigned_to_user_id: null,
    };
    // Written by an earlier attempt of this very request, whose process died: its truth, never a new order.
    if (!written) return this.#resume(ctx, clientReference);
    bindBooking(written.id);

    let outcome: Outcome | null = null;
    if (mode !== 'PAYMENT_FIRST') {
      await faultPoint('createPnr:before-supplier');
      try {
        outcome = await this.#placeOrder(
          written,
          r.supplierOffer,
          { passengers, contact: body.contact, bags },
          ctx.signal,
        );
      } catch (err) {
        // A refusal (400) or "nothing happened" (500 booking_failed): no order exists, so the intent is
        // withdrawn with its job. Any other failure leaves the row to reconciliation (the call may have acted).
        if (err instanceof HttpError) await this.#withdraw(written.id);
        throw err;
      }
      await faultPoint('createPnr:after-supplier');
    }
    if (outcome?.kind === 'order' && !outcome.bagsLater) {
      const answered = await this.#settleWritten(ctx, written, outcome.order);
      if (answered) return answered;
    }
    return ctx.transaction((trx) => this.#settle(trx, ctx, written.id, outcome));
  }

  /** Removes a write-ahead row whose supplier call created nothing, and its reconciliation job. */
  async #withdraw(id: number) {
    await this.#d.db.transaction().execute(async (trx) => {
      await reconcileSettled(trx, id, this.#d.clock);
      await bookingDb(trx)
        .deleteFrom('flight_bookings')
        .where('id', '=', id)
        .where('status', '=', 'initiated')
        .execute();
    });
  }

  /**
   * Settles the booking with the supplier's answer (`null`: PAYMENT_FIRST, no call) in the transaction
   * that stores the response. A booking something else settled first (reconciliation) is answered as is.
   */
  async #settle(trx: Db, ctx: RequestContext, id: number, outcome: Outcome | null): Promise<HandlerResult> {
    const t = this.#d.clock.now();
    let b = (await findBooking(trx, id, { forUpdate: true })) as BookingRow;
    const from = b.status;
    if (outcome?.bagsLater && from === 'initiated')
      b = await saveBookedBags(trx, b, bagsOncePaid(bookedBags(b)), t);
    if (outcome?.kind === 'order' && (from === 'initiated' || from === 'pending_pnr')) {
      b = await applyOrder(trx, b, outcome.order, t);
      await reconcileSettled(trx, b.id, this.#d.clock);
    } else if (from === 'initiated') {
      if (outcome === null) b = await transition(trx, b, 'await_payment', t);
      else {
        b = await transition(trx, b, 'pnr_unknown', t);
        await queueReconcile(trx, b.id, this.#d.clock);
      }
    }
    await faultPoint('createPnr:before-commit');
    if (from === 'initiated') {
      await writeAudit(trx, ctx, {
        entity: 'booking',
        entityId: b.id,
        action: 'created',
        changes: { status: b.status, payment_mode: b.payment_mode },
        companyId: b.company_id,
      });
    }
    if (b.status === 'pending_pnr') {
      return errorResult(
        new HttpError(
          502,
          'booking_pending',
          'Booking pending confirmation: the supplier neither confirmed nor rejected. Poll the booking; do not retry.',
          { extra: { booking_id: b.id, status: 'pending_pnr' } },
        ),
        ctx,
      );
    }
    return { status: 200, body: bookingView(b) };
  }

  /**
   * The common case of `#settle` as one statement, so one commit and no transaction to open: the row this
   * request wrote ahead is still `initiated` (nothing else settled it: reconciliation leaves it alone while
   * this request's lease is held), so the order is applied to it, its reconciliation job marked done, the
   * `created` audit row written and the answer stored with the Idempotency-Key, all or nothing. The answer
   * is the row as written with the order's fields, known before the statement. Undefined (nothing written)
   * when the row moved on meanwhile, without a claim on the key, or for a ticketing deadline the database
   * could read otherwise than here: `#settle` then settles it by locking and reading the row.
   */
  async #settleWritten(
    ctx: RequestContext,
    written: BookingRow,
    order: SupplierFlightOrder,
  ): Promise<HandlerResult | undefined> {
    const own = ctx.idempotency?.ownAnswer();
    const deadline = order.ticketing_deadline;
    if (!own || (deadline != null && !INSTANT.test(deadline))) return undefined;
    const t = this.#d.clock.now();
    const { patch, to } = orderChange(written, order);
    const after: BookingRow = {
      ...written,
      pnr: order.pnr ?? written.pnr,
      supplier_order_ref: order.order_ref ?? written.supplier_order_ref,
      supplier_total_minor: order.total.amount_minor ?? written.supplier_total_minor,
      supplier_currency: order.total.currency ?? written.supplier_currency,
      ticketing_deadline: deadline ? new Date(deadline) : null,
      status: to,
      updated_at: t,
    };
    const answer = { status: 200, body: bookingView(after), headers: {} };
    await faultPoint('createPnr:before-commit');
    const settled = await bookingDb(this.#d.db)
      .with('b', (qb) =>
        qb
          .updateTable('flight_bookings')
          .set({ ...patch, status: to, updated_at: t })
          .where('id', '=', written.id)
          .where('status', '=', 'initiated')
          .returning('id'),
      )
      .with('j', (() => jobStatements.finishQueuedWhen('b', reconcileDedupe(written.id), t)) as never)
      .with('a', (() =>
        auditStatements.insertWhen('b', ctx, {
          entity: 'booking',
          entityId: sql<string>`b.id::text`,
          action: 'created',
          changes: { status: to, payment_mode: written.payment_mode },
          companyId: written.company_id,
        })) as never)
      // The `created` event, inserted only when `b` updated the row.
      .with('e', (() => recordWhen('b', bookingEvent('booking.created', after))) as never)
      .with('wd', (() => deliveriesFor('e')) as never)
      .with('wj', (() => deliveryJobsFor('wd')) as never)
      .with('k', (() => idempotencyStatements.storeAnswerWhen('b', own.scope, answer, t)) as never)
      .selectFrom('b')
      .select('b.id')
      .executeTakeFirst();
    if (!settled) return undefined;
    own.stored();
    return answer;
  }

  /**
   * A retry of a createPnr whose earlier attempt wrote the booking and then died (its key's lease lapsed):
   * the booking as it stands, after asking the supplier by the client reference when it is still
   * unsettled. Found: settled from the order. Not found or unreachable: the 502 pending answer, and
   * reconciliation decides. The supplier is never asked to order again.
   */
  async #resume(ctx: RequestContext, clientReference: string): Promise<HandlerResult> {
    const b = await findByClientReference(this.#d.db, clientReference);
    if (!b) throw new HttpError(500, 'booking_failed', 'The booking could not be created; retry later.');
    let outcome: Outcome | null = null;
    const unsettled = b.status === 'initiated' || b.status === 'pending_pnr';
    if (unsettled && b.payment_mode !== 'PAYMENT_FIRST') {
      const supplier = flightSupplierOf(this.#d.suppliers, b.supplier);
      let order: SupplierFlightOrder | null = null;
      try {
        order = b.supplier_order_ref
          ? await supplier.getOrder(b.supplier_order_ref, { signal: ctx.signal })
          : await supplier.findOrderByClientReference(clientReference, { signal: ctx.signal });
      } catch (err) {
        ctx.log.warn({ err, booking_id: b.id }, 'order lookup on createPnr retry failed');
      }
      outcome =
        order && order.status !== 'pending'
          ? { kind: 'order', order, bagsLater: false }
          : { kind: 'unknown', error: 'the supplier has no settled order yet', bagsLater: false };
    }
    return ctx.transaction((trx) => this.#settle(trx, ctx, b.id, outcome));
  }

  /** PAYMENT_FIRST: the authorization exists; now the supplier order is placed. */
  async afterAuthorized(ctx: RequestContext, b: BookingRow): Promise<AfterAuthorize | undefined> {
    if (b.payment_mode !== 'PAYMENT_FIRST' || b.supplier_order_ref) return undefined;
    const { bag_selections, ...stored } = b.offer as { bag_selections?: BagSelection[] };
    const offer = { ...stored, supplier_ref: b.supplier_ref } as SupplierFlightOffer;
    let outcome: Outcome;
    try {
      outcome = await this.#placeOrder(
        b,
        offer,
        {
          passengers: b.passengers as unknown as PassengerInput[],
          contact: b.contact,
          bags: bag_selections ?? [],
        },
        ctx.signal,
      );
    } catch (err) {
      if (!(err instanceof HttpError) || err.status !== 400) throw err;
      return {
        voided: true,
        error: { code: err.code, detail: err.message },
        apply: (trx, bk, now) => transition(trx, bk, 'pnr_rejected', now),
      };
    }
    const later = outcome.bagsLater;
    const keepBags = (trx: Db, bk: BookingRow, now: Date) =>
      later ? saveBookedBags(trx, bk, bagsOncePaid(bookedBags(bk)), now) : bk;
    if (outcome.kind === 'unknown') {
      return {
        apply: async (trx, bk, now) => {
          const after = await transition(trx, bk, 'pnr_unknown', now);
          await queueReconcile(trx, bk.id, this.#d.clock);
          return keepBags(trx, after, now);
        },
      };
    }
    const order = outcome.order;
    return { apply: async (trx, bk, now) => keepBags(trx, await applyOrder(trx, bk, order, now), now) };
  }

  async get(ctx: OperationContext<'getBooking'>) {
    return bookingView(await loadBookingView(this.#d.db, ctx, ctx.params.booking_id));
  }

  async #liveOrder(ctx: RequestContext, b: BookingRow) {
    if (!b.supplier_order_ref)
      throw badRequest('no_supplier_order', 'The booking has no supplier order yet.');
    const supplier = flightSupplierOf(this.#d.suppliers, b.supplier);
    try {
      const o = await supplier.getOrder(b.supplier_order_ref, { signal: ctx.signal });
      const raw = o.raw && typeof o.raw === 'object' && !Array.isArray(o.raw) ? o.raw : { value: o.raw };
      return {
        booking_id: b.id,
        supplier: o.supplier,
        order_ref: o.order_ref,
        pnr: o.pnr,
        status: o.status,
        ticketing_deadline: o.ticketing_deadline,
        total: o.total,
        raw,
      };
    } catch (err) {
      return supplierFailure(err, { failed: 'order_retrieval_failed', notFound: 'order_not_found' }, ctx.log);
    }
  }

  async order(ctx: OperationContext<'getBookingOrder'>) {
    return this.#liveOrder(ctx, await loadBooking(this.#d.db, ctx, ctx.params.booking_id));
  }

  /** `reference` confirms, it does not look up: it must be the booking's own PNR. */
  async orderByReference(ctx: OperationContext<'getBookingOrderByReference'>) {
    const b = await loadBooking(this.#d.db, ctx, ctx.params.booking_id);
    const ref = ctx.query.reference;
    if (ref !== undefined && ref !== b.pnr)
      throw badRequest('reference_mismatch', 'The reference is not this booking’s PNR.');
    return this.#liveOrder(ctx, b);
  }

  async foid(ctx: OperationContext<'updateBookingFoid'>) {
    const b = await loadBooking(this.#d.db, ctx, ctx.params.booking_id);
    const supplier = flightSupplierOf(this.#d.suppliers, b.supplier);
    if (!supplier.capabilities.foid)
      throw badRequest('foid_unsupported', `Supplier ${b.supplier} takes no FOID.`);
    if (!b.supplier_order_ref)
      throw badRequest('foid_update_failed', 'The booking has no supplier order yet.');
    try {
      await supplier.updateFoid(b.supplier_order_ref, ctx.body, { signal: ctx.signal });
    } catch (err) {
      return supplierFailure(err, { failed: 'foid_update_failed', unsupported: 'foid_unsupported' }, ctx.log);
    }
    await bookingDb(this.#d.db)
      .updateTable('flight_bookings')
      .set({ foid: json(ctx.body), updated_at: this.#d.clock.now() })
      .where('id', '=', b.id)
      .execute();
    return { booking_id: b.id, success: true, message: 'FOID updated.' };
  }

  async commission(ctx: OperationContext<'updateBookingCommission'>) {
    const b = await loadBooking(this.#d.db, ctx, ctx.params.booking_id);
    const body = ctx.body;
    if ((body.amount === undefined) === (body.percentage === undefined)) {
      throw badRequest('amount_or_percentage_required', 'Supply either amount or percentage, not both.');
    }
    const supplier = flightSupplierOf(this.#d.suppliers, b.supplier);
    if (!supplier.capabilities.commission)
      throw badRequest('commission_unsupported', `Supplier ${b.supplier} takes no commission updates.`);
    if (!b.supplier_order_ref)
      throw badRequest('commission_update_failed', 'The booking has no supplier order yet.');
    try {
      await supplier.updateCommission(b.supplier_order_ref, ctx.body, { signal: ctx.signal });
    } catch (err) {
      return supplierFailure(err, {
        failed: 'commission_update_failed',
        unsupported: 'commission_unsupported',
      });
    }
    await bookingDb(this.#d.db)
      .updateTable('flight_bookings')
      .set({ commission: json(ctx.body), updated_at: this.#d.clock.now() })
      .where('id', '=', b.id)
      .execute();
    return { booking_id: b.id, success: true, message: 'Commission updated.' };
  }

  /** Blank notes dropped (none left: 400); unknown booking 400; attaching is best-effort (success=false). */
  async notes(ctx: OperationContext<'addBookingNotes'>) {
    const b = await loadBooking(this.#d.db, ctx, ctx.params.booking_id, { status: 400 });
    const notes = ctx.body.notes.map((n) => n.trim()).filter((n) => n.length > 0);
    if (notes.length === 0) throw badRequest('no_usable_notes', 'Every note was empty.');
    const supplier = flightSupplierOf(this.#d.suppliers, b.supplier);
    if (!supplier.capabilities.notes)
      throw notSupported('not_supported_by_provider', `Supplier ${b.supplier} takes no notes.`);
    let result: { success: boolean; reason?: string };
    if (!b.supplier_order_ref) result = { success: false, reason: 'The booking has no supplier order yet.' };
    else {
      try {
        result = await supplier.addNotes(b.supplier_order_ref, notes, { signal: ctx.signal });
      } catch (err) {
        if (err instanceof SupplierError) {
          logSupplierError(ctx.log, err, 'notes_not_attached');
          if (err.kind === 'unsupported')
            throw notSupported('not_supported_by_provider', `Supplier ${b.supplier} takes no notes.`);
        } else ctx.log.warn({ err, booking_id: b.id }, 'attaching notes failed');
        result = { success: false, reason: 'The supplier did not attach the notes.' };
      }
    }
    await bookingDb(this.#d.db)
      .insertInto('booking_notes')
      .values(
        notes.map((note) => ({
          booking_id: b.id,
          note,
          attached: result.success,
          user_id: ctx.auth?.userId ?? null,
        })),
      )
      .execute();
    return {
      booking_id: b.id,
      success: result.success,
      notes_added: result.success ? notes.length : 0,
      reason: result.success ? null : (result.reason ?? 'The supplier did not attach the notes.'),
    };
  }

  /** Cancels at the supplier, then releases or refunds our payment (payment/cancel.ts). */
  async cancel(ctx: OperationContext<'cancelBooking'>) {
    return cancelBooking(this.#d, this.#payments, ctx);
  }
}
