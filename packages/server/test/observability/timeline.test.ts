/**
 * Issue 32, a booking's story and per-supplier metrics, through the whole server (`createRuntime`, the
 * sandbox emulators over real HTTP): after a search `/metrics` counts and times each supplier's calls;
 * a ticketed-then-voided booking's timeline lists every supplier and payment provider call in the
 * order they were made, with the state changes and money movements, and nothing secret (card token,
 * provider keys, passport number, contact details) anywhere in it. The company sees its own booking's
 * timeline; a customer and another company do not.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { futureDate, type Journeys, journeys, key } from '../journeys/world.ts';

let w: Journeys;
let agency: { id: number; code: string };
let agent: { id: string; token: string };
let admin: { id: string; token: string };

type Json = Record<string, any>;

beforeAll(async () => {
  w = await journeys();
  agency = await w.company();
  agent = await w.user('company_staff', agency.id);
  admin = await w.user('super_admin', null);
}, 60_000);
afterAll(async () => {
  await w?.close();
  expect(w?.violations ?? []).toEqual([]);
});

const PASSPORT = 'P99887766';
const passenger = {
  type: 'ADT',
  first_name: 'Ayesha',
  last_name: 'Rahman',
  date_of_birth: '1990-04-02',
  gender: 'F',
  nationality: 'GB',
  document: { type: 'passport', number: PASSPORT, expiry: '2033-01-01', issuing_country: 'GB' },
};
const contact = { email: 'ayesha.secret@example.test', phone: '+447700900123' };

async function amadeusOffer(): Promise<Json> {
  const r = await w.req('POST', '/api/v1/flight/getFare', {
    token: agent.token,
    body: {
      companyCode: agency.code,
      userCode: agent.id,
      sources: ['amadeus'],
      searchAirLegs: [{ origin: 'LHR', destination: 'DXB', departureDate: futureDate(50) }],
    },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(202);
  const b = await w.req('GET', `/api/v1/flight/getFare/batch/${r.body.searchId}?timeout=30`, {
    token: agent.token,
  });
  expect(b.status).toBe(200);
  const hit = (b.body.results_by_gds.amadeus as Json[]).find((o) => !o.lcc);
  if (!hit) throw new Error('no bookable amadeus offer');
  return hit;
}

/** `name{labels} value` lines of one metric whose labels include every given pair. */
function series(text: string, name: string, labels: Record<string, string>): number[] {
  return text
    .split('\n')
    .filter((l) => l.startsWith(`${name}{`))
    .filter((l) => Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)))
    .map((l) => Number(l.slice(l.lastIndexOf(' ') + 1)));
}

describe('per-supplier metrics', () => {
  it('after a search, /metrics shows each searched supplier’s call count and latency', async () => {
    await amadeusOffer();
    const m = await w.req('GET', '/metrics');
    expect(m.status).toBe(200);
    const text = String(m.body);
    const ok = { supplier: 'amadeus', operation: 'search', outcome: 'ok' };
    expect(series(text, 'travel_supplier_calls_total', ok)[0]).toBeGreaterThanOrEqual(1);
    const count = series(text, 'travel_supplier_call_duration_seconds_count', {
      supplier: 'amadeus',
      operation: 'search',
    });
    expect(count[0]).toBeGreaterThanOrEqual(1);
    const sum = series(text, 'travel_supplier_call_duration_seconds_sum', {
      supplier: 'amadeus',
      operation: 'search',
    });
    expect(sum[0]).toBeGreaterThan(0);
    // Only the supplier asked for was called.
    expect(series(text, 'travel_supplier_calls_total', { supplier: 'duffel', operation: 'search' })).toEqual(
      [],
    );
    expect(text).toContain('# TYPE travel_supplier_breaker_transitions_total counter');
  });
});

