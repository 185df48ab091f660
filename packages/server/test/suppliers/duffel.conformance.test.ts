/**
 * Duffel flight adapter (official @duffel/api client) against the Duffel emulator, in-process via msw/node:
 * the shared flight suite first, then every Duffel trigger and behaviour the suite does not reach.
 */
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { duffelHandlers } from '../../../mock-server/src/suppliers/duffel/index.ts';
import { DuffelFlightAdapter } from '../../src/suppliers/duffel/index.ts';
import type { FlightSearchQuery, PassengerInput, SupplierFlightOffer } from '../../src/suppliers/ports.ts';
import { SupplierError } from '../../src/suppliers/ports.ts';
import { flightSupplierConformance } from './flight-conformance.ts';

const BASE = 'https://api.duffel.test';
const T0 = Date.parse('2026-06-01T08:00:00Z');
let now = T0;
const clock = () => now;
const emu = duffelHandlers({ baseUrl: BASE, clock, latencyMs: 0, seed: 11, hangMs: 300 });
const server = setupServer(...emu.handlers);
const make = (timeoutMs = 2_000) =>
  new DuffelFlightAdapter({ token: 'duffel_test_conformance', baseUrl: BASE, timeoutMs });
const adapter = make();

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => {
  emu.state.faults.length = 0;
  now = T0;
});
afterAll(() => server.close());

// Duffel removes no single service from an order and takes no SSRs (port operations without a capability flag).
flightSupplierConformance('duffel', () => make(), { unsupported: ['addSsr', 'cancelAncillary'] });

async function kind(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'resolved';
  } catch (e) {
    if (e instanceof SupplierError) return e.kind;
    throw e;
  }
}

const query = (extra: Partial<FlightSearchQuery> = {}): FlightSearchQuery => ({
  legs: [{ origin: 'LHR', destination: 'BCN', departureDate: '2026-12-20' }],
  journeyType: 'OneWay',
  adults: 1,
  children: 0,
  infants: 0,
  childAges: [],
  cabinClass: 'Economy',
  currency: 'GBP',
  maxResults: 50,
  ...extra,
});

/**
 * Searches a few dates until an offer matches (carriers vary by date, deterministically). Low-cost
 * carriers fly from their bases only (the sandbox's route network), so their content is searched from Luton.
 */
async function findOffer(
  pred: (o: SupplierFlightOffer) => boolean,
  extra: Partial<FlightSearchQuery> = {},
  origin = 'LHR',
) {
  for (let d = 10; d < 28; d++) {
    const legs = [{ origin, destination: 'BCN', departureDate: `2026-12-${d}` }];
    const hit = (await adapter.search(query({ legs, ...extra }))).find(pred);
    if (hit) return hit;
  }
  throw new Error('no matching offer');
}

const pax = (last = 'Lovelace', n = 1): PassengerInput[] =>
  Array.from({ length: n }, (_, i) => ({
    passenger_id: String(i + 1),
    type: 'ADT' as const,
    first_name: 'Ada',
    last_name: last,
    gender: 'F' as const,
    date_of_birth: '1985-12-10',
    document: { type: 'passport' as const, number: 'X1234567', expiry: '2031-01-01', issuing_country: 'GB' },
  }));

let refs = 0;
const order = (
  offer: SupplierFlightOffer,
  o: {
    last?: string;
    hold?: boolean;
    ref?: string;
    bags?: { bag_option_id: string; quantity: number }[];
  } = {},
) =>
  adapter.createOrder({
    offer,
    passengers: pax(o.last),
    contact: { email: 'ada@example.com', phone: '+447700900123' },
    hold: o.hold ?? false,
    client_reference: o.ref ?? `bk-${++refs}`,
    bags: o.bags,
  });

const fsc = (o: SupplierFlightOffer) => !o.lcc && o.validating_carrier === 'ZZ';

