/**
 * Mystifly adapter against its OnePoint emulator (in-process via msw/node): every port operation the
 * adapter supports, every trigger in the emulator README, and the refusals of what it does not support.
 */
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mystiflyHandlers } from '../../../mock-server/src/suppliers/mystifly/index.ts';
import { MystiflyAdapter } from '../../src/suppliers/mystifly/index.ts';
import { SupplierError } from '../../src/suppliers/ports/errors.ts';
import type {
  FlightSearchQuery,
  FlightSupplier,
  PassengerInput,
  SupplierFlightOffer,
} from '../../src/suppliers/ports/flight.ts';
import { flightSupplierConformance } from './flight-conformance.ts';

const BASE = 'https://restapidemo.myfarebox.test';
let now = Date.parse('2026-06-01T08:00:00Z');
const emu = mystiflyHandlers({ baseUrl: BASE, clock: () => now, latencyMs: 0, seed: 7 });
const server = setupServer(...emu.handlers);
const creds = { userName: 'mystifly_user', password: 'mystifly_pass', accountNumber: 'MCN004085' };
const makeAdapter = (extra: Partial<ConstructorParameters<typeof MystiflyAdapter>[0]> = {}) =>
  new MystiflyAdapter({
    baseUrl: BASE,
    ...creds,
    fetch: (input, init) => globalThis.fetch(input, init),
    timeoutMs: 2_000,
    ...extra,
  });
const adapter: FlightSupplier = makeAdapter();

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => emu.state.faults.clear());
afterAll(() => server.close());

// OnePoint takes no SSRs; it sells no ancillaries, so removing one is refused as well.
flightSupplierConformance('mystifly', () => makeAdapter(), {
  query: { legs: [{ origin: 'DAC', destination: 'LHR', departureDate: '2026-12-20' }], currency: 'USD' },
  unsupported: ['addSsr', 'cancelAncillary'],
});

function query(destination = 'LHR', extra: Partial<FlightSearchQuery> = {}): FlightSearchQuery {
  return {
    legs: [{ origin: 'DAC', destination, departureDate: '2026-12-20' }],
    journeyType: 'OneWay',
    adults: 1,
    children: 0,
    infants: 0,
    childAges: [],
    cabinClass: 'Economy',
    currency: 'USD',
    maxResults: 50,
    ...extra,
  };
}

function pax(lastName: string): PassengerInput[] {
  return [
    {
      passenger_id: '1',
      type: 'ADT',
      first_name: 'Ayesha',
      last_name: lastName,
      gender: 'F',
      date_of_birth: '1990-04-02',
      nationality: 'BD',
      document: { type: 'passport', number: 'A1234567', expiry: '2031-01-01', issuing_country: 'BD' },
    },
  ];
}

async function offer(pred: (o: SupplierFlightOffer) => boolean = () => true, destination = 'LHR') {
  const offers = await adapter.search(query(destination));
  const found = offers.find((o) => pred(o) && !o.lcc) ?? offers.find(pred);
  if (!found) throw new Error('no matching offer');
  return found;
}

let refSeq = 0;
async function book(lastName = 'RAHMAN', pred?: (o: SupplierFlightOffer) => boolean) {
  const o = await offer(pred);
  const client_reference = `bk_test_${++refSeq}`;
  const order = await adapter.createOrder({
    offer: o,
    passengers: pax(lastName),
    contact: { email: 'a@example.com', phone: '+8801700000000' },
    hold: true,
    client_reference,
  });
  return { order, client_reference, offer: o };
}

async function ticketed(lastName = 'RAHMAN', pred?: (o: SupplierFlightOffer) => boolean) {
  const b = await book(lastName, pred);
  await adapter.issueTicket(b.order.order_ref, b.order.total);
  while (!(await adapter.ticketStatus(b.order.order_ref)).issued) {
    /* poll: the emulator issues after two TripDetails reads */
  }
  return b;
}

async function kind(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'resolved';
  } catch (e) {
    if (e instanceof SupplierError) return e.kind;
    throw e;
  }
}

