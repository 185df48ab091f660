/**
 * Sessions and API keys (issue 16) against the REAL server, on a manual server clock so tokens expire
 * without waiting: one refresh for 20 concurrent calls (after a 401 `token_expired` and before expiry),
 * a booking sent again after the refresh with the same Idempotency-Key books once, `onTokens` hears the
 * rotation, a refused refresh ends the session without looping, and `{ apiKey }` books as X-API-Key.
 */

import { startTestServer, type TestServer } from '@travel/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  createTravelClient,
  type FlightOffer,
  SessionEndedError,
  type SessionTokens,
  type TravelClient,
  type TravelClientOptions,
} from '../src/index.ts';
import { createBooking } from './fixtures/bodies.ts';

const TTL_SECONDS = 600;
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({
    env: { ACCESS_TOKEN_TTL_SECONDS: String(TTL_SECONDS) },
    manualClock: true,
  });
}, 120_000);
afterAll(async () => {
  await server?.close();
});

/** Moves the server past the lifetime of every access token issued so far. */
const expireAccessTokens = () => server.advanceClock((TTL_SECONDS + 1) * 1000);

interface Seen {
  method: string;
  path: string;
  status: number;
  idempotencyKey: string | null;
  authorization: string | null;
  apiKey: string | null;
}

/** A fetch that records every request the client sends and how it was answered. */
function recordingFetch() {
  const seen: Seen[] = [];
  const fetchFn = async (request: Request) => {
    const response = await fetch(request);
    seen.push({
      method: request.method,
      path: new URL(request.url).pathname,
      status: response.status,
      idempotencyKey: request.headers.get('idempotency-key'),
      authorization: request.headers.get('authorization'),
      apiKey: request.headers.get('x-api-key'),
    });
    return response;
  };
  const count = (path: string) => seen.filter((s) => s.path === path).length;
  return {
    seen,
    fetch: fetchFn,
    refreshes: () => count('/api/v1/auth/refresh'),
    logins: () => count('/api/v1/auth/login'),
  };
}

/** The client's clock is frozen unless a test moves it: only the server's clock expires tokens. */
function client(options: Partial<TravelClientOptions>, now = Date.now()) {
  const rec = recordingFetch();
  const travel = createTravelClient({
    baseUrl: server.url,
    fetch: rec.fetch,
    now: () => now,
    sleep: async () => undefined,
    ...options,
  });
  return { travel, rec };
}

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

async function amadeusOffer(travel: TravelClient): Promise<FlightOffer> {
  const search = await travel.flights.search({
    companyCode: 'SANDBOX',
    userCode: 'AGENT1',
    searchAirLegs: [{ origin: 'LHR', destination: 'DXB', departureDate: inDays(30) }],
  });
  const offers = (await search.offers()).filter((o) => o.supplier === 'amadeus' && !o.lcc);
  const cheapest = offers.sort((a, b) => a.price.total_minor - b.price.total_minor)[0];
  if (!cheapest) throw new Error('no amadeus offer');
  return cheapest;
}

const bookingBody = (offer: FlightOffer, lastName: string) => ({
  ...createBooking,
  offer_id: offer.offer_id,
  currency: offer.price.currency,
  passengers: [{ ...createBooking.passengers[0], last_name: lastName } as never],
});

async function companyBookingCount(travel: TravelClient): Promise<number> {
  const { data } = await travel.raw.GET('/api/v1/company/bookings', { params: { query: { page_size: 1 } } });
  return (data as { total: number }).total;
}

