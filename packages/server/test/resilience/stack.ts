/**
 * A running service for fault tests: the real entry point (`src/main.ts`) as a child process, with the
 * supplier emulators served over HTTP from this (the test) process through SANDBOX_SUPPLIER_URLS, so
 * their state (orders, PaymentIntents) outlives anything done to the server and the test can read it.
 * Plus a small HTTP client that speaks the service's API as an integrator would.
 */
import { type MockServers, type MockSupplier, startMockServers } from '@travel/mock-server';
import { futureDate, oneWaySearch } from '../harness/flight-search.ts';
import { type ServerProcess, startServer } from '../search/processes.ts';

const AGENT = { email: 'agent@sandbox.travel', password: 'sandbox-agent-pass' };
export const PASSENGER = (last = 'RAHMAN') => ({
  type: 'ADT',
  title: 'MS',
  first_name: 'Ayesha',
  last_name: last,
  gender: 'F',
  date_of_birth: '1990-04-02',
  nationality: 'GB',
  document: { type: 'passport', number: 'A1234567', expiry: '2031-01-01', issuing_country: 'GB' },
});
export const CONTACT = { email: 'ayesha@example.test', phone: '+447700900123' };

export interface Res {
  status: number;
  headers: Headers;
  body: any;
}

export async function startEmulators(latencyMs = 0): Promise<MockServers> {
  return startMockServers({ options: { latencyMs, seed: 7 } });
}

export const supplierUrls = (urls: Partial<Record<MockSupplier, string>>) =>
  Object.entries(urls)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');

export async function startService(name: string, env: Record<string, string>): Promise<ServerProcess> {
  return startServer(name, {
    LOG_LEVEL: 'warn',
    // Eight clients share one login: the per-account limits are not what is under test.
    RATE_LIMIT_SEARCH: '10000/60',
    RATE_LIMIT_STREAM: '10000/60',
    RATE_LIMIT_LOGIN_ACCOUNT: '1000/60',
    RATE_LIMIT_LOGIN_IP: '1000/60',
    PASSWORD_SCRYPT_N: '1024',
    ...env,
  });
}

/** The API as an integrator sees it: JSON in and out, a bearer token, an Idempotency-Key when given. */
export class Client {
  readonly url: string;
  token = '';
  constructor(url: string) {
    this.url = url;
  }

  async req(method: string, path: string, o: { body?: unknown; key?: string } = {}): Promise<Res> {
    const res = await fetch(`${this.url}${path}`, {
      method,
      headers: {
        ...(o.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
        ...(o.key ? { 'idempotency-key': o.key } : {}),
      },
      ...(o.body !== undefined ? { body: JSON.stringify(o.body) } : {}),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {}
    return { status: res.status, headers: res.headers, body };
  }

  async login(who = AGENT): Promise<void> {
    const r = await this.req('POST', '/api/v1/auth/login', { body: who });
    if (r.status !== 200) throw new Error(`login ${r.status} ${JSON.stringify(r.body)}`);
    this.token = r.body.access_token;
  }

  /** A bookable (non-LCC) offer of `supplier` from a real flight search. */
  async offer(supplier: 'amadeus' | 'duffel' | 'mystifly' = 'amadeus') {
    const date = futureDate(60);
    const s = await this.req('POST', '/api/v1/flight/getFare', {
      body: oneWaySearch('LHR', 'DXB', date),
    });
    if (s.status !== 202) throw new Error(`search ${s.status} ${JSON.stringify(s.body)}`);
    const b = await this.req('GET', `/api/v1/flight/getFare/batch/${s.body.searchId}?timeout=30`);
    const offers = (b.body.results_by_gds?.[supplier] ?? []) as {
      offer_id: string;
      lcc: boolean;
      validating_carrier?: string;
      price: { currency: string; total_minor: number };
    }[];
    const o = offers.find((x) => !x.lcc && x.validating_carrier !== 'W6');
    if (!o) throw new Error(`no bookable ${supplier} offer: ${JSON.stringify(b.body).slice(0, 300)}`);
    return o;
  }

  createPnr(offer: { offer_id: string; price: { currency: string } }, key: string, last = 'RAHMAN') {
    return this.req('POST', '/api/v1/bookings/createPnr', {
      key,
      body: {
        offer_id: offer.offer_id,
        currency: offer.price.currency,
        passengers: [PASSENGER(last)],
        contact: CONTACT,
      },
    });
  }

  authorize(bookingId: number, amountMinor: number, currency: string, key: string) {
    return this.req('POST', `/api/v1/bookings/${bookingId}/authorize`, {
      key,
      body: { token: 'tok_sandbox_ok', currency, amount_minor: amountMinor },
    });
  }
}

/** Resolves once `fn` returns something truthy; rejects after `ms` with `what` (no fixed sleeps). */
export async function eventually<T>(what: string, ms: number, fn: () => Promise<T | undefined | false>) {
  const until = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > until)
      throw new Error(`timed out after ${ms} ms waiting for ${what}: ${String(last ?? '')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
