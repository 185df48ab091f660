/**
 * A sandbox that remembers (issue 27): the real server as `pnpm start` runs it (`sandbox/main.ts`, the
 * emulators in its process), on a DATA_DIR (and, with TEST_DATABASE_URL, a PostgreSQL database). Book
 * flights (ticketed), a hotel and a transfer; kill -9; start again on the same DATA_DIR. Every booking
 * reads, by id and by PNR; its ticket status and the supplier's copy of the order answer; the hotel and
 * the transfer cancel at their supplier; new PNRs, ticket numbers and supplier references never repeat
 * the first run's.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { futureDate, oneWaySearch } from '../harness/flight-search.ts';
import { TEST_CONTACT, TEST_PASSENGER } from '../harness/traveller.ts';
import { freshDatabase, type ServerProcess, startServer } from '../search/processes.ts';

const AGENT = { email: 'agent@sandbox.travel', password: 'sandbox-agent-pass' };
type Flight = 'amadeus' | 'duffel' | 'mystifly';
const ROUTES: Record<Flight, [string, string]> = {
  amadeus: ['LHR', 'DXB'],
  duffel: ['LHR', 'BCN'],
  mystifly: ['LHR', 'DXB'],
};
/** Duffel exposes no ticket status (501 not_supported_by_provider); the others answer it. */
const HAS_TICKET_STATUS: Record<Flight, boolean> = { amadeus: true, duffel: false, mystifly: true };

interface Answer {
  status: number;
  body: any;
}

let dataDir: string;
let env: Record<string, string>;
let dropDb: (() => Promise<void>) | undefined;
let server: ServerProcess | undefined;
let token = '';
let run = 0;

async function call(method: string, path: string, body?: unknown): Promise<Answer> {
  if (!server) throw new Error('no server');
  run += 1;
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json', 'idempotency-key': `k-${run}` } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : {} };
}

function ok(r: Answer, status = 200): Answer {
  expect(r.status, JSON.stringify(r.body).slice(0, 600)).toBe(status);
  return r;
}

async function start(): Promise<void> {
  server = await startServer('sandbox-restart', env);
  token = '';
  token = ok(await call('POST', '/api/v1/auth/login', AGENT)).body.access_token;
}

/** A ticketed flight: search, createPnr, authorize, ticket with capture. */
async function ticketedFlight(sup: Flight) {
  const [origin, destination] = ROUTES[sup];
  const started = ok(
    await call('POST', '/api/v1/flight/getFare', oneWaySearch(origin, destination, futureDate(60))),
    202,
  );
  const batch = ok(await call('GET', `/api/v1/flight/getFare/batch/${started.body.searchId}?timeout=30`));
  const list = (batch.body.results_by_gds?.[sup] ?? []) as Array<Record<string, any>>;
  const hit = list.find(
    (o) => !o.lcc && o.refundable !== false && !(sup === 'duffel' && o.validating_carrier === 'W6'),
  );
  if (!hit) throw new Error(`no bookable ${sup} offer`);
  const created = ok(
    await call('POST', '/api/v1/bookings/createPnr', {
      offer_id: hit.offer_id,
      currency: hit.price.currency,
      passengers: [TEST_PASSENGER],
      contact: TEST_CONTACT,
    }),
  ).body;
  const id = created.booking_id as number;
  ok(
    await call('POST', `/api/v1/bookings/${id}/authorize`, {
      token: 'tok_sandbox_ok',
      currency: created.pricing.currency,
      amount_minor: created.pricing.total_minor,
    }),
  );
  const ticketed = await call('POST', `/api/v1/bookings/${id}/ticket`, { capture: true });
  expect([200, 202], JSON.stringify(ticketed.body)).toContain(ticketed.status);
  // Mystifly tickets asynchronously: each status read is a poll that moves it on (bounded).
  for (let i = 0; i < 10 && (await booking(id)).status !== 'ticketed'; i++) await ticketStatus(sup, id);
  expect((await booking(id)).status).toBe('ticketed');
  return { sup, id, pnr: created.pnr as string, tickets: await ticketNumbers(id) };
}

async function booking(id: number) {
  return ok(await call('GET', `/api/v1/bookings/${id}`)).body;
}

/** The ticket status where the supplier has one (issued or not), else its documented 501. */
async function ticketStatus(sup: Flight, id: number): Promise<boolean | undefined> {
  const st = await call('GET', `/api/v1/bookings/${id}/ticket/status`);
  if (!HAS_TICKET_STATUS[sup]) {
    expect([st.status, st.body.code]).toEqual([501, 'not_supported_by_provider']);
    return undefined;
  }
  return ok(st).body.issued as boolean;
}

async function ticketNumbers(id: number): Promise<string[]> {
  const doc = ok(await call('GET', `/api/v1/bookings/${id}/ticket/document`)).body;
  const numbers = (doc.tickets as { ticket_number: string }[]).map((t) => t.ticket_number);
  expect(numbers.length).toBeGreaterThan(0);
  return numbers;
}