describe('mystifly: shopping', () => {
  it('declares its capabilities', () => {
    expect(adapter.capabilities).toEqual({
      upsell: false,
      asyncTicketing: true,
      ticketStatus: true,
      servicing: true,
      notes: true,
      holdOrders: true,
      seats: false,
      ancillaries: false,
      foid: false,
      commission: false,
    });
  });

  it('searches: deterministic offers with a FareSourceCode, varied carriers, integer money', async () => {
    const a = await adapter.search(query());
    const b = await adapter.search(query());
    expect(a.length).toBeGreaterThan(4);
    expect(new Set(a.map((o) => o.validating_carrier)).size).toBeGreaterThan(1);
    expect(a.map((o) => o.price)).toEqual(b.map((o) => o.price));
    for (const o of a) {
      expect(o.supplier).toBe('mystifly');
      expect(typeof (o.supplier_ref as { fare_source_code: string }).fare_source_code).toBe('string');
      expect(o.price.total_minor).toBe(o.price.base_minor + o.price.taxes_minor);
      expect(Number.isInteger(o.price.total_minor)).toBe(true);
      expect(o.slices[0]?.segments[0]?.segment_id).toBe('s1');
      expect(o.slices[0]?.origin).toBe('DAC');
      expect(o.slices[0]?.destination).toBe('LHR');
    }
    expect(a.some((o) => o.refundable) && a.some((o) => !o.refundable)).toBe(true);
  });

  it('searches return journeys, children and infants, and honours refundableOnly and maxResults', async () => {
    const offers = await adapter.search(
      query('DXB', {
        journeyType: 'Return',
        legs: [
          { origin: 'DAC', destination: 'DXB', departureDate: '2026-12-20' },
          { origin: 'DXB', destination: 'DAC', departureDate: '2026-12-28' },
        ],
        adults: 2,
        children: 1,
        infants: 1,
        childAges: [7],
        refundableOnly: true,
        maxResults: 3,
      }),
    );
    expect(offers.length).toBeLessThanOrEqual(3);
    for (const o of offers) {
      expect(o.slices).toHaveLength(2);
      expect(o.refundable).toBe(true);
      expect(o.passengers).toEqual({ adults: 2, children: 1, infants: 1 });
    }
  });

  it('prices by Revalidate with the same price, fare rules on request', async () => {
    const o = await offer();
    const priced = await adapter.price(o, { fareRules: true, bags: true });
    expect(priced.price_changed).toBe(false);
    expect(priced.previous_total_minor).toBe(o.price.total_minor);
    expect(priced.fare_rules?.map((r) => r.category)).toContain('PENALTIES');
    expect(priced.bag_options).toEqual([]);
    expect((await adapter.fareRules(o)).length).toBeGreaterThan(0);
    expect((await adapter.repriceWithBags(o, [])).price_changed).toBe(false);
  });

  it('trigger XPC: price change at Revalidate, with a new FareSourceCode that then holds', async () => {
    const o = await offer(() => true, 'XPC');
    const priced = await adapter.price(o, {});
    expect(priced.price_changed).toBe(true);
    expect(priced.offer.price.total_minor).toBeGreaterThan(o.price.total_minor);
    expect((await adapter.price(priced.offer, {})).price_changed).toBe(false);
  });

  it('trigger XSO: sold out at Revalidate and Book', async () => {
    const o = await offer(() => true, 'XSO');
    expect(await kind(adapter.price(o, {}))).toBe('sold_out');
    const booking = adapter.createOrder({
      offer: o,
      passengers: pax('RAHMAN'),
      contact: { email: 'a@example.com', phone: '+8801700000000' },
      hold: true,
      client_reference: 'bk_soldout',
    });
    expect(await kind(booking)).toBe('sold_out');
  });

  it('an expired FareSourceCode (clock + 31 min) is offer_expired', async () => {
    const o = await offer();
    now += 31 * 60_000;
    expect(await kind(adapter.price(o, {}))).toBe('offer_expired');
  });

  it('no flights is an empty list', async () => {
    expect(await adapter.search(query('LHR', { airline: 'ZZ' }))).toEqual([]);
  });
});

describe('mystifly: session', () => {
  it('renews an expired session transparently (clock + 21 min)', async () => {
    await adapter.search(query());
    const sessions = emu.state.sessions.size;
    now += 21 * 60_000;
    expect((await adapter.search(query())).length).toBeGreaterThan(0);
    expect(emu.state.sessions.size).toBe(sessions + 1);
  });

  it('bad credentials are auth_failed', async () => {
    expect(await kind(makeAdapter({ password: 'wrong' }).search(query()))).toBe('auth_failed');
  });
});

