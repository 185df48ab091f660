/**
 * The records the upgrade test asks each earlier release to write through its HTTP API, and the reads it
 * compares before and after the upgrade. Only requests every release since 0.1.0 answers the same way
 * (API 1.0.0); a change here changes the fixture's hash, so cached databases are rebuilt.
 *
 * Written: two self-registered customers; flight bookings by the sandbox agent: confirmed (Amadeus,
 * Duffel), paid (authorized), ticketed (Amadeus, Duffel), cancelled (with its hold voided), and one created
 * pending (the supplier's answer lost: 502 booking_pending) and left for that release's reconciliation to
 * settle; a hotel booking and a cancelled one; a transfer booking and a cancelled one.
 */

/** What the fixture wrote: who can log in, and which records to read back. */
export interface Written {
  users: Array<{ email: string; password: string }>;
  flights: number[];
  hotels: number[];
  transfers: number[];
}

import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

const AGENT = { email: 'agent@sandbox.travel', password: 'sandbox-agent-pass' };
const ADMIN = { email: 'admin@sandbox.travel', password: 'sandbox-admin-pass' };
const PASSENGER = {
  type: 'ADT',
  title: 'MS',
  first_name: 'Ayesha',
  last_name: 'RAHMAN',
  gender: 'F',
  date_of_birth: '1990-04-02',
  nationality: 'GB',
  document: { type: 'passport', number: 'A1234567', expiry: '2031-01-01', issuing_country: 'GB' },
};
const CONTACT = { email: 'ayesha@example.test', phone: '+447700900123' };
const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

interface Answer {
  status: number;
  body: any;
}

