/**
 * Port-level conformance for any FlightSupplier wired to its emulator. Assertions use only the port and
 * its capabilities (no supplier wire shapes), so Amadeus, Duffel and Mystifly run the same suite. Every
 * port operation is exercised: a supported one must work, an unsupported one must throw SupplierError
 * kind 'unsupported'. Supplier-specific triggers (price change, void window, …) belong in each supplier's
 * own test file.
 */
import { describe, expect, it } from 'vitest';
import { CURRENCIES, SupplierError } from '../../src/suppliers/ports/errors.ts';
import type {
  FlightSearchQuery,
  FlightSupplier,
  SupplierFlightOffer,
} from '../../src/suppliers/ports/flight.ts';
import {
  baseFlightQuery,
  clientRef,
  conformancePassenger,
  issueAndAwait,
  kindOf,
} from './flight-conformance-kit.ts';

export {
  baseFlightQuery,
  clientRef,
  conformancePassenger,
  kindOf,
} from './flight-conformance-kit.ts';

/** Port operations that no capability flag declares; a supplier lists those it refuses. */
export type UncapableOperation = 'addSsr' | 'cancelAncillary';

export interface FlightConformanceOptions {
  query?: Partial<FlightSearchQuery>;
  /** Passenger last names the emulator treats as triggers (contracts.md §4). */
  triggers?: { pending?: string; reject?: string };
  /** Book held orders (true) or instant (false) in the suite; default: hold when the supplier can. */
  hold?: boolean;
  /** Operations without a capability flag that this supplier answers with 'unsupported'. */
  unsupported?: UncapableOperation[];
}