describe('mystifly: orders', () => {
  it('books (placed "1", on hold with a ticketing deadline), reads back, finds by client reference', async () => {
    const { order, client_reference, offer: o } = await book();
    expect(order.status).toBe('on_hold');
    expect(order.order_ref).toMatch(/^MF\d+$/);
    expect(order.pnr).toMatch(/^[A-Z0-9]{6}$/);
    expect(order.ticketing_deadline).toBeTruthy();
    expect(order.total).toEqual({ currency: o.price.currency, amount_minor: o.price.total_minor });
    expect((await adapter.getOrder(order.order_ref)).status).toBe('on_hold');
    expect((await adapter.findOrderByClientReference(client_reference))?.order_ref).toBe(order.order_ref);
    expect(await adapter.findOrderByClientReference('bk_never')).toBeNull();
    expect(await kind(adapter.getOrder('MF00000000'))).toBe('not_found');
  });

  it('REJECT: rejected, nothing created', async () => {
    expect(await kind(book('REJECT'))).toBe('rejected');
  });

  it('PENDING: 5xx after creating is unknown_outcome; reconciliation finds the booking', async () => {
    const o = await offer();
    const input = {
      offer: o,
      passengers: pax('PENDING'),
      contact: { email: 'a@example.com', phone: '+8801700000000' },
      hold: true,
      client_reference: 'bk_pending',
    };
    expect(await kind(adapter.createOrder(input))).toBe('unknown_outcome');
    const found = await adapter.findOrderByClientReference('bk_pending');
    expect(found?.status).toBe('on_hold');
  });

  it('TIMEOUT: the create call times out after creating: unknown_outcome, found later', async () => {
    const o = await offer();
    const quick = makeAdapter({ timeoutMs: 150 });
    const input = {
      offer: o,
      passengers: pax('TIMEOUT'),
      contact: { email: 'a@example.com', phone: '+8801700000000' },
      hold: true,
      client_reference: 'bk_timeout',
    };
    expect(await kind(quick.createOrder(input))).toBe('unknown_outcome');
    expect(await adapter.findOrderByClientReference('bk_timeout')).not.toBeNull();
  });

  it('SERVERERROR and RESET on Book: unknown_outcome (the adapter cannot tell), nothing created', async () => {
    for (const name of ['SERVERERROR', 'RESET']) {
      const o = await offer();
      const ref = `bk_${name}`;
      const input = {
        offer: o,
        passengers: pax(name),
        contact: { email: 'a@example.com', phone: '+8801700000000' },
        hold: true,
        client_reference: ref,
      };
      expect(await kind(adapter.createOrder(input))).toBe('unknown_outcome');
      expect(await adapter.findOrderByClientReference(ref)).toBeNull();
    }
  });

  it('5xx and connection reset knobs on reads: unavailable', async () => {
    emu.state.faults.fail(503, { path: /Search\/Flight/ });
    expect(await kind(adapter.search(query()))).toBe('unavailable');
    emu.state.faults.reset({ path: /Search\/Flight/ });
    expect(await kind(adapter.search(query()))).toBe('unavailable');
    expect((await adapter.search(query())).length).toBeGreaterThan(0);
  });

  it('cancels a placed booking (twice is fine); a ticketed one is refused', async () => {
    const { order } = await book();
    expect(await adapter.cancelOrder(order.order_ref)).toEqual({ cancelled: true });
    expect(await adapter.cancelOrder(order.order_ref)).toEqual({ cancelled: true });
    expect((await adapter.getOrder(order.order_ref)).status).toBe('cancelled');
    const t = await ticketed();
    expect(await kind(adapter.cancelOrder(t.order.order_ref))).toBe('invalid_request');
  });

  it('adds booking notes; on a cancelled booking it answers success false with a reason', async () => {
    const { order } = await book();
    expect(await adapter.addNotes(order.order_ref, ['Window seat please'])).toEqual({ success: true });
    expect(emu.state.bookings.get(order.order_ref)?.notes.map((n) => n.text)).toEqual(['Window seat please']);
    await adapter.cancelOrder(order.order_ref);
    const res = await adapter.addNotes(order.order_ref, ['late note']);
    expect(res.success).toBe(false);
    expect(res.reason).toMatch(/cancelled/);
    expect(await kind(adapter.addNotes('MF00000000', ['x']))).toBe('not_found');
  });
});

