/**
 * Per-request options, the last argument of every method: headers, idempotencyKey, maxRetries, timeout and
 * signal override the client's defaults for that one call; and the User-Agent every request carries.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { userAgent } from '../src/core/user-agent.ts';
import { ConnectionError, createTravelClient, ServerError } from '../src/index.ts';
import { VERSION } from '../src/version.ts';
import { BASE, collect } from './helpers.ts';

/** A client over a scripted fetch: `answer` gives each attempt's response (or never answers). */
function scripted(answer: (request: Request, attempt: number) => Response | 'hang') {
  const requests: Request[] = [];
  const travel = createTravelClient({
    baseUrl: BASE,
    token: 'test-token',
    sleep: async () => undefined,
    fetch: (request) => {
      requests.push(request);
      const response = answer(request, requests.length);
      if (response !== 'hang') return Promise.resolve(response);
      // Like fetch: rejects with the signal's reason once it aborts (or at once if it already has).
      return new Promise((_, reject) => {
        if (request.signal.aborted) reject(request.signal.reason);
        request.signal.addEventListener('abort', () => reject(request.signal.reason));
      });
    },
  });
  return { travel, requests };
}

const unavailable = () =>
  Response.json({ detail: 'busy', code: 'unavailable', request_id: 'r' }, { status: 503 });

describe('per-request options', () => {
  it('headers are sent on that call only, next to the SDK’s own', async () => {
    const { travel, requests } = scripted(() => Response.json({ email: 'a@example.com' }));
    await travel.auth.me({ headers: { 'X-Correlation-Id': 'order-7' } });
    await travel.auth.me();
    expect(requests[0]?.headers.get('x-correlation-id')).toBe('order-7');
    expect(requests[0]?.headers.get('authorization')).toBe('Bearer test-token');
    expect(requests[1]?.headers.get('x-correlation-id')).toBeNull();
  });

  it('the client’s headers go on every request, a call’s own headers win, and credentials stay the SDK’s', async () => {
    const requests: Request[] = [];
    const travel = createTravelClient({
      baseUrl: BASE,
      token: 'test-token',
      headers: { 'X-Client-Name': 'booking-ui', 'X-Tenant': 'a' },
      fetch: async (request) => {
        requests.push(request);
        return request.headers.get('accept') === 'text/event-stream'
          ? new Response('event: done\ndata: {}\n\n', { headers: { 'Content-Type': 'text/event-stream' } })
          : Response.json({});
      },
    });
    await travel.auth.me();
    await travel.auth.me({ headers: { 'X-Tenant': 'b' } });
    await collect(travel.flights.resume('s1').stream());
    expect(requests.map((r) => [r.headers.get('x-client-name'), r.headers.get('x-tenant')])).toEqual([
      ['booking-ui', 'a'],
      ['booking-ui', 'b'],
      ['booking-ui', 'a'],
    ]);
    expect(requests[0]?.headers.get('authorization')).toBe('Bearer test-token');
  });

  it('idempotencyKey on a method that makes none is sent, and makes its POST retryable with the same key', async () => {
    const { travel, requests } = scripted((_, attempt) =>
      attempt === 1 ? unavailable() : Response.json({ id: 1 }, { status: 201 }),
    );
    await travel.company.clients.create({ name: 'Ada' } as never, { idempotencyKey: 'client-ada' });
    expect(requests.map((r) => r.headers.get('idempotency-key'))).toEqual(['client-ada', 'client-ada']);
    // Without a key the same POST is not retried: repeating it could create the client twice.
    const again = scripted((_, attempt) => (attempt === 1 ? unavailable() : Response.json({ id: 2 })));
    await expect(again.travel.company.clients.create({ name: 'Ada' } as never)).rejects.toBeInstanceOf(
      ServerError,
    );
    expect(again.requests).toHaveLength(1);
  });

  it('idempotencyKey on a money call is the key it sends and returns', async () => {
    const { travel, requests } = scripted(() => Response.json({ state: 'AUTHORIZED' }));
    const result = await travel.payments.authorize(1, body(), { idempotencyKey: 'order-7-auth' });
    expect(result.idempotencyKey).toBe('order-7-auth');
    expect(requests[0]?.headers.get('idempotency-key')).toBe('order-7-auth');
  });

  it('maxRetries overrides the client’s for one call', async () => {
    const { travel, requests } = scripted(unavailable);
    await expect(travel.bookings.get(1, { maxRetries: 0 })).rejects.toBeInstanceOf(ServerError);
    expect(requests).toHaveLength(1);
    await expect(travel.bookings.get(1)).rejects.toBeInstanceOf(ServerError);
    expect(requests).toHaveLength(1 + 3); // the client's default: 2 retries
    await expect(travel.bookings.get(1, { maxRetries: 4 })).rejects.toBeInstanceOf(ServerError);
    expect(requests).toHaveLength(4 + 5);
  });

  it('timeout overrides the client’s per-attempt timeout for one call', async () => {
    const { travel, requests } = scripted(() => 'hang');
    const error = await travel.auth.me({ timeout: 5, maxRetries: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).timedOut).toBe(true);
    expect(requests).toHaveLength(1);
  });

  // The cause of a one-off 5 s hang of the test above in a full CI run: nothing but the timeout's timer
  // referred to the waiting call, and Node's `AbortSignal.timeout` timer holds its signal weakly, as
  // `AbortSignal.any` holds its sources (nodejs/node#57736). A garbage collection before the timeout
  // fired took the whole waiting call with it. The transport now listens on the timeout signal itself.
  it('timeout still fires when a garbage collection runs while the call waits', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    setFlagsFromString('--no-expose-gc');
    const { travel, requests } = scripted(() => 'hang');
    // Set before the call, so it fires first (timers run in deadline order), while this test awaits the
    // call: the call is sent within this job, and no timer runs before the job ends.
    const collect = setTimeout(gc, 50);
    const error = await travel.auth.me({ timeout: 500, maxRetries: 0 }).catch((e: unknown) => e);
    clearTimeout(collect);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).timedOut).toBe(true);
    expect(requests).toHaveLength(1);
  });

  it('timeout ends the call even when the fetch ignores its signal', async () => {
    const travel = createTravelClient({ baseUrl: BASE, token: 't', fetch: () => new Promise(() => {}) });
    const error = await travel.auth.me({ timeout: 5, maxRetries: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).timedOut).toBe(true);
    const controller = new AbortController();
    const pending = travel.auth.me({ signal: controller.signal });
    controller.abort(new Error('user left'));
    await expect(pending).rejects.toThrow('user left');
  });

  it('signal aborts the call', async () => {
    const { travel } = scripted(() => 'hang');
    const controller = new AbortController();
    const pending = travel.auth.me({ signal: controller.signal });
    controller.abort(new Error('user left'));
    await expect(pending).rejects.toThrow('user left');
  });

  it('streams take headers and maxRetries too', async () => {
    const { travel, requests } = scripted((_, attempt) =>
      attempt === 1
        ? unavailable()
        : new Response('id: 1\nevent: done\ndata: {"status":"completed"}\n\n', {
            headers: { 'Content-Type': 'text/event-stream' },
          }),
    );
    const events = await collect(
      travel.flights.resume('s1').stream({ headers: { 'X-Correlation-Id': 'c1' }, maxRetries: 1 }),
    );
    expect(events.map((e) => e.event)).toEqual(['done']);
    expect(requests.map((r) => r.headers.get('x-correlation-id'))).toEqual(['c1', 'c1']);
  });
});