describe('Duffel flights: shopping', () => {
  it('searches: normalized offers, s1.. segment ids, minor units, expiry from the clock', async () => {
    const offers = await adapter.search(
      query({
        legs: [
          { origin: 'LHR', destination: 'JFK', departureDate: '2026-12-20' },
          { origin: 'JFK', destination: 'LHR', departureDate: '2026-12-27' },
        ],
        journeyType: 'Return',
        adults: 2,
        children: 1,
        childAges: [7],
        infants: 1,
      }),
    );
    expect(offers.length).toBeGreaterThan(3);
    for (const o of offers) {
      expect(o.supplier).toBe('duffel');
      expect(o.slices).toHaveLength(2);
      expect(o.passengers).toEqual({ adults: 2, children: 1, infants: 1 });
      expect(o.price.total_minor).toBe(o.price.base_minor + o.price.taxes_minor);
      expect(o.price.markup_minor).toBe(0);
      expect(o.slices.flatMap((s) => s.segments.map((g) => g.segment_id))[0]).toBe('s1');
      expect(o.expires_at).toBe(new Date(T0 + 30 * 60_000).toISOString());
      expect(o.lcc).toBe(false); // no low-cost carriers long-haul
    }
    expect(offers.map((o) => o.price.total_minor)).toEqual(
      [...offers.map((o) => o.price.total_minor)].sort((a, b) => a - b),
    );
  });

  it('same search, same data (seeded); airline and refundable filters apply', async () => {
    const a = await adapter.search(query());
    const b = await adapter.search(query());
    expect(a.map((o) => [o.validating_carrier, o.price.total_minor])).toEqual(
      b.map((o) => [o.validating_carrier, o.price.total_minor]),
    );
    expect((await adapter.search(query({ airline: 'ZZ' }))).every((o) => o.validating_carrier === 'ZZ')).toBe(
      true,
    );
    expect((await adapter.search(query({ refundableOnly: true }))).every((o) => o.refundable)).toBe(true);
  });

  it('low-cost content is flagged (U2/FR/W6)', async () => {
    const lcc = await findOffer((o) => o.lcc, {}, 'LTN');
    expect(['U2', 'FR', 'W6']).toContain(lcc.validating_carrier);
    expect(lcc.refundable).toBe(false);
  });

  it('prices with bags and fare rules; reprices with bags; fare rules alone', async () => {
    const offer = await findOffer(fsc);
    const priced = await adapter.price(offer, { bags: true, fareRules: true });
    expect(priced.price_changed).toBe(false);
    expect(priced.bag_options?.length).toBeGreaterThan(0);
    expect(priced.bag_options?.[0]?.segment_ids[0]).toBe('s1');
    expect(priced.fare_rules?.map((r) => r.category)).toEqual(['REFUND', 'CHANGE']);
    const bag = priced.bag_options?.[0];
    const re = await adapter.repriceWithBags(offer, [{ bag_option_id: bag?.bag_option_id, quantity: 1 }]);
    expect(re.offer.price.total_minor).toBe(offer.price.total_minor + (bag?.price.amount_minor ?? 0));
    expect(await adapter.fareRules(offer)).toHaveLength(2);
  });

  it('price drift between search and pricing is reported', async () => {
    const offer = await findOffer(fsc);
    emu.state.driftOffer((offer.supplier_ref as { offer_id: string }).offer_id, 2500);
    const priced = await adapter.price(offer, {});
    expect(priced.price_changed).toBe(true);
    expect(priced.offer.price.total_minor).toBe(offer.price.total_minor + 2500);
    expect(await kind(order(offer))).toBe('price_changed');
    expect((await order(priced.offer)).status).toBe('ticketed');
  });

  it('no branded-fare upsell: unsupported', async () => {
    expect(await kind(adapter.upsell(await findOffer(fsc)))).toBe('unsupported');
  });

  it('expired offer (clock): offer_expired on pricing and booking', async () => {
    const offer = await findOffer(fsc);
    now = T0 + 31 * 60_000;
    expect(await kind(adapter.price(offer, {}))).toBe('offer_expired');
    expect(await kind(order(offer))).toBe('offer_expired');
  });
});

