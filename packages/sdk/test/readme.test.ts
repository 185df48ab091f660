/** The README's snippets, run against MSW (keep the two in step). */
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { createTravelClient, PaymentDeclinedError, SessionEndedError, TravelApiError } from '../src/index.ts';
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

  it('authentication: a server with an API key', async () => {
    const seen: (string | null)[] = [];
    server.use(
      http.post(`${BASE}/api/v1/flight/getFare`, ({ request }) => {
        seen.push(request.headers.get('x-api-key'), request.headers.get('authorization'));
        return HttpResponse.json(
          { searchId: 's1', status: 'initiated', streamUrl: '/api/v1/flight/getFare/stream/s1' },
          { status: 202 },
        );
      }),
    );
    const process = { env: { TRAVEL_API_KEY: 'tk_test_readme' } as Record<string, string | undefined> };
    const travel = createTravelClient({
      baseUrl: BASE,
      auth: { apiKey: process.env.TRAVEL_API_KEY ?? '' },
    });
    const started = await travel.flights.search({
      companyCode: 'ACME',
      userCode: 'U1',
      searchAirLegs: [{ origin: 'LHR', destination: 'DXB', departureDate: '2026-12-20' }],
    });
    expect(started.searchId).toBe('s1');
    expect(seen).toEqual(['tk_test_readme', null]);
  });

  it('authentication: a browser app resuming a session, persisting the rotation', async () => {
    const store = new Map<string, string>([['travel.refresh', 'rt-1']]);
    const localStorage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
    };
    server.use(
      http.post(`${BASE}/api/v1/auth/refresh`, async ({ request }) => {
        const { refresh_token } = (await request.json()) as { refresh_token: string };
        return refresh_token === 'rt-1'
          ? HttpResponse.json({
              access_token: 'jwt-2',
              refresh_token: 'rt-2',
              token_type: 'bearer',
              expires_in: 900,
            })
          : apiError(401, 'invalid_refresh_token');
      }),
      http.get(`${BASE}/api/v1/auth/me`, ({ request }) =>
        request.headers.get('authorization') === 'Bearer jwt-2'
          ? HttpResponse.json({ email: 'agent@example.com' })
          : apiError(401, 'not_authenticated'),
      ),
    );
    const run = async () => {
      const travel = createTravelClient({
        baseUrl: BASE,
        auth: {
          refreshToken: localStorage.getItem('travel.refresh') ?? '',
          onTokens: (tokens) => localStorage.setItem('travel.refresh', tokens.refreshToken),
        },
      });
      try {
        console.log((await travel.auth.me()).email);
      } catch (error) {
        if (error instanceof SessionEndedError) console.log('show the login form');
        else throw error;
      }
    };
    log.length = 0;
    await run();
    expect(store.get('travel.refresh')).toBe('rt-2');
    expect(log).toEqual([['agent@example.com']]);
    // The next page load with a refresh token the server refuses: the login form.
    store.set('travel.refresh', 'rt-revoked');
    await run();
    expect(log).toEqual([['agent@example.com'], ['show the login form']]);
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