describe('User-Agent', () => {
  it('names the SDK version and the runtime on Node; a caller’s own User-Agent wins', async () => {
    const { travel, requests } = scripted(() => Response.json({}));
    await travel.auth.me();
    await travel.auth.me({ headers: { 'User-Agent': 'my-app/2' } });
    expect(requests[0]?.headers.get('user-agent')).toBe(
      `travel-sdk/${VERSION} node/${process.versions.node}`,
    );
    expect(requests[1]?.headers.get('user-agent')).toBe('my-app/2');
  });

  it('is not set in a browser (a forbidden header there), and names Bun and Deno', () => {
    expect(userAgent('1.2.3', { window: {}, document: {}, process: { versions: { node: '24.0.0' } } })).toBe(
      undefined,
    );
    expect(userAgent('1.2.3', {})).toBe(undefined);
    expect(userAgent('1.2.3', { process: { versions: { node: '24.0.0', bun: '1.4.0' } } })).toBe(
      'travel-sdk/1.2.3 bun/1.4.0',
    );
    expect(userAgent('1.2.3', { Deno: { version: { deno: '2.5.0' } } })).toBe('travel-sdk/1.2.3 deno/2.5.0');
  });
});

function body() {
  return { token: 'tok_sandbox_ok', currency: 'GBP', amount_minor: 100 } as never;
}
