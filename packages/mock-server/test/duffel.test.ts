/** The Duffel emulator at the wire: headers, envelopes, error bodies, pagination, standalone HTTP. */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServers } from '../src/index.ts';
import { duffelHandlers } from '../src/suppliers/duffel/index.ts';

const BASE = 'https://api.duffel.test';
const emu = duffelHandlers({ baseUrl: BASE, latencyMs: 0, seed: 2 });
const server = setupServer(...emu.handlers);
// Bypass: the standalone test below talks to a real port.
beforeAll(() => server.listen({ onUnhandledFrame: 'bypass' }));
afterAll(() => server.close());

// biome-ignore lint/suspicious/noExplicitAny: wire bodies are free-form JSON
type Body = Record<string, any>;
const json = async (r: Response | Promise<Response>): Promise<Body> => (await (await r).json()) as Body;

const headers = {
  Authorization: 'Bearer duffel_test_abc',
  'Duffel-Version': 'v2',
  'Content-Type': 'application/json',
};
const post = (path: string, data: unknown, h: Record<string, string> = headers, base = BASE) =>
  fetch(`${base}${path}`, { method: 'POST', headers: h, body: JSON.stringify({ data }) });
const get = (path: string, base = BASE) => fetch(`${base}${path}`, { headers });
const search = {
  slices: [{ origin: 'LHR', destination: 'CDG', departure_date: '2026-12-20' }],
  passengers: [{ type: 'adult' }],
  cabin_class: 'economy',
};