describe('Duffel flights: orders', () => {
  it('instant order: ticketed at once, read back, found by client reference', async () => {
    const offer = await findOffer(fsc);
    const created = await order(offer, { ref: 'bk-instant' });
    expect(created.status).toBe('ticketed');
    expect(created.pnr).toMatch(/^[A-Z]{6}$/);
    expect(created.total.amount_minor).toBe(offer.price.total_minor);
    expect((await adapter.getOrder(created.order_ref)).pnr).toBe(created.pnr);
    expect((await adapter.findOrderByClientReference('bk-instant'))?.order_ref).toBe(created.order_ref);
    expect(await adapter.findOrderByClientReference('bk-none')).toBeNull();
    const [ticket] = await adapter.ticketDocuments(created.order_ref);
    expect(ticket?.ticket_number).toMatch(/^999\d{10}$/);
    expect(ticket?.issuing_iata_number).not.toBe('');
    expect(ticket?.coupons[0]).toMatchObject({ segment_id: 's1', status: 'OPEN' });
  });

  it('instant order with bags pays offer + services', async () => {
    const offer = await findOffer(fsc);
    const bag = (await adapter.price(offer, { bags: true })).bag_options?.[0];
    const created = await order(offer, {
      bags: [{ bag_option_id: bag?.bag_option_id as string, quantity: 2 }],
    });
    expect(created.total.amount_minor).toBe(offer.price.total_minor + 2 * (bag?.price.amount_minor ?? 0));
  });

  it('hold order, then issueTicket pays it; a wrong amount is price_changed', async () => {
    const offer = await findOffer(fsc);
    const held = await order(offer, { hold: true });
    expect(held.status).toBe('on_hold');
    expect(held.ticketing_deadline).toBeTruthy();
    expect(await kind(adapter.issueTicket(held.order_ref, { currency: 'GBP', amount_minor: 1 }))).toBe(
      'price_changed',
    );
    const issued = await adapter.issueTicket(held.order_ref, held.total);
    expect(issued.issued).toBe(true);
    expect(issued.tickets).toHaveLength(1);
    expect((await adapter.getOrder(held.order_ref)).status).toBe('ticketed');
  });

  it('low-cost carriers: no hold (unsupported); documents have empty IATA fields', async () => {
    const lcc = await findOffer((o) => o.lcc, {}, 'LTN');
    expect(await kind(order(lcc, { hold: true }))).toBe('unsupported');
    const created = await order(lcc);
    const [doc] = await adapter.ticketDocuments(created.order_ref);
    expect(doc?.issuing_iata_number).toBe('');
    expect(doc?.fare_calculation).toBe('');
  });

  it('hold orders take no services (bags at booking, bags or seats after) until paid', async () => {
    const offer = await findOffer(fsc);
    const bag = (await adapter.price(offer, { bags: true })).bag_options?.[0];
    const bags = [{ bag_option_id: bag?.bag_option_id as string, quantity: 1 }];
    expect(await kind(order(offer, { hold: true, bags }))).toBe('unsupported');
    const held = await order(offer, { hold: true });
    const [item] = await adapter.ancillaryCatalogue(held.order_ref, 'BG');
    const product = {
      customer_ref_ids: ['1'],
      code: item?.code as string,
      rfic: 'C',
      rfisc: '0CC',
      booking_method: '',
      provider: '',
      segment_ref_ids: 's1',
    };
    expect(await kind(adapter.purchaseAncillaries(held.order_ref, [product]))).toBe('unsupported');
    const seat = (await adapter.seatMap(held.order_ref))[0]?.rows
      .flatMap((r) => r.seats)
      .find((x) => x.available && !x.seat_number.startsWith('7'));
    const seatReq = { segment_id: 's1', seat_number: seat?.seat_number as string, passenger_id: '1' };
    expect(await kind(adapter.requestSeats(held.order_ref, [seatReq]))).toBe('unsupported');
    // Nothing was added, so paying the held total tickets it; then services sell.
    expect((await adapter.issueTicket(held.order_ref, held.total)).issued).toBe(true);
    expect(await adapter.purchaseAncillaries(held.order_ref, [product])).toHaveLength(1);
    expect((await adapter.requestSeats(held.order_ref, [seatReq]))[0]?.accepted).toBe(true);
  });

  it('cancels a hold order (nothing paid, no fee)', async () => {
    const held = await order(await findOffer(fsc), { hold: true });
    const res = await adapter.cancelOrder(held.order_ref);
    expect(res).toMatchObject({ cancelled: true, fee: { amount_minor: 0 } });
    expect((await adapter.getOrder(held.order_ref)).status).toBe('cancelled');
  });

  it('operations Duffel lacks are unsupported (notes, FOID, commission, ticket status, servicing, SSR, removing services)', async () => {
    const ref = 'ord_x';
    expect(await kind(adapter.addNotes(ref, ['x']))).toBe('unsupported');
    expect(await kind(adapter.updateFoid(ref, { number: '1' }))).toBe('unsupported');
    expect(await kind(adapter.updateCommission(ref, { percentage: 1 }))).toBe('unsupported');
    expect(await kind(adapter.ticketStatus(ref))).toBe('unsupported');
    expect(await kind(adapter.listServicing(ref))).toBe('unsupported');
    expect(await kind(adapter.addSsr(ref, { code: 'WCHR', free_text: '' }))).toBe('unsupported');
    expect(await kind(adapter.cancelAncillary(ref, { tsm_reference: 'x', emd_number: null }))).toBe(
      'unsupported',
    );
    expect(adapter.capabilities).toMatchObject({
      upsell: false,
      holdOrders: true,
      seats: true,
      ancillaries: true,
      ticketStatus: false,
      servicing: false,
    });
  });

  it('unknown order: not_found', async () => {
    expect(await kind(adapter.getOrder('ord_0000missing'))).toBe('not_found');
  });
});