async function call(
  base: string,
  method: string,
  path: string,
  o: { token?: string; body?: unknown; key?: string } = {},
): Promise<Answer> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(o.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(o.token ? { authorization: `Bearer ${o.token}` } : {}),
      ...(o.key ? { 'idempotency-key': o.key } : {}),
    },
    ...(o.body !== undefined ? { body: JSON.stringify(o.body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** `call`, failing with the answer unless it has the expected status. */
async function ok(
  base: string,
  want: number,
  method: string,
  path: string,
  o: Parameters<typeof call>[3] = {},
) {
  const r = await call(base, method, path, o);
  if (r.status !== want)
    throw new Error(`${method} ${path}: expected ${want}, got ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

async function login(base: string, who: { email: string; password: string }): Promise<string> {
  return (await ok(base, 200, 'POST', '/api/v1/auth/login', { body: who })).access_token as string;
}

/** The verify-email path and query of the mail sent to `email`, once it is in `outbox`. */
async function verifyLink(outbox: string, email: string): Promise<string | undefined> {
  const files = await readdir(outbox).catch(() => [] as string[]);
  for (const f of files.filter((x) => x.endsWith('.eml'))) {
    // Quoted-printable: soft line breaks and =3D.
    const text = (await readFile(join(outbox, f), 'utf8')).replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    if (!text.includes(email)) continue;
    const m = /\/api\/v1\/auth\/verify-email\?[^\s"<>]+/.exec(text);
    if (m) return m[0].replace(/&amp;/g, '&');
  }
  return undefined;
}

/** Polls until `probe` returns a value, for at most `ms`. */
async function until<T>(what: string, ms: number, probe: () => Promise<T | undefined>): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

let keys = 0;
function key(what: string): string {
  keys += 1;
  return `upgrade-${what}-${keys}`;
}

/** One bookable (not low-cost) offer of `gds` on a search from LHR. */
async function offer(base: string, token: string, gds: 'amadeus' | 'duffel', to: string) {
  const started = await ok(base, 202, 'POST', '/api/v1/flight/getFare', {
    token,
    body: {
      companyCode: 'SANDBOX',
      userCode: 'AGENT1',
      adults: 1,
      journeyType: 'OneWay',
      cabinClass: 'Economy',
      searchAirLegs: [{ origin: 'LHR', destination: to, departureDate: day(60) }],
    },
  });
  const batch = await ok(base, 200, 'GET', `/api/v1/flight/getFare/batch/${started.searchId}?timeout=30`, {
    token,
  });
  const list = (batch.results_by_gds?.[gds] ?? []) as Array<Record<string, any>>;
  const hit = list.find((o) => !o.lcc && !(gds === 'duffel' && o.validating_carrier === 'W6'));
  if (!hit) throw new Error(`no bookable ${gds} offer to ${to}`);
  return hit;
}

async function createPnr(base: string, token: string, gds: 'amadeus' | 'duffel', lastName = 'RAHMAN') {
  const o = await offer(base, token, gds, gds === 'amadeus' ? 'DXB' : 'BCN');
  const r = await call(base, 'POST', '/api/v1/bookings/createPnr', {
    token,
    key: key('pnr'),
    body: {
      offer_id: o.offer_id,
      currency: o.price.currency,
      passengers: [{ ...PASSENGER, last_name: lastName }],
      contact: CONTACT,
    },
  });
  if (r.status !== 200 && !(lastName === 'PENDING' && r.status === 502))
    throw new Error(`createPnr ${gds}: ${r.status} ${JSON.stringify(r.body)}`);
  const id = (r.body.booking_id ?? r.body.details?.booking_id) as number;
  if (typeof id !== 'number') throw new Error(`createPnr ${gds}: no booking id in ${JSON.stringify(r.body)}`);
  return id;
}

async function authorize(base: string, token: string, id: number) {
  const b = await ok(base, 200, 'GET', `/api/v1/bookings/${id}`, { token });
  await ok(base, 200, 'POST', `/api/v1/bookings/${id}/authorize`, {
    token,
    key: key('auth'),
    body: { token: 'tok_sandbox_ok', currency: b.pricing.currency, amount_minor: b.pricing.total_minor },
  });
}

/** Writes the fixture's records through the API at `base`; returns what it wrote. */
export async function writeFixture(base: string, outbox: string): Promise<Written> {
  const users = [
    { email: 'upgrade-one@example.test', password: 'upgrade-pass-1', full_name: 'Upgrade One' },
    { email: 'upgrade-two@example.test', password: 'upgrade-pass-2', full_name: 'Upgrade Two' },
  ];
  for (const u of users) {
    const r = await call(base, 'POST', '/api/v1/auth/register', { body: u });
    if (r.status !== 200 && r.status !== 201)
      throw new Error(`register: ${r.status} ${JSON.stringify(r.body)}`);
    // The link of the verification email (the sandbox writes mail as .eml files to DATA_DIR/outbox).
    const link = await until(`the verification email to ${u.email}`, 10_000, async () =>
      verifyLink(outbox, u.email),
    );
    await ok(base, 200, 'GET', link);
  }
  const agent = await login(base, AGENT);
  const flights: number[] = [];
  flights.push(await createPnr(base, agent, 'amadeus'), await createPnr(base, agent, 'duffel')); // confirmed
  const paid = await createPnr(base, agent, 'amadeus');
  await authorize(base, agent, paid);
  flights.push(paid);
  for (const gds of ['amadeus', 'duffel'] as const) {
    const id = await createPnr(base, agent, gds);
    await authorize(base, agent, id);
    await ok(base, 200, 'POST', `/api/v1/bookings/${id}/ticket`, {
      token: agent,
      key: key('tkt'),
      body: { capture: true },
    });
    flights.push(id);
  }
  const cancelled = await createPnr(base, agent, 'amadeus');
  await authorize(base, agent, cancelled);
  await ok(base, 200, 'POST', `/api/v1/bookings/${cancelled}/cancel`, {
    token: agent,
    key: key('cxl'),
    body: {},
  });
  flights.push(cancelled);
  const pending = await createPnr(base, agent, 'amadeus', 'PENDING');
  // Settled by that release's own reconciliation (its emulators hold the order), before it stops.
  await until('the pending booking settles', 60_000, async () => {
    const b = await ok(base, 200, 'GET', `/api/v1/bookings/${pending}`, { token: agent });
    return b.status === 'pending_pnr' || b.status === 'initiated' ? undefined : b;
  });
  flights.push(pending);

  const hotels: number[] = [];
  const hotelSearch = await ok(base, 202, 'POST', '/api/v1/hotel/search', {
    token: agent,
    body: {
      destination: 'LON',
      check_in: day(60),
      check_out: day(63),
      rooms: [{ adults: 2, children: 0, child_ages: [] }],
      currency: 'GBP',
      company_code: 'SANDBOX',
      user_code: 'AGENT1',
    },
  });
  const rates = await ok(base, 200, 'GET', `/api/v1/hotel/search/batch/${hotelSearch.search_id}?timeout=30`, {
    token: agent,
  });
  const hb = ((rates.results_by_provider?.hotelbeds ?? []) as Array<Record<string, any>>).filter(
    (r) => r.refundable,
  );
  for (const [i, rate] of hb.slice(0, 2).entries()) {
    const booked = await ok(base, 200, 'POST', '/api/v1/hotel/book', {
      token: agent,
      key: key('hotel'),
      body: {
        rate_key: rate.rate_key,
        provider: 'hotelbeds',
        guests: [
          { room: 1, type: 'AD', first_name: 'Ada', last_name: 'Lovelace' },
          { room: 1, type: 'AD', first_name: 'Alan', last_name: 'Turing' },
        ],
        contact_email: 'ada@example.test',
        contact_phone: '+447700900123',
        client_ref: `upgrade-hotel-${i}`,
      },
    });
    hotels.push(booked.booking_id);
  }
  if (hotels.length !== 2)
    throw new Error(`two refundable Hotelbeds rates expected: ${JSON.stringify(rates).slice(0, 300)}`);
  await ok(base, 200, 'POST', `/api/v1/hotel/bookings/${hotels[1]}/cancel`, {
    token: agent,
    key: key('hcxl'),
    body: {},
  });

  const transfers: number[] = [];
  const tSearch = await ok(base, 202, 'POST', '/api/v1/transport/search', {
    token: agent,
    body: {
      pickup_location: 'DXB',
      dropoff_location: 'Atlantis The Palm, Dubai',
      pickup_datetime: `${day(60)}T14:30:00`,
      passengers: 2,
      luggage: 2,
      currency: 'GBP',
    },
  });
  const quotes = await ok(
    base,
    200,
    'GET',
    `/api/v1/transport/search/batch/${tSearch.search_id}?timeout=30`,
    {
      token: agent,
    },
  );
  const hq = (quotes.results_by_provider?.hotelbeds_transfers ?? []) as Array<Record<string, any>>;
  for (const q of hq.slice(0, 2)) {
    const booked = await ok(base, 200, 'POST', '/api/v1/transport/book', {
      token: agent,
      key: key('transfer'),
      body: {
        quote_id: q.quote_id,
        provider: 'hotelbeds_transfers',
        passengers: [{ first_name: 'Ada', last_name: 'Lovelace' }],
        contact: { email: 'ada@example.test', phone: '+447700900123' },
      },
    });
    transfers.push(booked.booking_id);
  }
  if (transfers.length !== 2)
    throw new Error(`two transfer quotes expected: ${JSON.stringify(quotes).slice(0, 300)}`);
  await ok(base, 200, 'POST', `/api/v1/transport/bookings/${transfers[1]}/cancel`, {
    token: agent,
    key: key('tcxl'),
    body: {},
  });
  return { users: users.map(({ email, password }) => ({ email, password })), flights, hotels, transfers };
}

/** Every record the fixture wrote, read through the API at `base`: name → the answer's body. */
export async function readFixture(base: string, w: Written): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const u of w.users)
    out[`me ${u.email}`] = await ok(base, 200, 'GET', '/api/v1/auth/me', { token: await login(base, u) });
  const agent = await login(base, AGENT);
  const admin = await login(base, ADMIN);
  for (const id of w.flights) {
    out[`booking ${id}`] = await ok(base, 200, 'GET', `/api/v1/bookings/${id}`, { token: agent });
    out[`payments ${id}`] = await ok(base, 200, 'GET', `/api/v1/bookings/${id}/payment/history`, {
      token: agent,
    });
    out[`admin booking ${id}`] = await ok(base, 200, 'GET', `/api/v1/admin/bookings/${id}`, { token: admin });
  }
  for (const id of w.hotels)
    out[`hotel ${id}`] = await ok(base, 200, 'GET', `/api/v1/hotel/bookings/${id}`, { token: agent });
  for (const id of w.transfers)
    out[`transfer ${id}`] = await ok(base, 200, 'GET', `/api/v1/transport/bookings/${id}`, { token: agent });
  return out;
}
