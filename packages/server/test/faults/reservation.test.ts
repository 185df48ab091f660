/**
 * kill -9 inside a hotel cancel (Hotelbeds DELETE), a transfer book and a transfer cancel (Hotelbeds
 * Transfers), each held at the emulator's gate and let through after the kill (the supplier acts for a
 * caller that is gone); then a restart on the same data (PGlite DATA_DIR, or a PostgreSQL database when
 * TEST_DATABASE_URL is set), right away or slower than every lease the dead process held. The same-key
 * retry answers the truth (200, the effect the supplier made), the row agrees, and there is exactly one
 * effect at the supplier.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { futureDate } from '../harness/flight-search.ts';
import {
  api,
  type Child,
  type FaultEmulators,
  type FaultStore,
  faultEnv,
  faultStore,
  login,
  type MoneyGate,
  startChild,
  startFaultEmulators,
  until,
} from './harness.ts';

const LEASE_SECONDS = 2;
const JOBS_LEASE_MS = 1_500;
const SETTLE_DEADLINE_MS = 30_000;

interface Case {
  name: string;
  gate: MoneyGate;
  /** Readies what the request acts on; returns the request (method, path, body) and the row to read. */
  prepare(s: Child, call: Call): Promise<{ path: string; body: unknown; row: () => string | undefined }>;
  /** Effects at the supplier the request made (bookings made, or the booking cancelled). */
  effects(): number;
  /** The row's status once the effect settled. */
  settled: string;
}
type Call = (s: Child, method: string, path: string, o?: { key?: string; body?: unknown }) => Promise<any>;

const SEARCH = { company_code: 'SANDBOX', user_code: 'AGENT1' };

async function hotelBooking(s: Child, call: Call) {
  const started = await call(s, 'POST', '/api/v1/hotel/search', {
    body: {
      destination: 'LON',
      check_in: futureDate(60),
      check_out: futureDate(63),
      rooms: [{ adults: 2, children: 0, child_ages: [] }],
      currency: 'GBP',
      ...SEARCH,
    },
  });
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  const batch = await call(s, 'GET', `/api/v1/hotel/search/batch/${started.body.search_id}?timeout=30`);
  const list = (batch.body.results_by_provider?.hotelbeds ?? []) as Array<Record<string, any>>;
  const hit = list.find((o) => o.refundable) ?? list[0];
  if (!hit) throw new Error('no hotelbeds rate');
  const booked = await call(s, 'POST', '/api/v1/hotel/book', {
    key: 'hotel-book',
    body: {
      rate_key: hit.rate_key,
      provider: 'hotelbeds',
      guests: [
        { room: 1, type: 'AD', first_name: 'Ada', last_name: 'Lovelace' },
        { room: 1, type: 'AD', first_name: 'Alan', last_name: 'Turing' },
      ],
      contact_email: 'ada@example.test',
      contact_phone: '+447700900123',
    },
  });
  expect(booked.status, JSON.stringify(booked.body)).toBe(200);
  return booked.body as { booking_id: number; supplier_booking_ref: string };
}

async function transferBody(s: Child, call: Call) {
  const started = await call(s, 'POST', '/api/v1/transport/search', {
    body: {
      pickup_location: 'DXB',
      dropoff_location: 'Atlantis The Palm, Dubai',
      pickup_datetime: `${futureDate(60)}T14:30:00`,
      passengers: 2,
      luggage: 2,
      currency: 'GBP',
    },
  });
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  const batch = await call(s, 'GET', `/api/v1/transport/search/batch/${started.body.search_id}?timeout=30`);
  const hit = ((batch.body.results_by_provider?.hotelbeds_transfers ?? []) as Array<Record<string, any>>)[0];
  if (!hit) throw new Error(`no hotelbeds_transfers offer: ${JSON.stringify(batch.body).slice(0, 300)}`);
  return {
    quote_id: hit.quote_id,
    provider: 'hotelbeds_transfers',
    passengers: [{ first_name: 'Ada', last_name: 'Lovelace' }],
    contact: { email: 'ada@example.test', phone: '+447700900123' },
  };
}