export function flightSupplierConformance(
  name: string,
  makeAdapter: () => FlightSupplier,
  options: FlightConformanceOptions = {},
): void {
  const query = { ...baseFlightQuery, ...options.query };
  const triggers = { pending: 'PENDING', reject: 'REJECT', ...options.triggers };
  const refuses = (op: UncapableOperation) => options.unsupported?.includes(op) ?? false;

  async function bookable(a: FlightSupplier): Promise<SupplierFlightOffer> {
    const offers = await a.search(query);
    const priced = await a.price(offers[0] as SupplierFlightOffer, {});
    return priced.offer;
  }
  async function book(
    a: FlightSupplier,
    lastName: string,
    ref = clientRef(name),
    offer?: SupplierFlightOffer,
  ) {
    return a.createOrder({
      offer: offer ?? (await bookable(a)),
      passengers: [conformancePassenger(lastName)],
      contact: { email: 'adam@example.com', phone: '+447700900123' },
      hold: options.hold ?? a.capabilities.holdOrders,
      client_reference: ref,
    });
  }
  /** A booked and ticketed order: services sold after booking are associated with issued tickets. */
  async function ticketed(a: FlightSupplier, lastName: string) {
    const order = await book(a, lastName);
    await issueAndAwait(a, order.order_ref, order.total);
    return order;
  }

  describe(`FlightSupplier conformance: ${name}`, () => {
    it('searches: normalized, well-formed, deterministic offers', async () => {
      const a = makeAdapter();
      const offers = await a.search(query);
      expect(offers.length).toBeGreaterThan(0);
      expect(offers.length).toBeLessThanOrEqual(query.maxResults);
      for (const o of offers) {
        expect(o.supplier).toBe(a.name);
        expect(CURRENCIES).toContain(o.price.currency);
        expect(o.price.markup_minor).toBe(0);
        expect(o.price.total_minor).toBe(o.price.base_minor + o.price.taxes_minor);
        expect(o.slices).toHaveLength(query.legs.length);
        expect(o.slices[0]?.origin).toBe(query.legs[0]?.origin);
        expect(o.slices[0]?.destination).toBe(query.legs[0]?.destination);
        const ids = o.slices.flatMap((sl) => sl.segments.map((sg) => sg.segment_id));
        expect(ids).toEqual(ids.map((_, i) => `s${i + 1}`));
        for (const sl of o.slices) expect(sl.stops).toBe(sl.segments.length - 1);
        // Adapters may run on an injected clock, so only the format is port-level.
        expect(Number.isFinite(Date.parse(o.expires_at))).toBe(true);
      }
      const again = await a.search(query);
      expect(again.map((o) => o.price.total_minor)).toEqual(offers.map((o) => o.price.total_minor));
    });

    it('prices an offer and reports the previous total, with fare rules and bags on request', async () => {
      const a = makeAdapter();
      const [offer] = await a.search(query);
      const priced = await a.price(offer as SupplierFlightOffer, { bags: true, fareRules: true });
      expect(priced.previous_total_minor).toBe(offer?.price.total_minor);
      expect(priced.price_changed).toBe(priced.offer.price.total_minor !== offer?.price.total_minor);
      expect(priced.offer.supplier).toBe(a.name);
      expect(priced.fare_rules?.length).toBeGreaterThan(0);
      expect(Array.isArray(priced.bag_options)).toBe(true);
      const segmentIds = priced.offer.slices.flatMap((sl) => sl.segments.map((sg) => sg.segment_id));
      for (const b of priced.bag_options ?? []) {
        expect(b.bag_option_id).toBeTruthy();
        expect(b.quantity_max).toBeGreaterThan(0);
        expect(b.price.currency).toBe(priced.offer.price.currency);
        expect(b.price.amount_minor).toBeGreaterThan(0);
        for (const id of b.segment_ids) expect(segmentIds).toContain(id);
      }
    });

    it('fare rules on their own', async () => {
      const a = makeAdapter();
      const [offer] = await a.search(query);
      const rules = await a.fareRules(offer as SupplierFlightOffer);
      expect(rules.length).toBeGreaterThan(0);
      for (const r of rules) {
        expect(r.category).toBeTruthy();
        expect(typeof r.title).toBe('string');
        expect(r.text).toBeTruthy();
      }
    });

    it('reprices with bags from the catalogue; with none on sale a bag is refused', async () => {
      const a = makeAdapter();
      const priced = await a.price(await bookable(a), { bags: true });
      const bag = priced.bag_options?.[0];
      const base = priced.offer.price.total_minor;
      expect((await a.repriceWithBags(priced.offer, [])).offer.price.total_minor).toBe(base);
      if (bag) {
        const re = await a.repriceWithBags(priced.offer, [{ bag_option_id: bag.bag_option_id, quantity: 1 }]);
        expect(re.offer.price.total_minor).toBeGreaterThan(base);
        expect(re.offer.price.total_minor).toBe(re.offer.price.base_minor + re.offer.price.taxes_minor);
      } else {
        expect(['unsupported', 'invalid_request']).toContain(
          await kindOf(a.repriceWithBags(priced.offer, [{ quantity: 1 }])),
        );
      }
    });

    it('upsell follows the capability', async () => {
      const a = makeAdapter();
      const [offer] = await a.search(query);
      if (a.capabilities.upsell)
        expect((await a.upsell(offer as SupplierFlightOffer)).length).toBeGreaterThan(0);
      else expect(await kindOf(a.upsell(offer as SupplierFlightOffer))).toBe('unsupported');
    });

    it('creates, reads, finds by client reference and cancels an order', async () => {
      const a = makeAdapter();
      const ref = clientRef(name);
      const order = await book(a, 'Smith', ref);
      expect(order.supplier).toBe(a.name);
      expect(order.order_ref).toBeTruthy();
      expect(order.pnr).toMatch(/^[A-Z0-9]{6}$/);
      expect(['confirmed', 'on_hold', 'ticketed']).toContain(order.status);
      const read = await a.getOrder(order.order_ref);
      expect(read.order_ref).toBe(order.order_ref);
      expect(read.total).toEqual(order.total);
      expect((await a.findOrderByClientReference(ref))?.order_ref).toBe(order.order_ref);
      expect(await a.findOrderByClientReference(clientRef('nobody'))).toBeNull();
      expect((await a.cancelOrder(order.order_ref)).cancelled).toBe(true);
      // No longer live: read back as cancelled, or gone where the supplier deletes it (Amadeus DELETE).
      const after = await a.getOrder(order.order_ref).then(
        (o) => o.status,
        (e: unknown) => (e instanceof SupplierError ? e.kind : 'thrown'),
      );
      expect(['cancelled', 'not_found']).toContain(after);
    });

    it('an unknown order is not_found', async () => {
      expect(await kindOf(makeAdapter().getOrder('does-not-exist'))).toBe('not_found');
    });

    it(`last name ${triggers.reject} is rejected`, async () => {
      expect(await kindOf(book(makeAdapter(), triggers.reject))).toBe('rejected');
    });

    it(`last name ${triggers.pending} is an unknown outcome that reconciliation finds`, async () => {
      const a = makeAdapter();
      const ref = clientRef(name);
      expect(await kindOf(book(a, triggers.pending, ref))).toBe('unknown_outcome');
      const found = await a.findOrderByClientReference(ref);
      expect(found?.order_ref).toBeTruthy();
    });

    it('issues tickets at once or asynchronously as the capability says, then documents and coupons', async () => {
      const a = makeAdapter();
      const offer = await bookable(a);
      const order = await book(a, 'Jones', clientRef(name), offer);
      const segmentIds = offer.slices.flatMap((sl) => sl.segments.map((sg) => sg.segment_id));
      if (a.capabilities.ticketStatus) expect((await a.ticketStatus(order.order_ref)).issued).toBe(false);
      else expect(await kindOf(a.ticketStatus(order.order_ref))).toBe('unsupported');
      const { issued, polled } = await issueAndAwait(a, order.order_ref, order.total);
      if (a.capabilities.asyncTicketing) expect(polled.length).toBeGreaterThan(0);
      const docs = await a.ticketDocuments(order.order_ref);
      expect(docs.length).toBeGreaterThan(0);
      if (issued.issued)
        expect(docs.map((d) => d.ticket_number)).toEqual(issued.tickets.map((d) => d.ticket_number));
      for (const d of docs) {
        expect(d.ticket_number).toBeTruthy();
        expect(d.passenger_id).toBe('1');
        expect(d.coupons.map((c) => c.coupon_number)).toEqual(d.coupons.map((_, i) => i + 1));
        expect(d.coupons.map((c) => c.segment_id)).toEqual(segmentIds);
        for (const c of d.coupons) expect(c.status).toBe('OPEN');
      }
      expect((await a.getOrder(order.order_ref)).status).toBe('ticketed');
      if (a.capabilities.ticketStatus) expect((await a.ticketStatus(order.order_ref)).issued).toBe(true);
      else expect(await kindOf(a.ticketStatus(order.order_ref))).toBe('unsupported');
      const quote = await a.ticketAction(order.order_ref, 'void', false, undefined);
      expect(quote.action).toBe('void');
      expect(quote.confirmed).toBe(false);
      expect(quote.permitted).toBe(true);
      expect(typeof quote.determination).toBe('string');
      expect((await a.ticketDocuments(order.order_ref))[0]?.coupons.every((c) => c.status === 'OPEN')).toBe(
        true,
      );
    });

    it('servicing follows the capability: a confirmed void is raised as a request', async () => {
      const a = makeAdapter();
      const order = await book(a, 'Grey');
      if (!a.capabilities.servicing) {
        expect(await kindOf(a.listServicing(order.order_ref))).toBe('unsupported');
        return;
      }
      expect(await a.listServicing(order.order_ref)).toEqual([]);
      await issueAndAwait(a, order.order_ref, order.total);
      const raised = await a.ticketAction(order.order_ref, 'void', true, 'conformance');
      expect(raised).toMatchObject({ action: 'void', confirmed: true, permitted: true });
      expect(raised.servicing_request_id).toBeTruthy();
      const listed = (await a.listServicing(order.order_ref)).find(
        (r) => r.request_id === raised.servicing_request_id,
      );
      expect(listed?.type).toBe('void');
      expect(['Requested', 'InProcess', 'Completed']).toContain(listed?.state);
    });

    it('notes, FOID and commission follow the capabilities', async () => {
      const a = makeAdapter();
      const order = await book(a, 'Brown');
      const ref = order.order_ref;
      if (a.capabilities.notes) expect((await a.addNotes(ref, ['Conformance note'])).success).toBe(true);
      else expect(await kindOf(a.addNotes(ref, ['Conformance note']))).toBe('unsupported');
      const foid = a.updateFoid(ref, { number: 'X1234567', identification_type: 'PP' });
      expect(await kindOf(foid)).toBe(a.capabilities.foid ? 'resolved' : 'unsupported');
      const commission = a.updateCommission(ref, { percentage: 5 });
      expect(await kindOf(commission)).toBe(a.capabilities.commission ? 'resolved' : 'unsupported');
    });

    it('special service requests work unless the supplier refuses them', async () => {
      const a = makeAdapter();
      const order = await book(a, 'Black');
      const ssr = a.addSsr(order.order_ref, { code: 'WCHR', free_text: 'WHEELCHAIR', passenger_id: '1' });
      if (refuses('addSsr')) {
        expect(await kindOf(ssr)).toBe('unsupported');
        return;
      }
      const res = await ssr;
      expect(res.ssr_id).toBeTruthy();
      expect(res.status).toBeTruthy();
    });

    it('seat map and seat requests follow the capability', async () => {
      const a = makeAdapter();
      if (!a.capabilities.seats) {
        const ref = (await book(a, 'Green')).order_ref;
        expect(await kindOf(a.seatMap(ref))).toBe('unsupported');
        const seat = { segment_id: 's1', seat_number: '12A', passenger_id: '1' };
        expect(await kindOf(a.requestSeats(ref, [seat]))).toBe('unsupported');
        expect(await kindOf(a.issueSeats(ref, true))).toBe('unsupported');
        return;
      }
      const order = await ticketed(a, 'Green');
      const maps = await a.seatMap(order.order_ref);
      expect(maps.length).toBeGreaterThan(0);
      const map = maps[0];
      const seat = map?.rows.flatMap((r) => r.seats).find((x) => x.available);
      expect(seat).toBeDefined();
      const [res] = await a.requestSeats(order.order_ref, [
        { segment_id: map?.segment_id ?? 's1', seat_number: seat?.seat_number ?? '', passenger_id: '1' },
      ]);
      expect(res?.accepted).toBe(true);
      const issued = await a.issueSeats(order.order_ref, true);
      expect(Array.isArray(issued.priced)).toBe(true);
      for (const p of issued.priced) expect(p.passenger_id).toBe('1');
    });

    it('ancillaries: catalogue, purchase, EMD, cancel follow the capability', async () => {
      const a = makeAdapter();
      if (!a.capabilities.ancillaries) {
        const ref = (await book(a, 'White')).order_ref;
        expect(await kindOf(a.ancillaryCatalogue(ref, 'BG'))).toBe('unsupported');
        expect(await kindOf(a.purchaseAncillaries(ref, []))).toBe('unsupported');
        expect(await kindOf(a.issueEmds(ref, ['TSM1']))).toBe('unsupported');
        const item = { tsm_reference: 'TSM1', emd_number: null };
        expect(await kindOf(a.cancelAncillary(ref, item))).toBe('unsupported');
        return;
      }
      const order = await ticketed(a, 'White');
      const tickets = (await a.ticketDocuments(order.order_ref)).map((d) => d.ticket_number);
      const items = await a.ancillaryCatalogue(order.order_ref, 'BG');
      expect(items.length).toBeGreaterThan(0);
      const item = items[0];
      expect(item?.service_group).toBe('BG');
      const [bought] = await a.purchaseAncillaries(order.order_ref, [
        {
          customer_ref_ids: ['1'],
          code: item?.code ?? '',
          rfic: item?.rfic ?? '',
          rfisc: item?.rfisc ?? '',
          booking_method: item?.booking_method ?? '',
          provider: item?.provider ?? '',
          segment_ref_ids: item?.segment_ids.join(' ') ?? '',
        },
      ]);
      expect(bought?.tsm_reference).toBeTruthy();
      expect(bought?.passenger_ids).toEqual(['1']);
      const [emd] = await a.issueEmds(order.order_ref, [bought?.tsm_reference ?? '']);
      expect(emd?.tsm_reference).toBe(bought?.tsm_reference);
      expect(emd?.emd_number).toBeTruthy();
      expect(tickets).not.toContain(emd?.emd_number);
      // An EMD is issued alongside the tickets; it does not reissue them.
      expect((await a.ticketDocuments(order.order_ref)).map((d) => d.ticket_number)).toEqual(tickets);
      const cancel = a.cancelAncillary(order.order_ref, {
        tsm_reference: bought?.tsm_reference ?? '',
        emd_number: emd?.emd_number ?? null,
      });
      if (refuses('cancelAncillary')) expect(await kindOf(cancel)).toBe('unsupported');
      else expect((await cancel).outcome).toBe('voided');
    });
  });
}