describe('Duffel flights: triggers', () => {
  it('PENDING: 500 after creating -> unknown_outcome; reconciliation finds the order', async () => {
    const offer = await findOffer(fsc);
    expect(await kind(order(offer, { last: 'PENDING', ref: 'bk-pending' }))).toBe('unknown_outcome');
    expect((await adapter.findOrderByClientReference('bk-pending'))?.status).toBe('ticketed');
  });

  it('TIMEOUT: the answer comes after the deadline -> unknown_outcome; the order exists', async () => {
    const offer = await findOffer(fsc);
    expect(
      await kind(
        make(100).createOrder({
          offer,
          passengers: pax('TIMEOUT'),
          contact: { email: 'a@b.c', phone: '+447700900123' },
          hold: false,
          client_reference: 'bk-timeout',
        }),
      ),
    ).toBe('unknown_outcome');
    expect(await adapter.findOrderByClientReference('bk-timeout')).not.toBeNull();
  });

  it('REJECT: rejected, nothing created', async () => {
    expect(await kind(order(await findOffer(fsc), { last: 'REJECT', ref: 'bk-reject' }))).toBe('rejected');
    expect(await adapter.findOrderByClientReference('bk-reject')).toBeNull();
  });

  it('PRICECHANGE: price_changed once; repriced offer books', async () => {
    const offer = await findOffer(fsc);
    expect(await kind(order(offer, { last: 'PRICECHANGE' }))).toBe('price_changed');
    const priced = await adapter.price(offer, {});
    expect(priced.price_changed).toBe(true);
    expect((await order(priced.offer, { last: 'PRICECHANGE' })).status).toBe('ticketed');
  });

  it('SOLDOUT: sold_out', async () => {
    expect(await kind(order(await findOffer(fsc), { last: 'SOLDOUT' }))).toBe('sold_out');
  });

  it('5xx before acting: unavailable on reads, unknown_outcome on creates; connection reset likewise', async () => {
    emu.state.injectFault({ method: 'POST', path: '/air/offer_requests', kind: 'http_503' });
    expect(await kind(adapter.search(query()))).toBe('unavailable');
    emu.state.injectFault({ method: 'POST', path: '/air/offer_requests', kind: 'reset' });
    expect(await kind(adapter.search(query()))).toBe('unavailable');
    const offer = await findOffer(fsc);
    emu.state.injectFault({ method: 'POST', path: '/air/orders', kind: 'http_502', when: 'after' });
    expect(await kind(order(offer, { ref: 'bk-502' }))).toBe('unknown_outcome');
    expect(await adapter.findOrderByClientReference('bk-502')).not.toBeNull();
  });

  it('bad token: auth_failed (and the token is not in the error)', async () => {
    const a = new DuffelFlightAdapter({ token: 'sk_secret_value', baseUrl: BASE });
    const err = await a.search(query()).catch((e: unknown) => e as SupplierError);
    expect((err as SupplierError).kind).toBe('auth_failed');
    expect(JSON.stringify({ m: (err as Error).message, d: (err as SupplierError).details })).not.toContain(
      'sk_secret_value',
    );
  });
});

