/**
 * Port-level conformance for any FlightSupplier wired to its emulator. Assertions use only the port and
 * its capabilities (no supplier wire shapes), so Amadeus, Duffel and Mystifly run the same suite.
 * Supplier-specific triggers (price change, void window, …) belong in each supplier's own test file.
 */
import { describe, expect, it } from 'vitest';
import type {
  FlightSearchQuery,
  FlightSupplier,
  PassengerInput,
  SupplierFlightOffer,
} from '../../src/suppliers/ports.ts';
import { CURRENCIES, SupplierError } from '../../src/suppliers/ports.ts';

export interface FlightConformanceOptions {
  query?: Partial<FlightSearchQuery>;
  /** Passenger last names the emulator treats as triggers (contracts.md §4). */
  triggers?: { pending?: string; reject?: string };
  /** Book held orders (true) or instant (false) in the suite; default: hold when the supplier can. */
  hold?: boolean;
}

export const baseFlightQuery: FlightSearchQuery = {
  legs: [{ origin: 'LHR', destination: 'DXB', departureDate: '2026-12-20' }],
  journeyType: 'OneWay',
  adults: 1,
  children: 0,
  infants: 0,
  childAges: [],
  cabinClass: 'Economy',
  currency: 'GBP',
  maxResults: 5,
};

export function conformancePassenger(lastName: string, id = '1'): PassengerInput {
  return {
    passenger_id: id,
    type: 'ADT',
    title: 'MR',
    first_name: 'Adam',
    last_name: lastName,
    gender: 'M',
    date_of_birth: '1985-04-12',
    nationality: 'GB',
    email: 'adam@example.com',
    phone: '+447700900123',
    document: { type: 'passport', number: 'X1234567', expiry: '2031-01-01', issuing_country: 'GB' },
  };
}

export async function kindOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'resolved';
  } catch (e) {
    if (e instanceof SupplierError) return e.kind;
    throw e;
  }
}

let refCounter = 0;
export const clientRef = (prefix: string): string => `${prefix}-${Date.now().toString(36)}-${++refCounter}`;

export function flightSupplierConformance(
  name: string,
  makeAdapter: () => FlightSupplier,
  options: FlightConformanceOptions = {},
): void {
  const query = { ...baseFlightQuery, ...options.query };
  const triggers = { pending: 'PENDING', reject: 'REJECT', ...options.triggers };

  async function bookable(a: FlightSupplier): Promise<SupplierFlightOffer> {
    const offers = await a.search(query);
    const priced = await a.price(offers[0] as SupplierFlightOffer, {});
    return priced.offer;
  }
  async function book(a: FlightSupplier, lastName: string, ref = clientRef(name)) {
    const offer = await bookable(a);
    return a.createOrder({
      offer,
      passengers: [conformancePassenger(lastName)],
      contact: { email: 'adam@example.com', phone: '+447700900123' },
      hold: options.hold ?? a.capabilities.holdOrders,
      client_reference: ref,
    });
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

    it('prices an offer and reports the previous total', async () => {
      const a = makeAdapter();
      const [offer] = await a.search(query);
      const priced = await a.price(offer as SupplierFlightOffer, { bags: true, fareRules: true });
      expect(priced.previous_total_minor).toBe(offer?.price.total_minor);
      expect(priced.price_changed).toBe(priced.offer.price.total_minor !== offer?.price.total_minor);
      expect(priced.offer.supplier).toBe(a.name);
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

    it('issues tickets with documents and coupons', async () => {
      const a = makeAdapter();
      const order = await book(a, 'Jones');
      const issued = await a.issueTicket(order.order_ref, order.total);
      if (!a.capabilities.asyncTicketing) expect(issued.issued).toBe(true);
      const docs = await a.ticketDocuments(order.order_ref);
      expect(docs.length).toBeGreaterThan(0);
      for (const d of docs) {
        expect(d.ticket_number).toBeTruthy();
        expect(d.coupons.length).toBeGreaterThan(0);
      }
      if (a.capabilities.ticketStatus) expect((await a.ticketStatus(order.order_ref)).issued).toBe(true);
      else expect(await kindOf(a.ticketStatus(order.order_ref))).toBe('unsupported');
      const quote = await a.ticketAction(order.order_ref, 'void', false, undefined);
      expect(quote.action).toBe('void');
      expect(quote.confirmed).toBe(false);
      expect(typeof quote.determination).toBe('string');
    });

    it('servicing follows the capability', async () => {
      const a = makeAdapter();
      if (!a.capabilities.servicing) expect(await kindOf(a.listServicing('any'))).toBe('unsupported');
    });

    it('notes, FOID and commission follow the capabilities', async () => {
      const a = makeAdapter();
      const order = await book(a, 'Brown');
      if (a.capabilities.notes)
        expect((await a.addNotes(order.order_ref, ['Conformance note'])).success).toBe(true);
      if (a.capabilities.foid)
        await a.updateFoid(order.order_ref, { number: 'X1234567', identification_type: 'PP' });
      if (a.capabilities.commission) await a.updateCommission(order.order_ref, { percentage: 5 });
    });

    it('seat map and seat requests follow the capability', async () => {
      const a = makeAdapter();
      if (!a.capabilities.seats) return;
      const order = await book(a, 'Green');
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
    });

    it('ancillaries: catalogue, purchase, EMD, cancel follow the capability', async () => {
      const a = makeAdapter();
      if (!a.capabilities.ancillaries) return;
      const order = await book(a, 'White');
      const items = await a.ancillaryCatalogue(order.order_ref, 'BG');
      expect(items.length).toBeGreaterThan(0);
      const item = items[0];
      if (!item) return;
      const [bought] = await a.purchaseAncillaries(order.order_ref, [
        {
          customer_ref_ids: ['1'],
          code: item.code,
          rfic: item.rfic,
          rfisc: item.rfisc,
          booking_method: item.booking_method,
          provider: item.provider,
          segment_ref_ids: item.segment_ids.join(' '),
        },
      ]);
      expect(bought?.tsm_reference).toBeTruthy();
      const [emd] = await a.issueEmds(order.order_ref, [bought?.tsm_reference ?? '']);
      expect(emd?.emd_number).toBeTruthy();
      expect(
        (
          await a.cancelAncillary(order.order_ref, {
            tsm_reference: bought?.tsm_reference ?? '',
            emd_number: emd?.emd_number ?? null,
          })
        ).outcome,
      ).toBe('voided');
    });
  });
}
