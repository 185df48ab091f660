import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { ConflictError, ConnectionError, RateLimitError, ServerError } from '../src/index.ts';
import { authorize } from './fixtures/bodies.ts';
import { apiError, BASE, testClient, useMsw } from './helpers.ts';

const server = useMsw();
const BOOKING = `${BASE}/api/v1/bookings/:id`;
const AUTHORIZE = `${BASE}/api/v1/bookings/:id/authorize`;
const booking = { booking_id: 42, pnr: 'ABC123', status: 'confirmed' };

describe('retries', () => {
  it('waits out a 429 Retry-After, then succeeds', async () => {
    let calls = 0;
    server.use(
      http.get(BOOKING, () =>
        ++calls === 1
          ? apiError(429, 'rate_limited', {}, { 'Retry-After': '3' })
          : HttpResponse.json(booking),
      ),
    );
    const { client, sleeps } = testClient();
    await expect(client.bookings.get(42)).resolves.toEqual(booking);
    expect(sleeps).toEqual([3000]);
    expect(calls).toBe(2);
  });

  it('throws RateLimitError with retryAfter once retries are used up', async () => {
    server.use(http.get(BOOKING, () => apiError(429, 'rate_limited', {}, { 'Retry-After': '2' })));
    const { client, sleeps } = testClient({ maxRetries: 1 });
    const error = await client.bookings.get(42).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(2);
    expect(sleeps).toEqual([2000]);
  });

  it('does not wait out a Retry-After longer than maxRetryAfterMs', async () => {
    server.use(http.get(BOOKING, () => apiError(429, 'rate_limited', {}, { 'Retry-After': '3600' })));
    const { client, sleeps } = testClient();
    await expect(client.bookings.get(42)).rejects.toBeInstanceOf(RateLimitError);
    expect(sleeps).toEqual([]);
  });

  it('backs off exponentially with jitter on 503 and 504 for safe methods', async () => {
    let calls = 0;
    server.use(
      http.get(BOOKING, () =>
        ++calls < 3 ? apiError(calls === 1 ? 503 : 504, 'unavailable') : HttpResponse.json(booking),
      ),
    );
    const { client, sleeps } = testClient();
    await client.bookings.get(42);
    // random() = 0.5 in tests: half the step fixed, a quarter from jitter.
    expect(sleeps).toEqual([375, 750]);
  });

  it('retries network errors on GET', async () => {
    let calls = 0;
    server.use(http.get(BOOKING, () => (++calls === 1 ? HttpResponse.error() : HttpResponse.json(booking))));
    const { client } = testClient();
    await expect(client.bookings.get(42)).resolves.toEqual(booking);
  });

  it('gives ConnectionError when the network stays down', async () => {
    server.use(http.get(BOOKING, () => HttpResponse.error()));
    const { client, sleeps } = testClient();
    await expect(client.bookings.get(42)).rejects.toBeInstanceOf(ConnectionError);
    expect(sleeps).toHaveLength(2);
  });

  it('never retries a POST without an Idempotency-Key', async () => {
    let calls = 0;
    server.use(
      http.post(`${BASE}/api/v1/bookings/:id/cancel`, () => {
        calls++;
        return apiError(503, 'unavailable');
      }),
    );
    const { client } = testClient();
    await expect(client.bookings.cancel(42)).rejects.toBeInstanceOf(ServerError);
    expect(calls).toBe(1);
  });

  it('reuses the same Idempotency-Key on every retry and returns it', async () => {
    const keys: (string | null)[] = [];
    server.use(
      http.post(AUTHORIZE, ({ request }) => {
        keys.push(request.headers.get('idempotency-key'));
        return keys.length === 1
          ? apiError(503, 'unavailable')
          : HttpResponse.json({ state: 'AUTHORIZED' }, { headers: { 'X-Request-Id': 'req-2' } });
      }),
    );
    const { client } = testClient();
    const result = await client.payments.authorize(42, authorize);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(result).toEqual({ data: { state: 'AUTHORIZED' }, idempotencyKey: keys[0], requestId: 'req-2' });
  });

  it('uses the caller’s key when given, and a new key per logical call otherwise', async () => {
    const keys: (string | null)[] = [];
    server.use(
      http.post(AUTHORIZE, ({ request }) => {
        keys.push(request.headers.get('idempotency-key'));
        return HttpResponse.json({});
      }),
    );
    const { client } = testClient();
    await client.payments.authorize(42, authorize, { idempotencyKey: 'order-7-auth' });
    await client.payments.authorize(42, authorize);
    await client.payments.authorize(42, authorize);
    expect(keys[0]).toBe('order-7-auth');
    expect(keys[1]).not.toBe(keys[2]);
  });

  it('retries a 500 internal_error on a keyed call (nothing was committed) but no other 500', async () => {
    let calls = 0;
    server.use(
      http.post(AUTHORIZE, () =>
        ++calls === 1 ? apiError(500, 'internal_error') : HttpResponse.json({ ok: true }),
      ),
    );
    const { client } = testClient();
    await expect(client.payments.authorize(42, authorize)).resolves.toMatchObject({ data: { ok: true } });
    expect(calls).toBe(2);

    calls = 0;
    server.use(
      http.post(AUTHORIZE, () => {
        calls++;
        return apiError(500, 'booking_failed');
      }),
    );
    await expect(client.payments.authorize(42, authorize)).rejects.toBeInstanceOf(ServerError);
    expect(calls).toBe(1);
  });

  it('never retries a 409, even with a key', async () => {
    let calls = 0;
    server.use(
      http.post(AUTHORIZE, () => {
        calls++;
        return apiError(409, 'idempotency_in_progress');
      }),
    );
    const { client } = testClient();
    const error = await client.payments
      .authorize(42, authorize, { idempotencyKey: 'k1' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ idempotencyKey: 'k1', code: 'idempotency_in_progress' });
    expect(calls).toBe(1);
  });

  it('sends the bearer token from getToken on every attempt', async () => {
    const auth: (string | null)[] = [];
    let n = 0;
    server.use(
      http.get(BOOKING, ({ request }) => {
        auth.push(request.headers.get('authorization'));
        return ++n === 1 ? apiError(503, 'x') : HttpResponse.json(booking);
      }),
    );
    const { client } = testClient({ token: undefined, getToken: () => `t${n}` });
    await client.bookings.get(42);
    expect(auth).toEqual(['Bearer t0', 'Bearer t1']);
  });
});