async function hotel() {
  const started = ok(
    await call('POST', '/api/v1/hotel/search', {
      destination: 'LON',
      check_in: futureDate(60),
      check_out: futureDate(63),
      rooms: [{ adults: 2, children: 0, child_ages: [] }],
      currency: 'GBP',
      company_code: 'SANDBOX',
      user_code: 'AGENT1',
    }),
    202,
  );
  const batch = ok(await call('GET', `/api/v1/hotel/search/batch/${started.body.search_id}?timeout=30`));
  const list = (batch.body.results_by_provider?.hotelbeds ?? []) as Array<Record<string, any>>;
  const rate = list.find((o) => o.refundable) ?? list[0];
  if (!rate) throw new Error('no hotelbeds rate');
  const booked = ok(
    await call('POST', '/api/v1/hotel/book', {
      rate_key: rate.rate_key,
      provider: 'hotelbeds',
      guests: [
        { room: 1, type: 'AD', first_name: 'Ada', last_name: 'Lovelace' },
        { room: 1, type: 'AD', first_name: 'Alan', last_name: 'Turing' },
      ],
      contact_email: 'ada@example.test',
      contact_phone: '+447700900123',
    }),
  ).body;
  return { id: booked.booking_id as number, ref: booked.supplier_booking_ref as string };
}

async function transfer() {
  const started = ok(
    await call('POST', '/api/v1/transport/search', {
      pickup_location: 'DXB',
      dropoff_location: 'Atlantis The Palm, Dubai',
      pickup_datetime: `${futureDate(50)}T14:30`,
      passengers: 2,
      currency: 'AED',
    }),
    202,
  );
  const batch = ok(await call('GET', `/api/v1/transport/search/batch/${started.body.search_id}?timeout=30`));
  const offer = (batch.body.results_by_provider?.hotelbeds_transfers ?? [])[0];
  if (!offer) throw new Error('no hotelbeds_transfers offer');
  const booked = ok(
    await call('POST', '/api/v1/transport/book', {
      quote_id: offer.quote_id,
      provider: 'hotelbeds_transfers',
      passengers: [{ first_name: 'Ada', last_name: 'Lovelace' }],
      contact: { email: 'ada@example.test', phone: '+447700900123' },
    }),
  ).body;
  return { id: booked.booking_id as number, ref: booked.supplier_booking_ref as string };
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'travel-sandbox-restart-'));
  env = { DATA_DIR: dataDir, SANDBOX_LATENCY_MS: '0', PASSWORD_SCRYPT_N: '1024' };
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const db = await freshDatabase(url);
    env.DATABASE_URL = db.url;
    dropDb = () => db.drop();
  }
}, 60_000);

afterAll(async () => {
  await server?.stop('SIGKILL');
  await dropDb?.();
  await rm(dataDir, { recursive: true, force: true });
});

describe('pnpm start, book, stop, pnpm start again on the same DATA_DIR', () => {
  it('every booking reads, its ticket status and supplier order answer; nothing is handed out twice', async () => {
    await start();
    const flights = [
      await ticketedFlight('amadeus'),
      await ticketedFlight('duffel'),
      await ticketedFlight('mystifly'),
    ];
    const h = await hotel();
    const t = await transfer();
    // kill -9, not a drain: what the emulators answered must already be on disk (no flush at exit).
    await server?.stop('SIGKILL');

    await start();
    for (const f of flights) {
      const byId = ok(await call('GET', `/api/v1/bookings/${f.id}`)).body;
      expect([byId.pnr, byId.status]).toEqual([f.pnr, 'ticketed']);
      expect(ok(await call('GET', `/api/v1/bookings/${f.pnr}`)).body.booking_id).toBe(f.id);
      expect(await ticketStatus(f.sup, f.id)).toBe(HAS_TICKET_STATUS[f.sup] ? true : undefined);
      expect(await ticketNumbers(f.id)).toEqual(f.tickets);
      const order = ok(await call('GET', `/api/v1/bookings/${f.id}/order`)).body;
      expect(order.pnr).toBe(f.pnr);
    }
    expect(ok(await call('GET', `/api/v1/hotel/bookings/${h.id}`)).body.status).toBe('confirmed');
    expect(ok(await call('GET', `/api/v1/transport/bookings/${t.id}`)).body.status).toBe('confirmed');

    // New bookings while the first ones are still live: nothing the first run handed out comes again.
    const again = [
      await ticketedFlight('amadeus'),
      await ticketedFlight('duffel'),
      await ticketedFlight('mystifly'),
    ];
    const oldPnrs = new Set(flights.map((f) => f.pnr));
    const oldTickets = new Set(flights.flatMap((f) => f.tickets));
    for (const f of again) {
      expect(oldPnrs.has(f.pnr), f.pnr).toBe(false);
      for (const n of f.tickets) expect(oldTickets.has(n), n).toBe(false);
    }
    const h2 = await hotel();
    const t2 = await transfer();
    expect(h2.ref).not.toBe(h.ref);
    expect(t2.ref).not.toBe(t.ref);

    // The suppliers still hold the first run's hotel and transfer: they cancel there.
    expect(ok(await call('POST', `/api/v1/hotel/bookings/${h.id}/cancel`, {})).body.status).toBe('cancelled');
    expect(ok(await call('POST', `/api/v1/transport/bookings/${t.id}/cancel`, {})).body.status).toBe(
      'cancelled',
    );
    await server?.stop();
  }, 180_000);
});