describe('Duffel emulator protocol', () => {
  it('requires a bearer token and Duffel-Version v2, answering in Duffel error format', async () => {
    const noAuth = await post('/air/offer_requests', search, { 'Duffel-Version': 'v2' });
    expect(noAuth.status).toBe(401);
    const body = await json(noAuth);
    expect(body.errors[0]).toMatchObject({
      type: 'authentication_error',
      code: 'missing_authorization_header',
      documentation_url: expect.any(String),
      title: expect.any(String),
      message: expect.any(String),
    });
    expect(body.meta).toMatchObject({ status: 401, request_id: expect.any(String) });
    const noVersion = await post('/air/offer_requests', search, { Authorization: 'Bearer duffel_test_abc' });
    expect(noVersion.status).toBe(400);
    expect((await json(noVersion)).errors[0].code).toBe('missing_version');
    const v1 = await post('/air/offer_requests', search, { ...headers, 'Duffel-Version': 'v1' });
    expect((await json(v1)).errors[0].code).toBe('unsupported_version');
  });

  it('validates required fields with a source pointer', async () => {
    const res = await post('/air/offer_requests', { passengers: [{ type: 'adult' }] });
    expect(res.status).toBe(422);
    expect((await json(res)).errors[0]).toMatchObject({
      type: 'validation_error',
      source: { field: 'slices' },
    });
  });

  it('offer requests answer 201 {data}; offers paginate with meta.after/before/limit', async () => {
    const res = await post('/air/offer_requests', search);
    expect(res.status).toBe(201);
    const { data } = await json(res);
    expect(data.id).toMatch(/^orq_0000/);
    expect(data.offers.length).toBeGreaterThan(2);
    const page1 = await json(get(`/air/offers?offer_request_id=${data.id}&limit=2&sort=total_amount`));
    expect(page1.data).toHaveLength(2);
    expect(page1.meta).toMatchObject({ limit: 2, before: null, after: expect.any(String) });
    const page2 = await json(
      get(`/air/offers?offer_request_id=${data.id}&limit=2&sort=total_amount&after=${page1.meta.after}`),
    );
    expect(page2.data[0].id).not.toBe(page1.data[0].id);
    expect(page2.meta.before).toEqual(expect.any(String));
    const one = await json(get(`/air/offers/${data.offers[0].id}?return_available_services=true`));
    expect(one.data.available_services[0]).toMatchObject({ type: 'baggage', total_currency: 'GBP' });
  });

  it('unknown resource is 404 not_found', async () => {
    const res = await get('/air/orders/ord_nope');
    expect(res.status).toBe(404);
    expect((await json(res)).errors[0].code).toBe('not_found');
  });

  it('stays: search (no rooms until fetch_all_rates), quote, book', async () => {
    const s = await post('/stays/search', {
      location: { radius: 5, geographic_coordinates: { latitude: 51.5, longitude: -0.12 } },
      check_in_date: '2026-12-20',
      check_out_date: '2026-12-21',
      rooms: 1,
      guests: [{ type: 'adult' }],
    });
    const results = (await json(s)).data.results;
    expect(results[0].accommodation.rooms).toEqual([]);
    const all = (await json(post(`/stays/search_results/${results[0].id}/actions/fetch_all_rates`, {}))).data;
    const rate = all.accommodation.rooms[0].rates[0];
    const quote = (await json(post('/stays/quotes', { rate_id: rate.id }))).data;
    expect(quote.total_amount).toBe(rate.total_amount);
    const booking = await post('/stays/bookings', {
      quote_id: quote.id,
      guests: [{ given_name: 'A', family_name: 'B' }],
      email: 'a@b.c',
      phone_number: '+447700900123',
    });
    expect(booking.status).toBe(201);
    expect((await json(booking)).data.status).toBe('confirmed');
  });

  it('hold orders take no services, at creation or after; once paid they do, and tickets keep their numbers', async () => {
    const req = (await json(post('/air/offer_requests', search))).data;
    const offer = req.offers.find((o: Body) => !o.payment_requirements.requires_instant_payment);
    const full = (await json(get(`/air/offers/${offer.id}?return_available_services=true`))).data;
    const bag = full.available_services.find((x: Body) => x.type === 'baggage');
    const passengers = offer.passengers.map((p: Body) => ({
      id: p.id,
      title: 'ms',
      gender: 'f',
      given_name: 'Ada',
      family_name: 'Lovelace',
      born_on: '1985-12-10',
      email: 'ada@example.com',
      phone_number: '+447700900123',
    }));
    const withServices = await post('/air/orders', {
      type: 'hold',
      selected_offers: [offer.id],
      passengers,
      services: [{ id: bag.id, quantity: 1 }],
    });
    expect(withServices.status).toBe(422);
    expect((await json(withServices)).errors[0]).toMatchObject({
      type: 'validation_error',
      source: { field: 'services' },
    });
    const held = (await json(post('/air/orders', { type: 'hold', selected_offers: [offer.id], passengers })))
      .data;
    expect(held.payment_status.awaiting_payment).toBe(true);
    const addBag = {
      add_services: [{ id: bag.id, quantity: 1 }],
      payment: { type: 'balance', amount: bag.total_amount, currency: bag.total_currency },
    };
    const early = await post(`/air/orders/${held.id}/services`, addBag);
    expect(early.status).toBe(422);
    expect((await json(early)).errors[0]).toMatchObject({
      type: 'invalid_state_error',
      code: 'order_awaiting_payment',
    });
    // The refused service left the amount due alone.
    const pay = { type: 'balance', amount: held.total_amount, currency: held.total_currency };
    expect((await post('/air/payments', { order_id: held.id, payment: pay })).status).toBe(201);
    const paid = (await json(get(`/air/orders/${held.id}`))).data;
    const ticket = paid.documents.find((d: Body) => d.type === 'electronic_ticket');
    const after = (await json(post(`/air/orders/${held.id}/services`, addBag))).data;
    const emd = after.documents.find((d: Body) => d.type === 'electronic_miscellaneous_document_associated');
    expect(emd.service_id).toBe(after.services[0].id);
    expect(after.documents.filter((d: Body) => d.type === 'electronic_ticket')).toEqual([ticket]);
  });

  it('serves over real HTTP (standalone) and works with a path-less base URL', async () => {
    const servers = await startMockServers({ suppliers: ['duffel'], options: { latencyMs: 0 } });
    try {
      const url = servers.urls.duffel as string;
      const res = await post('/air/offer_requests/', search, headers, url);
      expect(res.status).toBe(201);
      expect((await json(res)).data.offers.length).toBeGreaterThan(0);
    } finally {
      await servers.close();
    }
  });
});