describe('Duffel flights: after ticketing', () => {
  it('void inside the window (quote, then confirm)', async () => {
    const o = await order(await findOffer(fsc));
    const quote = await adapter.ticketAction(o.order_ref, 'void', false, undefined);
    expect(quote).toMatchObject({
      permitted: true,
      confirmed: false,
      refund: { amount_minor: o.total.amount_minor },
    });
    const done = await adapter.ticketAction(o.order_ref, 'void', true, undefined);
    expect(done).toMatchObject({ confirmed: true, coupon_status: 'VOID' });
    expect((await adapter.ticketDocuments(o.order_ref))[0]?.coupons[0]?.status).toBe('VOID');
  });

  it('void after the window: void_window_expired; non-refundable refund: non_refundable', async () => {
    const o = await order(await findOffer((x) => fsc(x) && !x.refundable));
    now = T0 + 25 * 3600_000;
    expect(await adapter.ticketAction(o.order_ref, 'void', true, undefined)).toMatchObject({
      permitted: false,
      determination: 'void_window_expired',
    });
    expect(await adapter.ticketAction(o.order_ref, 'refund', true, undefined)).toMatchObject({
      permitted: false,
      determination: 'non_refundable',
    });
  });

  it('refundable fare after the window: refund less the penalty', async () => {
    const o = await order(await findOffer((x) => fsc(x) && x.refundable));
    now = T0 + 25 * 3600_000;
    const res = await adapter.ticketAction(o.order_ref, 'refund', true, undefined);
    expect(res).toMatchObject({ confirmed: true, coupon_status: 'REFUNDED' });
    expect((res.refund?.amount_minor ?? 0) + (res.fee?.amount_minor ?? 0)).toBe(o.total.amount_minor);
  });

  it('reissue: quote, then confirm (order change); unchangeable fares are refused', async () => {
    const o = await order(await findOffer((x) => fsc(x) && x.changeable));
    const [before] = await adapter.ticketDocuments(o.order_ref);
    const quote = await adapter.ticketAction(o.order_ref, 'reissue', false, 'move to 2026-12-22');
    expect(quote).toMatchObject({ permitted: true, confirmed: false });
    expect(quote.servicing_request_id).toMatch(/^ocr_/);
    const done = await adapter.ticketAction(o.order_ref, 'reissue', true, 'move to 2026-12-22');
    expect(done).toMatchObject({ confirmed: true, coupon_status: 'EXCHANGED' });
    const moved = (await adapter.getOrder(o.order_ref)).raw as {
      slices: { segments: { departing_at: string }[] }[];
    };
    expect(moved.slices[0]?.segments[0]?.departing_at.startsWith('2026-12-22')).toBe(true);
    // An exchange issues new tickets.
    const [after] = await adapter.ticketDocuments(o.order_ref);
    expect(after?.ticket_number).toMatch(/^999\d{10}$/);
    expect(after?.ticket_number).not.toBe(before?.ticket_number);
    const fixed = await order(await findOffer((x) => fsc(x) && !x.changeable));
    expect(await adapter.ticketAction(fixed.order_ref, 'reissue', false, undefined)).toMatchObject({
      permitted: false,
      determination: 'not_changeable',
    });
  });

  it('seat map, a batch with a refused seat (row 7), issued seats', async () => {
    const o = await order(await findOffer(fsc));
    const [map] = await adapter.seatMap(o.order_ref);
    expect(map?.segment_id).toBe('s1');
    const free = map?.rows
      .flatMap((r) => r.seats)
      .filter((s) => s.available && !s.seat_number.startsWith('7'));
    const row7 = map?.rows.find((r) => r.row === 7)?.seats.find((s) => s.available);
    const res = await adapter.requestSeats(o.order_ref, [
      { segment_id: 's1', seat_number: free?.[0]?.seat_number as string, passenger_id: '1' },
      { segment_id: 's1', seat_number: row7?.seat_number as string, passenger_id: '1' },
    ]);
    expect(res.map((r) => r.status)).toEqual(['confirmed', 'refused']);
    const issued = await adapter.issueSeats(o.order_ref, true);
    expect(issued.priced.map((p) => p.seat_number)).toEqual([free?.[0]?.seat_number]);
    const after = await adapter.seatMap(o.order_ref);
    expect(
      after[0]?.rows.flatMap((r) => r.seats).find((s) => s.seat_number === free?.[0]?.seat_number)?.available,
    ).toBe(false);
  });

  it('ancillaries: catalogue, purchase, EMDs', async () => {
    const o = await order(await findOffer(fsc));
    const cat = await adapter.ancillaryCatalogue(o.order_ref, 'BG');
    expect(cat[0]).toMatchObject({ service_group: 'BG', segment_ids: ['s1'] });
    expect(await adapter.ancillaryCatalogue(o.order_ref, 'ML')).toEqual([]);
    const item = cat[0];
    const bought = await adapter.purchaseAncillaries(o.order_ref, [
      {
        customer_ref_ids: ['1'],
        code: item?.code as string,
        rfic: 'C',
        rfisc: '0CC',
        booking_method: '',
        provider: '',
        segment_ref_ids: 's1',
      },
    ]);
    expect(bought).toHaveLength(1);
    const emds = await adapter.issueEmds(
      o.order_ref,
      bought.map((b) => b.tsm_reference),
    );
    expect(emds[0]?.emd_number).toMatch(/^999\d{10}$/);
    expect((await adapter.getOrder(o.order_ref)).total.amount_minor).toBe(
      o.total.amount_minor + (item?.price.amount_minor ?? 0),
    );
  });

  it('ancillaries not enabled (W6): unsupported; no seat map', async () => {
    const w6 = await findOffer((x) => x.validating_carrier === 'W6', {}, 'LTN');
    const o = await order(w6);
    expect(await kind(adapter.ancillaryCatalogue(o.order_ref, 'BG'))).toBe('unsupported');
    expect(await adapter.seatMap(o.order_ref)).toEqual([]);
  });
});