describe('the timeline of a ticketed-then-voided booking', () => {
  let id: number;
  let pnr: string;

  beforeAll(async () => {
    const offer = await amadeusOffer();
    const as = (method: string, path: string, o: { key?: string; body?: unknown } = {}) =>
      w.req(method, path, { token: agent.token, ...o });
    const created = await as('POST', '/api/v1/bookings/createPnr', {
      key: key(),
      body: { offer_id: offer.offer_id, currency: offer.price.currency, passengers: [passenger], contact },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    id = created.body.booking_id;
    pnr = created.body.pnr;
    const pricing = created.body.pricing;
    const auth = await as('POST', `/api/v1/bookings/${id}/authorize`, {
      key: key(),
      body: { token: 'tok_sandbox_ok', currency: pricing.currency, amount_minor: pricing.total_minor },
    });
    expect(auth.status, JSON.stringify(auth.body)).toBe(200);
    const t = await as('POST', `/api/v1/bookings/${id}/ticket`, { key: key(), body: {} });
    expect(t.status, JSON.stringify(t.body)).toBe(200);
    const q = await as('POST', `/api/v1/bookings/${id}/ticket/void`);
    expect(q.status, JSON.stringify(q.body)).toBe(200);
    const c = await as('POST', `/api/v1/bookings/${id}/ticket/void?confirm=true`);
    expect(c.status, JSON.stringify(c.body)).toBe(200);
    expect(c.body.confirmed).toBe(true);
  }, 60_000);

  it('lists every supplier and payment call in order, with the state changes and the money', async () => {
    const r = await w.req('GET', `/api/v1/admin/bookings/${id}/timeline`, { token: admin.token });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const t = r.body as Json;
    if (process.env.DUMP_TIMELINE) console.log(JSON.stringify(t, null, 1));
    expect([t.booking_id, t.pnr, t.truncated]).toEqual([id, pnr, false]);
    const entries = t.entries as Json[];
    const times = entries.map((e) => Date.parse(e.at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    const calls = entries.filter((e) => e.kind === 'supplier_call').map((e) => e.supplier_call as Json);
    const ops = calls.map((c) => `${c.supplier}.${c.operation}`);
    // The order was placed, the card held, captured with the ticketing, the ticket voided at the
    // airline and the money given back to the card: each call in the order it was made.
    const expected = [
      'amadeus.createOrder',
      'stripe.authorize',
      'stripe.capture',
      'amadeus.issueTicket',
      'amadeus.ticketAction',
      'amadeus.ticketAction',
      'stripe.refund',
    ];
    let at = -1;
    for (const op of expected) {
      const next = ops.indexOf(op, at + 1);
      expect(next, `${op} after position ${at} in ${ops.join(', ')}`).toBeGreaterThan(at);
      at = next;
    }
    for (const c of calls) {
      expect(c.outcome).toBe('ok');
      expect(c.attempts).toBeGreaterThanOrEqual(1);
      expect(c.duration_ms).toBeGreaterThanOrEqual(0);
      expect(c.request_id).toEqual(expect.any(String));
      expect(c.http_status).toBeGreaterThanOrEqual(200);
      expect(c.http_status).toBeLessThan(300);
      expect((c.request_excerpt ?? '').length).toBeLessThanOrEqual(1500);
    }
    // The order's excerpt shows the booking, not its secrets.
    const order = calls.find((c) => c.operation === 'createOrder') as Json;
    expect(order.request_excerpt).toContain('Rahman');
    const money = entries.filter((e) => e.kind === 'money').map((e) => `${e.money.type}:${e.money.status}`);
    expect(money).toEqual(
      expect.arrayContaining(['authorization:succeeded', 'capture:succeeded', 'refund:succeeded']),
    );
    const events = entries.filter((e) => e.kind === 'state').map((e) => e.state.event);
    expect(events).toEqual(expect.arrayContaining(['booking.created', 'booking.ticketed']));
    // Nothing secret, anywhere: the card token, the provider and supplier credentials, the passport
    // number, the contact details.
    const text = JSON.stringify(t);
    for (const secret of [
      'tok_sandbox_ok',
      PASSPORT,
      contact.email,
      contact.phone,
      'sk_test',
      'Bearer',
      'client_secret',
      'duffel_test',
    ])
      expect(text, secret).not.toContain(secret);
  });

  it('the company’s staff read their own booking’s timeline; a customer or another company cannot', async () => {
    const mine = await w.req('GET', `/api/v1/company/bookings/${id}/timeline`, { token: agent.token });
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
    expect(mine.body.entries.length).toBeGreaterThan(5);
    const other = await w.user('company_admin', (await w.company()).id);
    expect(
      (await w.req('GET', `/api/v1/company/bookings/${id}/timeline`, { token: other.token })).status,
    ).toBe(404);
    const customer = await w.user('customer', null);
    expect(
      (await w.req('GET', `/api/v1/company/bookings/${id}/timeline`, { token: customer.token })).status,
    ).toBe(403);
    expect((await w.req('GET', `/api/v1/admin/bookings/${id}/timeline`, { token: agent.token })).status).toBe(
      403,
    );
  });
});
