/** The README's snippets, run against MSW (keep the two in step). */
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { createTravelClient, PaymentDeclinedError, TravelApiError } from '../src/index.ts';
import { apiError, BASE, frame, sseResponse, testClient, useMsw } from './helpers.ts';

const server = useMsw();
const log: unknown[] = [];
const console = { log: (...args: unknown[]) => log.push(args) };

describe('README', () => {
  it('quick start', async () => {
    server.use(
      http.post(`${BASE}/api/v1/auth/login`, () => HttpResponse.json({ access_token: 'jwt-1' })),
      http.get(`${BASE}/api/v1/bookings/:id`, ({ request }) =>
        request.headers.get('authorization') === 'Bearer jwt-1'
          ? HttpResponse.json({ booking_id: 1042, pnr: 'X7KQ2M', status: 'confirmed' })
          : apiError(401, 'not_authenticated'),
      ),
    );
    const travel = createTravelClient({ baseUrl: BASE });
    await travel.auth.login({ email: 'admin@example.com', password: 'secret' });
    const booking = await travel.bookings.get('X7KQ2M');
    expect(booking.status).toBe('confirmed');
  });

  it('streaming', async () => {
    server.use(
      http.post(`${BASE}/api/v1/flight/getFare`, () =>
        HttpResponse.json(
          { searchId: 's1', status: 'initiated', streamUrl: '/api/v1/flight/getFare/stream/s1' },
          { status: 202 },
        ),
      ),
      http.get(`${BASE}/api/v1/flight/getFare/stream/s1`, () =>
        sseResponse([
          frame('offer', { offer: { offer_id: 'o1', price: { total_minor: 100 } } }, '1'),
          frame('done', { status: 'completed' }, '2'),
        ]),
      ),
    );
    const { client: travel } = testClient();
    const seen: string[] = [];
    const search = await travel.flights.search({
      companyCode: 'ACME',
      userCode: 'U1',
      searchAirLegs: [{ origin: 'LHR', destination: 'DXB', departureDate: '2026-12-20' }],
    });
    for await (const event of search.stream({ signal: AbortSignal.timeout(60_000) })) {
      if (event.event === 'offer') seen.push(event.data.offer.offer_id);
      if (event.event === 'done') seen.push(`finished:${event.data.status}`);
    }
    expect(seen).toEqual(['o1', 'finished:completed']);
  });

  it('idempotency', async () => {
    server.use(
      http.post(`${BASE}/api/v1/bookings/:id/authorize`, ({ request }) =>
        HttpResponse.json(
          { state: 'AUTHORIZED', key: request.headers.get('idempotency-key') },
          { headers: { 'X-Request-Id': 'req-9' } },
        ),
      ),
    );
    const { client: travel } = testClient();
    const auth = await travel.payments.authorize(
      1042,
      { token: 'tok_sandbox_ok', currency: 'GBP', amount_minor: 12_500 },
      { idempotencyKey: 'order-7-authorize' },
    );
    expect([auth.data.state, auth.idempotencyKey, auth.requestId]).toEqual([
      'AUTHORIZED',
      'order-7-authorize',
      'req-9',
    ]);
  });

  it('bookings and 502 pending confirmation', async () => {
    server.use(
      http.post(`${BASE}/api/v1/bookings/createPnr`, () =>
        apiError(502, 'booking_pending', { booking_id: 77, status: 'pending_pnr' }),
      ),
      http.get(`${BASE}/api/v1/bookings/77`, () =>
        HttpResponse.json({ booking_id: 77, pnr: 'PND777', status: 'confirmed' }),
      ),
    );
    const { client: travel } = testClient();
    const result = await travel.bookings.create(
      {
        offer_id: 'off-1',
        currency: 'GBP',
        passengers: [
          { type: 'ADT', first_name: 'Ada', last_name: 'Lovelace', gender: 'F', date_of_birth: '1985-12-10' },
        ],
        contact: { email: 'ada@example.com', phone: '+442071234567' },
      },
      { pending: { deadlineMs: 30_000 } },
    );
    if (result.outcome === 'confirmed') console.log('PNR', result.booking?.pnr);
    expect(result).toMatchObject({ outcome: 'confirmed', booking_id: 77, booking: { pnr: 'PND777' } });
  });

  it('errors', async () => {
    server.use(http.post(`${BASE}/api/v1/bookings/:id/authorize`, () => apiError(400, 'payment_declined')));
    const { client: travel } = testClient();
    let outcome = '';
    try {
      await travel.payments.authorize(1042, {
        token: 'tok_sandbox_decline',
        currency: 'GBP',
        amount_minor: 100,
      });
    } catch (error) {
      if (error instanceof PaymentDeclinedError) outcome = 'declined';
      else if (error instanceof TravelApiError) outcome = error.code;
      else throw error;
    }
    expect(outcome).toBe('declined');
  });

  it('retries', async () => {
    let calls = 0;
    server.use(
      http.get(`${BASE}/api/v1/bookings/:id`, () =>
        ++calls < 4
          ? apiError(503, 'unavailable')
          : HttpResponse.json({ booking_id: 1, status: 'confirmed' }),
      ),
    );
    const sleeps: number[] = [];
    const patient = createTravelClient({
      baseUrl: BASE,
      maxRetries: 4,
      retry: { baseDelayMs: 250, maxDelayMs: 4000 },
      random: () => 1,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    });
    await patient.bookings.get(1);
    expect(sleeps).toEqual([250, 500, 1000]);
  });
});