describe('a session the SDK keeps alive', () => {
  it('20 concurrent calls on an expired access token (401 token_expired) cause exactly one refresh; onTokens hears the rotation', async () => {
    const tokens: SessionTokens[] = [];
    const { travel, rec } = client({ auth: { ...server.agent, onTokens: (t) => void tokens.push(t) } });
    expect((await travel.auth.me()).email).toBe(server.agent.email);
    expect(rec.logins()).toBe(1);
    expect(tokens).toHaveLength(1);

    expireAccessTokens();
    const results = await Promise.all(Array.from({ length: 20 }, () => travel.auth.me()));
    for (const me of results) expect(me.email).toBe(server.agent.email);
    expect(rec.refreshes()).toBe(1);
    expect(rec.logins()).toBe(1);
    // Each call was refused once at most, then sent again with the new token.
    const meCalls = rec.seen.filter((s) => s.path === '/api/v1/auth/me');
    expect(meCalls.filter((s) => s.status === 401).length).toBeGreaterThan(0);
    expect(meCalls.filter((s) => s.status === 200)).toHaveLength(21);

    expect(tokens).toHaveLength(2);
    const [first, second] = tokens as [SessionTokens, SessionTokens];
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect(second.accessToken).not.toBe(first.accessToken);
    expect(second.accessTokenExpiresAt).toBeGreaterThan(first.accessTokenExpiresAt ?? 0);
  });

  it('renews proactively when the access token expires within 60 s: one refresh for 20 calls, no 401 at all', async () => {
    const login = createTravelClient({ baseUrl: server.url });
    const session = (await login.auth.login(server.agent)) as { access_token: string; refresh_token: string };
    const tokens: SessionTokens[] = [];
    // The client's clock says the access token has 30 s left (its `exp` is on the server's clock).
    const payload = Buffer.from(session.access_token.split('.')[1] as string, 'base64url').toString('utf8');
    const exp = (JSON.parse(payload) as { exp: number }).exp;
    const now = exp * 1000 - 30_000;
    const { travel, rec } = client(
      {
        auth: {
          refreshToken: session.refresh_token,
          accessToken: session.access_token,
          onTokens: (t) => void tokens.push(t),
        },
      },
      now,
    );
    const results = await Promise.all(Array.from({ length: 20 }, () => travel.auth.me()));
    expect(results).toHaveLength(20);
    expect(rec.refreshes()).toBe(1);
    expect(rec.seen.filter((s) => s.status === 401)).toHaveLength(0);
    expect(tokens).toHaveLength(1);
    expect(tokens[0]?.refreshToken).not.toBe(session.refresh_token);
    // The refresh token's own expiry, from the server's refresh_expires_in (default 30 days), on this clock.
    expect(tokens[0]?.refreshTokenExpiresAt).toBe(now + 30 * 86_400 * 1000);
    // The rotated refresh token is the live one: the persisted pair resumes the session elsewhere.
    const resumed = client({ auth: { refreshToken: tokens[0]?.refreshToken as string } });
    expect((await resumed.travel.auth.me()).email).toBe(server.agent.email);
  });

  it('a booking refused for an expired token is sent again after the refresh with the same Idempotency-Key and books once', async () => {
    const { travel, rec } = client({ auth: server.agent });
    const offer = await amadeusOffer(travel);
    const before = await companyBookingCount(travel);

    expireAccessTokens();
    const booked = await travel.bookings.create(bookingBody(offer, 'Refreshed'));
    expect(booked.outcome).toBe('confirmed');
    expect(rec.refreshes()).toBe(1);
    const attempts = rec.seen.filter((s) => s.path === '/api/v1/bookings/createPnr');
    expect(attempts.map((a) => a.status)).toEqual([401, 200]);
    expect(attempts[0]?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(attempts[1]?.idempotencyKey).toBe(attempts[0]?.idempotencyKey);
    expect(booked.idempotencyKey).toBe(attempts[0]?.idempotencyKey);
    expect(await companyBookingCount(travel)).toBe(before + 1);
  });

  it('a refused refresh token ends the session with SessionEndedError, once: later calls do not ask again', async () => {
    const login = createTravelClient({ baseUrl: server.url });
    const session = (await login.auth.login(server.agent)) as { refresh_token: string };
    await login.auth.logout({ refresh_token: session.refresh_token });

    const { travel, rec } = client({ auth: { refreshToken: session.refresh_token } });
    const error = await travel.auth.me().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionEndedError);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as SessionEndedError).code).toBe('invalid_refresh_token');
    await expect(travel.auth.me()).rejects.toBeInstanceOf(SessionEndedError);
    await expect(travel.bookings.get(1)).rejects.toBeInstanceOf(SessionEndedError);
    expect(rec.refreshes()).toBe(1);
    expect(rec.seen.filter((s) => s.path !== '/api/v1/auth/refresh')).toHaveLength(0);
  });

  it('auth.logout() needs no argument, revokes the refresh token and does not log in again by itself', async () => {
    const { travel, rec } = client({ auth: { email: server.agent.email, password: server.agent.password } });
    await travel.auth.me();
    expect(rec.logins()).toBe(1);
    await travel.auth.logout();
    const logout = rec.seen.find((s) => s.path === '/api/v1/auth/logout');
    expect(logout?.status).toBe(200);
    const error = await travel.auth.me().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionEndedError);
    expect((error as SessionEndedError).code).toBe('logged_out');
    expect(rec.logins()).toBe(1);
    expect(rec.seen.filter((s) => s.path === '/api/v1/auth/me')).toHaveLength(1);
    // An explicit login starts a new session.
    await travel.auth.login(server.agent);
    await expect(travel.auth.me()).resolves.toMatchObject({ email: server.agent.email });
  });

  it('a fixed token (the old `token` option) is never renewed: the 401 stands', async () => {
    const login = createTravelClient({ baseUrl: server.url });
    const session = (await login.auth.login(server.agent)) as { access_token: string };
    const { travel, rec } = client({ token: session.access_token });
    expireAccessTokens();
    const error = await travel.auth.me().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).code).toBe('token_expired');
    expect(rec.refreshes()).toBe(0);
  });
});

describe('{ apiKey }', () => {
  it('searches and books with X-API-Key only; a revoked key is AuthenticationError api_key_revoked', async () => {
    const { travel: admin } = client({ auth: server.agent });
    const { data: created } = await admin.raw.POST('/api/v1/company/api-keys', {
      body: { name: 'sdk test' },
    });
    const secret = (created as { key: string; id: number }).key;
    expect(secret).toMatch(/^tk_test_/);

    const { travel, rec } = client({ auth: { apiKey: secret } });
    const offer = await amadeusOffer(travel);
    const booked = await travel.bookings.create(bookingBody(offer, 'Keyholder'));
    expect(booked.outcome).toBe('confirmed');
    expect(rec.seen.length).toBeGreaterThan(2);
    for (const s of rec.seen) {
      expect(s.apiKey).toBe(secret);
      expect(s.authorization).toBeNull();
    }
    expect(rec.refreshes() + rec.logins()).toBe(0);

    await admin.raw.DELETE('/api/v1/company/api-keys/{key_id}', {
      params: { path: { key_id: (created as { id: number }).id } },
    });
    const error = await travel.bookings.get(booked.booking_id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).not.toBeInstanceOf(SessionEndedError);
    expect((error as AuthenticationError).code).toBe('api_key_revoked');
  });
});