describe('kill -9 inside a hotel cancel, a transfer book and a transfer cancel', () => {
  let emulators: FaultEmulators;
  let store: FaultStore | undefined;
  let server: Child | undefined;
  let agent = '';

  beforeAll(async () => {
    emulators = await startFaultEmulators();
    return async () => {
      await emulators?.close();
    };
  }, 60_000);

  afterEach(async () => {
    await server?.kill9();
    server = undefined;
    for (const g of Object.values(emulators.moneyGates)) g.open();
    await store?.drop();
    store = undefined;
  });

  const call: Call = (s, method, path, o = {}) => api(s.url, method, path, { token: agent, ...o });
  const hotelbeds = () => [...emulators.states.hotelbeds.bookings.values()] as Array<Record<string, any>>;
  const transfers = () =>
    [...emulators.states['hotelbeds-transfers'].bookings.values()] as Array<Record<string, any>>;

  let ref = '';
  let before = 0;
  const CASES: Case[] = [
    {
      name: 'hotel cancel (Hotelbeds)',
      gate: 'hotelbeds-cancel',
      async prepare(s) {
        const b = await hotelBooking(s, call);
        ref = b.supplier_booking_ref;
        return {
          path: `/api/v1/hotel/bookings/${b.booking_id}/cancel`,
          body: {},
          row: () => `/api/v1/hotel/bookings/${b.booking_id}`,
        };
      },
      effects: () => hotelbeds().filter((b) => b.reference === ref && b.status === 'CANCELLED').length,
      settled: 'cancelled',
    },
    {
      name: 'transfer book (Hotelbeds Transfers)',
      gate: 'transfers-book',
      async prepare(s) {
        const body = await transferBody(s, call);
        before = transfers().length;
        return { path: '/api/v1/transport/book', body, row: () => undefined };
      },
      effects: () => transfers().length - before,
      settled: 'confirmed',
    },
    {
      name: 'transfer cancel (Hotelbeds Transfers)',
      gate: 'transfers-cancel',
      async prepare(s) {
        const booked = await call(s, 'POST', '/api/v1/transport/book', {
          key: 'transfer-book',
          body: await transferBody(s, call),
        });
        expect(booked.status, JSON.stringify(booked.body)).toBe(200);
        ref = booked.body.supplier_booking_ref as string;
        const id = booked.body.booking_id as number;
        return {
          path: `/api/v1/transport/bookings/${id}/cancel`,
          body: {},
          row: () => `/api/v1/transport/bookings/${id}`,
        };
      },
      effects: () => transfers().filter((b) => b.reference === ref && b.status === 'CANCELLED').length,
      settled: 'cancelled',
    },
  ];

  for (const c of CASES) {
    for (const slow of [false, true]) {
      it(`${c.name}${slow ? ', restart slower than the leases' : ''}: one effect, the row agrees, the retry answers it`, async () => {
        store = await faultStore();
        const env = faultEnv(store, emulators, {
          IDEMPOTENCY_LEASE_SECONDS: String(LEASE_SECONDS),
          JOBS_LEASE_MS: String(JOBS_LEASE_MS),
          BOOKING_CALL_WINDOW_SECONDS: '3',
          MONEY_RECONCILE_DELAY_MS: '500',
        });
        const a = await startChild(env);
        server = a;
        agent = await login(a);
        const req = await c.prepare(a, call);
        const gate = emulators.moneyGates[c.gate];
        gate.close();
        const key = `fault-${c.gate}`;
        const answer = call(a, 'POST', req.path, { key, body: req.body }).catch((e: unknown) => e);
        await Promise.race([
          gate.arrived(1),
          answer.then((r) => {
            throw new Error(`answered before the supplier call: ${JSON.stringify(r)}`);
          }),
        ]);
        await a.kill9();
        expect(await answer).toBeInstanceOf(Error);
        const killedAt = Date.now();
        gate.open();
        await until('the supplier acts for the dead caller', 10_000, async () =>
          c.effects() === 1 ? { done: true, value: null } : { done: false, seen: c.effects() },
        );
        if (slow)
          await until('the leases lapse', 10_000, async () =>
            Date.now() > killedAt + Math.max(LEASE_SECONDS * 1000, JOBS_LEASE_MS) + 500
              ? { done: true, value: null }
              : { done: false, seen: Date.now() - killedAt },
          );
        const s = await startChild(env);
        server = s;
        agent = await login(s);
        const retry = await until('the same-key retry answered', SETTLE_DEADLINE_MS, async () => {
          const r = await call(s, 'POST', req.path, { key, body: req.body });
          return r.status === 409 || (r.status === 202 && c.settled === 'confirmed')
            ? { done: false, seen: [r.status, r.body] }
            : { done: true, value: r };
        });
        expect(retry.status, JSON.stringify(retry.body)).toBe(200);
        expect(retry.body.status).toBe(c.settled);
        const replay = await call(s, 'POST', req.path, { key, body: req.body });
        expect(replay.headers.get('idempotent-replayed')).toBe('true');
        expect(replay.body).toEqual(retry.body);
        // The row agrees, and the supplier acted exactly once.
        const rowPath = req.row() ?? `/api/v1/transport/bookings/${retry.body.booking_id}`;
        const row = await call(s, 'GET', rowPath);
        expect(row.status, JSON.stringify(row.body)).toBe(200);
        expect(row.body.status).toBe(c.settled);
        if (c.gate === 'transfers-book') {
          const list = await call(s, 'GET', '/api/v1/transport/bookings?page_size=100');
          expect(list.status, JSON.stringify(list.body)).toBe(200);
          expect(list.body.items).toHaveLength(1);
          expect(row.body.supplier_booking_ref).toBe(transfers().at(-1)?.reference);
        }
        expect(c.effects()).toBe(1);
      }, 120_000);
    }
  }
});