describe('mystifly: asynchronous ticketing', () => {
  it('OrderTicket is TktInProcess ("3"), TripDetails polls move it to Ticketed ("6")', async () => {
    const { order } = await book();
    const issued = await adapter.issueTicket(order.order_ref, order.total);
    expect(issued).toEqual({ issued: false, raw_status: '3', tickets: [] });
    const first = await adapter.ticketStatus(order.order_ref);
    expect(first).toEqual({ issued: false, raw_status: '3', raw_status_text: 'TktInProcess' });
    const second = await adapter.ticketStatus(order.order_ref);
    expect(second).toEqual({ issued: true, raw_status: '6', raw_status_text: 'Ticketed' });
    const docs = await adapter.ticketDocuments(order.order_ref);
    expect(docs).toHaveLength(1);
    expect(docs[0]?.passenger_name).toBe('RAHMAN/AYESHA MS');
    expect(docs[0]?.ticket_number).toMatch(/^\d{13}$/);
    expect(docs[0]?.coupons.every((c) => c.status === 'OPEN')).toBe(true);
    expect(docs[0]?.issuing_iata_number).not.toBe('');
    expect((await adapter.getOrder(order.order_ref)).status).toBe('ticketed');
    // A retried issue reports where ticketing stands.
    expect((await adapter.issueTicket(order.order_ref, order.total)).issued).toBe(true);
  });

  it('a clock advance past the ticketing delay issues without polls', async () => {
    const { order } = await book();
    await adapter.issueTicket(order.order_ref, order.total);
    now += 2 * 60_000;
    expect((await adapter.ticketStatus(order.order_ref)).raw_status).toBe('6');
  });

  it('ticketingPolls 0 issues at once; LCC content has empty IATA fields', async () => {
    const instant = mystiflyHandlers({
      baseUrl: 'https://instant.myfarebox.test',
      latencyMs: 0,
      ticketingPolls: 0,
    });
    server.use(...instant.handlers);
    const a = makeAdapter({ baseUrl: 'https://instant.myfarebox.test' });
    const offers = await a.search(query('DXB'));
    const lcc = offers.find((o) => o.lcc);
    expect(lcc).toBeDefined();
    const order = await a.createOrder({
      offer: lcc as SupplierFlightOffer,
      passengers: pax('KHAN'),
      contact: { email: 'a@example.com', phone: '+8801700000000' },
      hold: false,
      client_reference: 'bk_lcc',
    });
    const issued = await a.issueTicket(order.order_ref, order.total);
    expect(issued.issued).toBe(true);
    expect(issued.tickets[0]?.issuing_iata_number).toBe('');
    expect(issued.tickets[0]?.fare_calculation).toBe('');
  });
});

