/**
 * Seats, baggage, SSRs and paid ancillaries: catalogue -> purchase (held, one TSM per service) -> EMD
 * issuance -> cancel (issued EMD voided, unissued service removed, cancelled/refunded skipped).
 */
import { badRequest, type ErrorCode, notFound } from '../../../kernel/errors.ts';
import type { HandlerResult, OperationContext, RequestContext } from '../../../kernel/types.ts';
import type { Db } from '../../../storage/schema.ts';
import { SupplierError } from '../../../suppliers/ports/errors.ts';
import type { FlightSupplier, SeatRequest, SupplierFlightOffer } from '../../../suppliers/ports/flight.ts';
import { type BookedBag, bookedBags, passengerIds, unitPrice } from '../bags.ts';
import type { BookingDeps } from '../deps.ts';
import {
  answerRetry,
  beginOp,
  failOp,
  idemKey,
  isAmbiguous,
  type MoneyOp,
  markPending,
  recordedAnswer,
  settleOp,
} from '../money-ops.ts';
import { type BookingRow, loadBooking } from '../store.ts';
import { flightSupplierOf, supplierFailure } from '../suppliers.ts';
import {
  alias,
  isAlias,
  patchOpDetail,
  pendingServiceChange,
  purchaseBody,
  recordEmds,
  recordPurchase,
  type ServiceOpKind,
  ServicePending,
  seatIssueBody,
} from './outcomes.ts';
import { reconcileServiceOp } from './reconcile.ts';
import { nextAncillaryStatus } from './state-machine.ts';
import { ancillaryView, listAncillaries, pendingSeats, saveSeats, updateAncillary } from './store.ts';

export class AncillaryService {
  readonly #d: BookingDeps;
  constructor(d: BookingDeps) {
    this.#d = d;
  }

  async #ctx(ctx: RequestContext, capability: 'seats' | 'ancillaries' | null, unsupportedCode: ErrorCode) {
    const b = await loadBooking(this.#d.db, ctx, ctx.params.booking_id);
    const supplier = flightSupplierOf(this.#d.suppliers, b.supplier);
    if (capability && !supplier.capabilities[capability])
      throw badRequest(unsupportedCode, `Supplier ${b.supplier} does not support this.`);
    if (!b.supplier_order_ref) throw badRequest(unsupportedCode, 'The booking has no supplier order yet.');
    return { b, supplier, orderRef: b.supplier_order_ref };
  }

  /**
   * A paid service change (seat issuance, ancillary purchase, EMD): one at a time per booking, decided
   * under the booking lock with its intent row written ahead (payment/money-ops.ts); a concurrent caller
   * gets 409 `operation_in_progress` or, once this one has settled, the operation's own 400. `detail` is
   * what the reconciliation job needs to read the outcome back. A supplier answer lost after the supplier
   * may have acted (`ServicePending`, thrown by `run`) is answered 202 pending and settled by the job
   * (ancillary/reconcile.ts), never recorded as a failure.
   */
  async #serialized<T, R>(
    ctx: RequestContext,
    b: BookingRow,
    kind: ServiceOpKind,
    check: (trx: Db, b: BookingRow) => Promise<T>,
    detail: (t: T) => Record<string, unknown>,
    run: (t: T, op: MoneyOp) => Promise<R>,
  ): Promise<HandlerResult> {
    const { db, clock } = this.#d;
    // A retry of a request that died: what the supplier shows for its intent, never bought twice.
    const prior = await answerRetry({
      db,
      ctx,
      bookingId: b.id,
      kind,
      settle: (op) => reconcileServiceOp(this.#d, op),
      answer: async (_d, op) => recordedAnswer(op) ?? null,
      pending: async () => ({ status: 202, body: pendingServiceChange(b.id, kind) }),
    });
    if (prior && 'answer' in prior) return prior.answer;
    const { op, result } = await beginOp({
      db,
      clock,
      bookingId: b.id,
      kind,
      key: `bk${b.id}:${kind}:${idemKey(ctx)}`,
      requestId: ctx.requestId,
      ctx,
      check,
      detail: (t) => ({ detail: detail(t) }),
    });
    let r: R;
    try {
      r = await run(result, op);
    } catch (err) {
      if (err instanceof ServicePending) {
        ctx.log.warn({ booking: b.id, op: op.id, reason: err.message }, `${kind} outcome unknown: pending`);
        return ctx.transaction(async (trx) => {
          await markPending(trx, clock, op.id, err.message);
          return { status: 202, body: pendingServiceChange(b.id, kind) };
        });
      }
      await failOp(db, clock, op.id, `${kind}: ${(err as Error).message}`);
      throw err;
    }
    return ctx.transaction(async (trx) => {
      await settleOp(trx, op.id, 'done', clock.now(), { outcome: 'ok' });
      return { status: 200, body: r };
    });
  }

  async seatMap(ctx: OperationContext<'getSeatMap'>) {
    const { b, supplier, orderRef } = await this.#ctx(ctx, 'seats', 'seats_unsupported');
    try {
      return { booking_id: b.id, seat_maps: await supplier.seatMap(orderRef, { signal: ctx.signal }) };
    } catch (err) {
      return supplierFailure(err, {
        failed: 'seats_unsupported',
        unsupported: 'seats_unsupported',
        notFound: 'booking_not_found',
      });
    }
  }

  #checkSeat(b: BookingRow, s: SeatRequest) {
    if (!b.flights.some((f) => f.segment_id === s.segment_id))
      throw notFound('segment_not_found', `Segment ${s.segment_id} is not on the booking.`);
    if (!b.passengers.some((p) => p.passenger_id === s.passenger_id))
      throw badRequest('invalid_passenger', `Passenger ${s.passenger_id} is not on the booking.`);
  }

