/**
 * The standalone mock server over real HTTP: each supplier on its own loopback port, answering in its own
 * protocol. One request per supplier is enough here; each emulator's own tests go deep.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOCK_SUPPLIERS, type MockServers, startMockServers } from '../src/index.ts';
import { parseLatency } from '../src/server.ts';

let mocks: MockServers;
beforeAll(async () => {
  mocks = await startMockServers({ options: { latencyMs: 0, seed: 1 } });
});
afterAll(() => mocks.close());

const url = (supplier: (typeof MOCK_SUPPLIERS)[number]): string => {
  const u = mocks.urls[supplier];
  if (!u) throw new Error(`${supplier} not started`);
  return u;
};

describe('startMockServers', () => {
  it('starts every supplier on its own loopback port', () => {
    const ports = new Set(MOCK_SUPPLIERS.map((s) => new URL(url(s)).port));
    expect(ports.size).toBe(MOCK_SUPPLIERS.length);
    for (const s of MOCK_SUPPLIERS) expect(url(s)).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('stripe: creates and reads a PaymentIntent (form-encoded, Bearer)', async () => {
    const res = await fetch(`${url('stripe')}/v1/payment_intents`, {
      method: 'POST',
      headers: {
        authorization: 'Bearer sk_test_standalone_123456',
        'content-type': 'application/x-www-form-urlencoded',
        'idempotency-key': 'standalone-1',
      },
      body: 'amount=5000&currency=usd&confirm=true&capture_method=manual&payment_method=pm_card_visa&metadata[booking_id]=1',
    });
    expect(res.status).toBe(200);
    const pi = (await res.json()) as { id: string; status: string };
    expect(pi.status).toBe('requires_capture');
    const got = await fetch(`${url('stripe')}/v1/payment_intents/${pi.id}`, {
      headers: { authorization: 'Bearer sk_test_standalone_123456' },
    });
    expect(((await got.json()) as { id: string }).id).toBe(pi.id);
  });

  it('stripe: a connection reset destroys the socket', async () => {
    await expect(
      fetch(`${url('stripe')}/v1/payment_intents`, {
        method: 'POST',
        headers: {
          authorization: 'Bearer sk_test_standalone_123456',
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: 'amount=5000&currency=usd&confirm=true&payment_method=tok_sandbox_connection_reset',
      }),
    ).rejects.toThrow();
  });

  it('stripe: unknown routes get Stripe-style 404s', async () => {
    const res = await fetch(`${url('stripe')}/v1/nope`, {
      headers: { authorization: 'Bearer sk_test_standalone_123456' },
    });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { type: string } }).error.type).toBe('invalid_request_error');
  });

  it('amadeus: OAuth2 client-credentials token', async () => {
    const res = await fetch(`${url('amadeus')}/v1/security/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&client_id=sandbox-client&client_secret=sandbox-secret',
    });
    expect(res.status).toBeLessThan(500);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.access_token ?? body.errors ?? body.error).toBeDefined();
  });

  it('duffel: answers with its JSON envelope (auth checked)', async () => {
    const res = await fetch(`${url('duffel')}/air/offer_requests`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'duffel-version': 'v2', accept: 'application/json' },
      body: JSON.stringify({ data: { slices: [], passengers: [] } }),
    });
    expect(res.status).toBe(401);
    const body = (await res.json()) as { errors?: unknown[] };
    expect(Array.isArray(body.errors)).toBe(true);
  });

  it('mystifly: answers a session request', async () => {
    const res = await fetch(`${url('mystifly')}/api/v1/CreateSession`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ UserName: 'x', Password: 'y', AccountNumber: 'z' }),
    });
    expect(res.status).toBeLessThan(500);
    expect(await res.json()).toHaveProperty('Success');
  });

  it('hotelbeds: refuses a request without the Api-key / X-Signature headers', async () => {
    const res = await fetch(`${url('hotelbeds')}/hotel-api/1.0/hotels`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: '{}',
    });
    expect([401, 403]).toContain(res.status);
  });

  it('hotelbeds-transfers: refuses a request without the Api-key / X-Signature headers', async () => {
    const res = await fetch(
      `${url('hotelbeds-transfers')}/transfer-api/1.0/availability/en/from/IATA/PMI/to/ATLAS/57/2026-12-20T10:00:00/1/0/0`,
    );
    expect([401, 403]).toContain(res.status);
  });
});

describe('standalone entry (server.ts)', () => {
  it('parses MOCK_LATENCY_MS', () => {
    expect(parseLatency('0')).toBe(0);
    expect(parseLatency('120')).toBe(120);
    expect(parseLatency('50-250')).toEqual({ min: 50, max: 250 });
    expect(() => parseLatency('fast')).toThrow();
  });

  it('starts on MOCK_PORT_BASE, prints each URL, stops on SIGTERM', async () => {
    const entry = fileURLToPath(new URL('../src/server.ts', import.meta.url));
    const base = 20000 + Math.floor(Math.random() * 20000);
    const child = spawn(process.execPath, [entry], {
      env: { ...process.env, MOCK_PORT_BASE: String(base), MOCK_LATENCY_MS: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stderr.on('data', (d) => {
      err += String(d);
    });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d) => {
        out += String(d);
        if (out.includes('mock-server ready')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
    });
    const stripeIndex = MOCK_SUPPLIERS.indexOf('stripe');
    expect(out).toContain(`http://127.0.0.1:${base + stripeIndex}`);
    const res = await fetch(`http://127.0.0.1:${base + stripeIndex}/v1/payment_intents`, {
      headers: { authorization: 'Bearer sk_test_standalone_123456' },
    });
    expect(res.status).toBe(200);
    const exited = new Promise<number | null>((r) => child.once('exit', r));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 20_000);
});