describe('mystifly: post-ticketing requests', () => {
  it('servicing list is empty ("No records found.") before any request', async () => {
    const { order } = await book();
    expect(await adapter.listServicing(order.order_ref)).toEqual([]);
  });

  it('void: quote changes nothing; confirm raises a request worked Requested -> InProcess -> Completed', async () => {
    const { order } = await ticketed('RAHMAN', (o) => o.refundable);
    const quote = await adapter.ticketAction(order.order_ref, 'void', false, undefined);
    expect(quote).toMatchObject({ action: 'void', confirmed: false, permitted: true, determination: 'ok' });
    expect(quote.refund?.amount_minor).toBeGreaterThan(0);
    expect((await adapter.ticketStatus(order.order_ref)).raw_status).toBe('6');
    const done = await adapter.ticketAction(order.order_ref, 'void', true, 'customer changed plans');
    expect(done).toMatchObject({ confirmed: true, permitted: true, determination: 'request_raised' });
    const states: string[] = [];
    for (let i = 0; i < 3; i++) {
      const list = await adapter.listServicing(order.order_ref);
      states.push(list.find((r) => r.request_id === done.servicing_request_id)?.state ?? '');
    }
    expect(states).toEqual(['InProcess', 'Completed', 'Completed']);
    expect((await adapter.ticketStatus(order.order_ref)).raw_status).toBe('7');
    const docs = await adapter.ticketDocuments(order.order_ref);
    expect(docs[0]?.coupons.every((c) => c.status === 'VOID')).toBe(true);
    expect((await adapter.getOrder(order.order_ref)).status).toBe('cancelled');
  });

  it('void window expired (clock + 25 h) is a determination, not an error', async () => {
    const { order } = await ticketed();
    now += 25 * 3_600_000;
    const res = await adapter.ticketAction(order.order_ref, 'void', true, undefined);
    expect(res).toMatchObject({ confirmed: false, permitted: false, determination: 'void_window_expired' });
  });

  it('refund of a non-refundable fare: determination non_refundable', async () => {
    const { order } = await ticketed('RAHMAN', (o) => !o.refundable);
    const res = await adapter.ticketAction(order.order_ref, 'refund', false, undefined);
    expect(res).toMatchObject({ permitted: false, determination: 'non_refundable' });
  });

  it('refund of a refundable fare: quote then request, the clock moves it to Completed', async () => {
    const { order } = await ticketed('RAHMAN', (o) => o.refundable);
    const res = await adapter.ticketAction(order.order_ref, 'refund', true, undefined);
    expect(res.determination).toBe('request_raised');
    expect(res.fee?.amount_minor).toBeGreaterThan(0);
    now += 31 * 60_000;
    const list = await adapter.listServicing(order.order_ref);
    expect(list.map((r) => [r.type, r.state])).toEqual([
      ['refund', 'Completed'],
      ['refund', 'Completed'],
    ]);
    expect((await adapter.ticketStatus(order.order_ref)).raw_status).toBe('8');
  });

  it('PTRREJECT and REQUOTE: the request ends Rejected or QuoteChanged', async () => {
    for (const [name, end] of [
      ['PTRREJECT', 'Rejected'],
      ['REQUOTE', 'QuoteChanged'],
    ] as const) {
      const { order } = await ticketed(name, (o) => o.refundable);
      const res = await adapter.ticketAction(order.order_ref, 'refund', true, undefined);
      await adapter.listServicing(order.order_ref);
      const list = await adapter.listServicing(order.order_ref);
      expect(list.find((r) => r.request_id === res.servicing_request_id)?.state).toBe(end);
      expect((await adapter.ticketStatus(order.order_ref)).raw_status).toBe('6');
    }
  });

  it('an unused quote expires to Deleted after 24 h', async () => {
    const { order } = await ticketed('RAHMAN', (o) => o.refundable);
    await adapter.ticketAction(order.order_ref, 'refund', false, undefined);
    now += 25 * 3_600_000;
    expect((await adapter.listServicing(order.order_ref))[0]?.state).toBe('Deleted');
  });

  it('reissue is quote-only: a quote prices the change, confirm is refused', async () => {
    const { order } = await ticketed('RAHMAN', (o) => o.changeable);
    const quote = await adapter.ticketAction(order.order_ref, 'reissue', false, undefined);
    expect(quote).toMatchObject({ permitted: true, confirmed: false, determination: 'ok' });
    expect(quote.fee?.amount_minor).toBeGreaterThan(0);
    const refused = await adapter.ticketAction(order.order_ref, 'reissue', true, undefined);
    expect(refused).toMatchObject({ confirmed: false, permitted: false, determination: 'quote_only' });
  });

  it('a ticket action before ticketing: determination not_ticketed', async () => {
    const { order } = await book();
    expect((await adapter.ticketAction(order.order_ref, 'void', false, undefined)).determination).toBe(
      'not_ticketed',
    );
  });
});

describe('mystifly: unsupported operations', () => {
  it('throws SupplierError unsupported', async () => {
    const o = await offer();
    const calls: Promise<unknown>[] = [
      adapter.upsell(o),
      adapter.repriceWithBags(o, [{ quantity: 1 }]),
      adapter.updateFoid('MF1', { number: 'X' }),
      adapter.updateCommission('MF1', { percentage: 1 }),
      adapter.seatMap('MF1'),
      adapter.requestSeats('MF1', []),
      adapter.issueSeats('MF1', true),
      adapter.addSsr('MF1', { code: 'WCHR', free_text: '' }),
      adapter.ancillaryCatalogue('MF1', ''),
      adapter.purchaseAncillaries('MF1', []),
      adapter.issueEmds('MF1', []),
      adapter.cancelAncillary('MF1', { tsm_reference: 'T', emd_number: null }),
    ];
    for (const c of calls) expect(await kind(c)).toBe('unsupported');
  });
});