  async selectSeat(ctx: OperationContext<'selectSeat'>) {
    const { b, supplier, orderRef } = await this.#ctx(ctx, 'seats', 'seats_unsupported');
    const req = {
      segment_id: String(ctx.query.segment_id),
      seat_number: String(ctx.query.seat_number),
      passenger_id: String(ctx.query.passenger_id),
    };
    this.#checkSeat(b, req);
    const [r] = await this.#request(supplier, orderRef, [req], ctx.signal);
    if (!r?.accepted)
      throw badRequest('seat_unavailable', r?.reason ?? `Seat ${req.seat_number} is not available.`);
    await saveSeats(this.#d.db, b.id, [r], this.#d.clock.now());
    return { ...r, booking_id: b.id };
  }

  async #request(supplier: FlightSupplier, orderRef: string, seats: SeatRequest[], signal: AbortSignal) {
    try {
      return await supplier.requestSeats(orderRef, seats, { signal });
    } catch (err) {
      return supplierFailure(err, { failed: 'seat_reservation_failed', unsupported: 'seats_unsupported' });
    }
  }

  /** Partial success is normal: each seat reports its own outcome; the batch never fails as a whole. */
  async selectBatch(ctx: OperationContext<'selectSeatsBatch'>) {
    const { b, supplier, orderRef } = await this.#ctx(ctx, 'seats', 'seats_unsupported');
    const seats = ctx.body.seats;
    for (const s of seats) this.#checkSeat(b, s);
    const results = await this.#request(supplier, orderRef, seats, ctx.signal);
    await saveSeats(this.#d.db, b.id, results, this.#d.clock.now());
    return {
      booking_id: b.id,
      requested: seats.length,
      stored: results.filter((r) => r.accepted).length,
      results,
    };
  }

  async issueSeats(ctx: OperationContext<'issueSeats'>) {
    const { b, supplier, orderRef } = await this.#ctx(ctx, 'seats', 'paid_seats_unavailable');
    const issue = ctx.query.issue_emd_documents !== false;
    return this.#serialized(
      ctx,
      b,
      'seats_issue',
      async (trx) => {
        const pending = await pendingSeats(trx, b.id);
        if (pending.length === 0)
          throw badRequest('no_pending_seats', 'No chargeable seat is waiting to be priced.');
        return pending.map((x) => ({
          segment_id: x.segment_id,
          passenger_id: x.passenger_id,
          seat_number: x.seat_number,
        }));
      },
      (seats) => ({ issue, seats }),
      async () => {
        let r: Awaited<ReturnType<FlightSupplier['issueSeats']>>;
        try {
          r = await supplier.issueSeats(orderRef, issue, { signal: ctx.signal });
        } catch (err) {
          if (isAmbiguous(err)) throw new ServicePending(`seats_issue: ${err.supplierCode ?? err.kind}`);
          return supplierFailure(err, {
            failed: 'seat_pricing_failed',
            unsupported: 'paid_seats_unavailable',
          });
        }
        await saveSeats(this.#d.db, b.id, r.priced, this.#d.clock.now());
        return seatIssueBody(b.id, issue, r.priced, r.emds);
      },
    );
  }

  async baggage(ctx: OperationContext<'getBaggage'>) {
    const b = await loadBooking(this.#d.db, ctx, ctx.params.booking_id);
    const offer = b.offer as unknown as SupplierFlightOffer;
    const allowances = b.passengers.flatMap((p) =>
      b.flights.map((f) => ({
        passenger_id: String(p.passenger_id),
        segment_id: String(f.segment_id),
        cabin_bags: offer.baggage?.cabin_bags ?? 0,
        checked_bags: p.type === 'INF' ? 0 : (offer.baggage?.checked_bags ?? 0),
        checked_bag_weight_kg: offer.baggage?.checked_bag_weight_kg ?? null,
      })),
    );
    const ancillaries = (await listAncillaries(this.#d.db, b.id)).filter(
      (a) => a.code.startsWith('XBAG') || a.kind === 'bag' || a.rfic === 'C',
    );
    // Bags booked with the PNR first (a bag offer), then those bought as ancillaries after booking.
    const booked = bookedBags(b);
    const purchased = [
      ...booked.map((bag) => bookedBagView(b, bag, booked)),
      ...ancillaries.map((a) => ({
        ...ancillaryView(a),
        bought_with: 'ancillary' as const,
        bag_option_id: null,
        quantity: 1,
      })),
    ];
    let bagOptions: unknown[] = [];
    const supplier = this.#d.suppliers.flight(b.supplier);
    if (supplier && !['ticketed', 'cancelled', 'refunded', 'expired'].includes(b.status)) {
      // Bags that can still be bought come from the offer; an expired offer simply has none left.
      bagOptions = await supplier
        .price({ ...offer, supplier_ref: b.supplier_ref }, { bags: true }, { signal: ctx.signal })
        .then((p) => p.bag_options ?? [])
        .catch(() => []);
    }
    return {
      booking_id: b.id,
      allowances,
      purchased_bags: purchased,
      bag_options: bagOptions,
    };
  }

  async addSsr(ctx: OperationContext<'addSpecialServiceRequest'>) {
    const b = await loadBooking(this.#d.db, ctx, ctx.params.booking_id);
    const supplier = flightSupplierOf(this.#d.suppliers, b.supplier);
    if (!b.supplier_order_ref)
      throw badRequest('ssr_not_available', 'The booking has no supplier order yet.');
    const q = ctx.query;
    const segment = q.segment_id === undefined ? undefined : this.#segment(b, q.segment_id);
    if (q.passenger_id !== undefined) {
      const n = Number(q.passenger_id);
      if (!Number.isInteger(n) || n < 1 || n > b.passengers.length)
        throw badRequest('invalid_ssr', `Passenger ${q.passenger_id} is not on the booking.`);
    }
    try {
      const r = await supplier.addSsr(
        b.supplier_order_ref,
        {
          code: q.ssr_code,
          free_text: q.free_text ?? '',
          ...(segment ? { segment_id: segment } : {}),
          ...(q.passenger_id ? { passenger_id: q.passenger_id } : {}),
        },
        { signal: ctx.signal },
      );
      return {
        booking_id: b.id,
        ssr_id: r.ssr_id,
        status: r.status,
        code: q.ssr_code,
        free_text: q.free_text ?? '',
        segment_id: segment ?? null,
        passenger_id: q.passenger_id ?? null,
      };
    } catch (err) {
      return supplierFailure(err, { failed: 'invalid_ssr', unsupported: 'ssr_not_available' });
    }
  }

  /** segment_id: a flight id (s1), a route code (LHRDXB) or a 1-based number. */
  #segment(b: BookingRow, ref: string): string {
    const flights = b.flights as { segment_id: string; origin: string; destination: string }[];
    const hit = /^[0-9]+$/.test(ref)
      ? flights[Number(ref) - 1]
      : flights.find((f) => f.segment_id === ref || `${f.origin}${f.destination}` === ref.toUpperCase());
    if (!hit) throw notFound('segment_not_found', `Segment ${ref} is not on the booking.`);
    return hit.segment_id;
  }

  async catalogue(ctx: OperationContext<'getAncillaryCatalogue'>) {
    const { b, supplier, orderRef } = await this.#ctx(ctx, 'ancillaries', 'ancillaries_unsupported');
    const group = ctx.query.service_group ?? '';
    try {
      const items = await supplier.ancillaryCatalogue(orderRef, group, { signal: ctx.signal });
      return {
        booking_id: b.id,
        service_group: group,
        items: items.map((i) => ({ ...i, code: alias(i.code) })),
      };
    } catch (err) {
      return supplierFailure(err, { failed: 'catalogue_failed', unsupported: 'ancillaries_unsupported' });
    }
  }

  async purchase(ctx: OperationContext<'purchaseAncillaries'>) {
    const { b, supplier, orderRef } = await this.#ctx(ctx, 'ancillaries', 'ancillaries_unsupported');
    const products = ctx.body.products;
    for (const p of products) {
      for (const id of p.customer_ref_ids)
        if (!b.passengers.some((x) => x.passenger_id === id))
          throw badRequest('invalid_product', `Passenger ${id} is not on the booking.`);
      for (const s of p.segment_ref_ids.split(/\s+/).filter(Boolean))
        if (!b.flights.some((f) => f.segment_id === s))
          throw badRequest('invalid_product', `Segment ${s} is not on the booking.`);
    }
    return this.#serialized(
      ctx,
      b,
      'ancillary_purchase',
      async () => null,
      () => ({ products }),
      async (_none, op) => {
        // What the order holds before the purchase: the job tells this purchase's services apart by it.
        if (supplier.orderServices) {
          const before = await supplier.orderServices(orderRef, { signal: ctx.signal }).catch((err) => {
            throw supplierFailure(err, { failed: 'purchase_failed', unsupported: 'ancillaries_unsupported' });
          });
          await patchOpDetail(this.#d.db, op.id, {
            products,
            before: before.services.map((x) => x.tsm_reference),
          });
        }
        let bought: Awaited<ReturnType<FlightSupplier['purchaseAncillaries']>>;
        try {
          const catalogue = products.some((p) => isAlias(p.code))
            ? await supplier.ancillaryCatalogue(orderRef, '', { signal: ctx.signal })
            : [];
          const real = products.map((p) => ({
            ...p,
            code: catalogue.find((i) => alias(i.code) === p.code)?.code ?? p.code,
          }));
          bought = (await supplier.purchaseAncillaries(orderRef, real, { signal: ctx.signal })).map((x) => ({
            ...x,
            code: alias(x.code),
          }));
        } catch (err) {
          if (isAmbiguous(err))
            throw new ServicePending(`ancillary_purchase: ${err.supplierCode ?? err.kind}`);
          if (err instanceof SupplierError && err.kind === 'invalid_request') {
            // Our words; the supplier's own text goes to the log only.
            ctx.log.warn({ err, booking: b.id }, 'supplier refused the ancillary products');
            throw badRequest(
              'invalid_product',
              'The supplier does not sell one of these products for this booking.',
            );
          }
          return supplierFailure(err, { failed: 'purchase_failed', unsupported: 'ancillaries_unsupported' });
        }
        const rows = await this.#d.db
          .transaction()
          .execute((trx) => recordPurchase(trx, b, products, bought, this.#d.clock.now()));
        return purchaseBody(b.id, rows);
      },
    );
  }

  /** Omitted tsm_references: every held TSM. EMD numbers are those the supplier reads back. */
  async issueEmds(ctx: OperationContext<'issueAncillaryEmds'>) {
    const { b, supplier, orderRef } = await this.#ctx(ctx, 'ancillaries', 'ancillaries_unsupported');
    return this.#serialized(
      ctx,
      b,
      'emd',
      async (trx) => {
        const all = await listAncillaries(trx, b.id);
        const wanted = ctx.body?.tsm_references;
        if (wanted)
          for (const t of wanted)
            if (!all.some((a) => a.tsm_reference === t))
              throw notFound('ancillary_not_found', `TSM ${t} is not on the booking.`);
        const held = all.filter(
          (a) => nextAncillaryStatus(a.status, 'issue') && (!wanted || wanted.includes(a.tsm_reference)),
        );
        if (held.length === 0)
          throw badRequest('no_pending_ancillaries', 'No held ancillary is waiting for an EMD.');
        return held;
      },
      (held) => ({ tsm_references: held.map((a) => a.tsm_reference) }),
      async (held) => {
        let emds: Awaited<ReturnType<FlightSupplier['issueEmds']>>;
        try {
          emds = await supplier.issueEmds(
            orderRef,
            held.map((a) => a.tsm_reference),
            { signal: ctx.signal },
          );
        } catch (err) {
          if (isAmbiguous(err)) throw new ServicePending(`emd: ${err.supplierCode ?? err.kind}`);
          return supplierFailure(err, { failed: 'emd_issue_failed', unsupported: 'ancillaries_unsupported' });
        }
        await this.#d.db.transaction().execute((trx) => recordEmds(trx, held, emds, this.#d.clock.now()));
        const after = await listAncillaries(this.#d.db, b.id);
        return { booking_id: b.id, emds, ancillaries: after.map(ancillaryView) };
      },
    );
  }

  /** Per item: issued EMD voided, unissued service removed; cancelled or refunded ones skipped. */
  async cancel(ctx: OperationContext<'cancelAncillaries'>) {
    const { b, supplier, orderRef } = await this.#ctx(ctx, 'ancillaries', 'unsupported_provider');
    const all = await listAncillaries(this.#d.db, b.id);
    const ids = ctx.body?.ancillary_ids;
    if (ids)
      for (const id of ids)
        if (!all.some((a) => a.id === id))
          throw notFound('ancillary_not_found', `Ancillary ${id} is not on the booking.`);
    const chosen = ids ? all.filter((a) => ids.includes(a.id)) : all;
    const results: {
      ancillary_id: number;
      outcome: 'voided' | 'removed' | 'skipped' | 'failed';
      reason: string | null;
    }[] = [];
    for (const a of chosen) {
      const next = nextAncillaryStatus(a.status, 'cancel');
      if (!next) {
        results.push({ ancillary_id: a.id, outcome: 'skipped', reason: `already ${a.status}` });
        continue;
      }
      try {
        const r = await supplier.cancelAncillary(
          orderRef,
          { tsm_reference: a.tsm_reference, emd_number: a.emd_number },
          { signal: ctx.signal },
        );
        await updateAncillary(
          this.#d.db,
          a.id,
          { status: r.outcome === 'voided' ? 'voided' : 'removed' },
          this.#d.clock.now(),
        );
        results.push({ ancillary_id: a.id, outcome: r.outcome, reason: null });
      } catch (err) {
        this.#d.logger?.warn({ err, ancillary: a.id }, 'ancillary cancellation failed at the supplier');
        if (err instanceof SupplierError && err.kind === 'unsupported' && chosen.length === 1) {
          throw badRequest('unsupported_provider', 'The supplier does not cancel this ancillary.');
        }
        const reason =
          err instanceof SupplierError
            ? `The supplier did not cancel it (${err.kind}${err.supplierCode ? ` ${err.supplierCode}` : ''}).`
            : 'The supplier did not cancel it.';
        results.push({ ancillary_id: a.id, outcome: 'failed', reason });
      }
    }
    return { booking_id: b.id, results };
  }
}

/** A bag booked with the PNR, in the shape of a purchased bag (openapi `PurchasedBag`). */
function bookedBagView(b: BookingRow, bag: BookedBag, all: BookedBag[]) {
  const covers = bag.segment_id ? [bag.segment_id] : (bag.option?.segment_ids ?? []);
  return {
    bought_with: 'booking' as const,
    ancillary_id: null,
    bag_option_id: bag.bag_option_id,
    code: alias(bag.bag_option_id),
    rfic: 'C',
    rfisc: '',
    booking_method: 'bag_offer',
    provider: String(b.offer.validating_carrier ?? b.supplier),
    tsm_reference: null,
    emd_number: null,
    status: bag.status,
    quantity: bag.quantity,
    passenger_ids: passengerIds(b, bag),
    // An option that names no segments covers every one.
    segment_ids: covers.length > 0 ? covers : b.flights.map((f) => String(f.segment_id)),
    price: { currency: b.pricing.currency, amount_minor: unitPrice(b, bag, all) * bag.quantity },
    created_at: b.created_at.toISOString(),
  };
}
