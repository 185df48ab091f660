/**
 * createPnr (idempotent, 502 pending path): the booking written ahead with its reconcile job in one
 * statement, then the supplier order, then the settlement (settle-pnr.ts). A retry of a request whose
 * process died finds the row it wrote instead of ordering again.
 */

import { randomBytes } from 'node:crypto';
import { FLIGHT_SUPPLIERS } from '@travel/contract';
import { callWindowMs } from '../../internal/config.ts';
import { faultPoint } from '../../internal/fault-hooks.ts';
import { oneOf } from '../../internal/narrow.ts';
import { badRequest, HttpError } from '../../kernel/errors.ts';
import type { HandlerResult, OperationContext, RequestContext } from '../../kernel/types.ts';
import { bindBooking } from '../../observability/call-scope.ts';
import { resolveFlightOffer } from '../../search/resolve-offer.ts';
import { executeNamed } from '../../storage/prepared.ts';
import type { SupplierFlightOrder } from '../../suppliers/ports/flight.ts';
import { bookableTraveler } from '../accounts/index.ts';
import { bookBags } from './bags.ts';
import type { BookingDeps } from './deps.ts';
import { normalizePassengers, preparePassengers } from './passengers.ts';
import { type Outcome, placeOrder } from './place-order.ts';
import { BOOKING_OFFER } from './pricing.ts';
import { reconcileJobEach, reconcileSettled } from './reconcile.ts';
import { settlePnr, settleWritten } from './settle-pnr.ts';
import { type BookingRow, callerOf, findByClientReference } from './store.ts';
import { flightSupplierOf } from './suppliers.ts';
import { bookingDb, json } from './tables.ts';

/**
 * Write-ahead: the booking is committed `initiated` (with its reconciliation job, due at the end of the
 * call window) before the supplier is called, under a client reference derived from the caller's
 * Idempotency-Key and request. Then the supplier is called, then the row is settled. A process that dies
 * anywhere in between leaves a row that reconciliation settles by that reference, and a retry of the key
 * (its lease lapsed with the process) finds the row instead of ordering again (`resume`).
 */
export async function createPnr(d: BookingDeps, ctx: OperationContext<'createPnr'>): Promise<HandlerResult> {
  const body = ctx.body;
  const now = d.clock.now();
  const r = await resolveFlightOffer(d.db, body.offer_id, callerOf(ctx), d.clock, BOOKING_OFFER);
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
    (id) => bookableTraveler(d.db, caller, id),
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
  const t = d.clock.now();
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
    supplier: oneOf(FLIGHT_SUPPLIERS, r.supplier, 'offer supplier'),
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
  const db = bookingDb(d.db);
  const insert = (qb: typeof db) =>
    qb
      .insertInto('flight_bookings')
      .values(row)
      .onConflict((oc) => oc.column('client_reference').doNothing())
      .returning('id');
  // Prepared statements (parsed and planned once per connection): the text is the same every call.
  const [inserted] =
    mode === 'PAYMENT_FIRST'
      ? await executeNamed(db, 'flight_write_ahead', insert(db))
      : await executeNamed(
          db,
          'flight_write_ahead_job',
          db
            .with('b', (qb) => insert(qb as typeof db))
            .with('j', (() => reconcileJobEach('b', new Date(t.getTime() + callWindowMs()))) as never)
            .selectFrom('b')
            .select('b.id'),
        );
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
  if (!written) return resume(d, ctx, clientReference);
  bindBooking(written.id);

  let outcome: Outcome | null = null;
  if (mode !== 'PAYMENT_FIRST') {
    await faultPoint('createPnr:before-supplier');
    try {
      outcome = await placeOrder(
        d,
        written,
        r.supplierOffer,
        { passengers, contact: body.contact, bags },
        ctx.signal,
      );
    } catch (err) {
      // A refusal (400) or "nothing happened" (500 booking_failed): no order exists, so the intent is
      // withdrawn with its job. Any other failure leaves the row to reconciliation (the call may have acted).
      if (err instanceof HttpError) await withdraw(d, written.id);
      throw err;
    }
    await faultPoint('createPnr:after-supplier');
  }
  if (outcome?.kind === 'order' && !outcome.bagsLater) {
    const answered = await settleWritten(d, ctx, written, outcome.order);
    if (answered) return answered;
  }
  return ctx.transaction((trx) => settlePnr(d, trx, ctx, written.id, outcome));
}

/** Removes a write-ahead row whose supplier call created nothing, and its reconciliation job. */
async function withdraw(d: BookingDeps, id: number) {
  await d.db.transaction().execute(async (trx) => {
    await reconcileSettled(trx, id, d.clock);
    await bookingDb(trx)
      .deleteFrom('flight_bookings')
      .where('id', '=', id)
      .where('status', '=', 'initiated')
      .execute();
  });
}

/**
 * A retry of a createPnr whose earlier attempt wrote the booking and then died (its key's lease lapsed):
 * the booking as it stands, after asking the supplier by the client reference when it is still
 * unsettled. Found: settled from the order. Not found or unreachable: the 502 pending answer, and
 * reconciliation decides. The supplier is never asked to order again.
 */
async function resume(d: BookingDeps, ctx: RequestContext, clientReference: string): Promise<HandlerResult> {
  const b = await findByClientReference(d.db, clientReference);
  if (!b) throw new HttpError(500, 'booking_failed', 'The booking could not be created; retry later.');
  let outcome: Outcome | null = null;
  const unsettled = b.status === 'initiated' || b.status === 'pending_pnr';
  if (unsettled && b.payment_mode !== 'PAYMENT_FIRST') {
    const supplier = flightSupplierOf(d.suppliers, b.supplier);
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
  return ctx.transaction((trx) => settlePnr(d, trx, ctx, b.id, outcome));
}
