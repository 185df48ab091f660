/**
 * kill -9 inside hotel book, at each boundary, on Hotelbeds and Duffel Stays at once; then a restart on
 * the same data (PGlite DATA_DIR, or the PostgreSQL database when TEST_DATABASE_URL is set). Each key must
 * end with exactly one booking row, at most one supplier booking (exactly one once the call reached the
 * supplier), settled by reconciliation within 30 s, and the same-key retry answers that settled booking:
 * never a second supplier booking.
 *
 * Boundaries: the test-only fault hooks (TEST_FAULT_HOOKS=1) block the request at `hotelBook:before-supplier`,
 * `hotelBook:after-supplier` or `hotelBook:before-commit` (inside the settling transaction); "during the
 * supplier call" is a gate in front of the emulator's booking route, opened after the kill so the supplier
 * books for a caller that is gone. The emulators run in this process over HTTP, so their state outlives
 * the server.
 */
import {
  amadeusHandlers,
  duffelHandlers,
  hotelbedsHandlers,
  type MockSupplier,
  serveHandlers,
  startMockServers,
} from '@travel/mock-server';
import { http, type RequestHandler } from 'msw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { futureDate } from '../harness/flight-search.ts';
import {
  SANDBOX_ADMIN as ADMIN,
  SANDBOX_AGENT as AGENT,
  api,
  type Child,
  type FaultStore,
  faultEnv,
  faultStore,
  HoldGate,
  login,
  startChild,
  until,
} from './harness.ts';

const LEASE_SECONDS = 2;
const CALL_WINDOW_SECONDS = 3;
const SETTLE_DEADLINE_MS = 30_000;

type Provider = 'hotelbeds' | 'duffel_stays';
const PROVIDERS: Provider[] = ['hotelbeds', 'duffel_stays'];
type Boundary = 'before-supplier' | 'during-supplier' | 'after-supplier' | 'before-commit';

/** One booking at a hotel supplier: the client reference we sent and its reference there. */
interface HotelSupplierBooking {
  ref: string | undefined;
  reference: string;
}

/**
 * The hotel emulators (Hotelbeds; Duffel, whose Stays API lives beside its flights) over HTTP with a gate
 * in front of each booking route, and the other sandbox suppliers as usual.
 */
async function startHotelEmulators() {
  const rest = await startMockServers({
    options: { latencyMs: 0, seed: 7 },
    suppliers: ['mystifly', 'hotelbeds-transfers', 'stripe'],
  });
  const urls: Partial<Record<MockSupplier, string>> = { ...rest.urls };
  const gates = { hotelbeds: new HoldGate(), duffel_stays: new HoldGate() } as Record<Provider, HoldGate>;
  const closers: Array<() => Promise<void>> = [rest.close];
  const states: Record<string, any> = {};
  const made = [
    { name: 'hotelbeds', create: hotelbedsHandlers, path: '/hotel-api/1.0/bookings', gate: gates.hotelbeds },
    { name: 'duffel', create: duffelHandlers, path: '/stays/bookings', gate: gates.duffel_stays },
    { name: 'amadeus', create: amadeusHandlers, path: undefined, gate: undefined },
  ] as const;
  for (const m of made) {
    const handlers: RequestHandler[] = [];
    const served = await serveHandlers(handlers, { host: '127.0.0.1', port: 0 });
    const e = m.create({ baseUrl: served.url, latencyMs: 0, seed: 7 });
    const gate = m.gate;
    if (gate && m.path) {
      handlers.push(
        http.post(`${served.url}${m.path}`, async () => {
          await gate.pass();
          return undefined; // on to the emulator's own handler
        }),
      );
    }
    handlers.push(...(e.handlers as RequestHandler[]));
    states[m.name] = e.state;
    urls[m.name] = served.url;
    closers.push(async () => {
      gate?.open();
      await served.close();
    });
  }
  return {
    urls,
    gates,
    bookings(p: Provider): HotelSupplierBooking[] {
      if (p === 'hotelbeds')
        return [...states.hotelbeds.bookings.values()].map((b: any) => ({
          ref: b.clientReference,
          reference: b.reference,
        }));
      return [...states.duffel.staysBookings.values()].map((b: any) => ({
        ref: b.metadata?.client_reference,
        reference: b.id,
      }));
    },
    async close() {
      await Promise.all(closers.map((c) => c()));
    },
  };
}

describe('kill -9 inside hotel book', () => {
  let emulators: Awaited<ReturnType<typeof startHotelEmulators>>;
  let store: FaultStore;
  let env: Record<string, string>;
  let agent: string;
  let admin: string;
  let server: Child | undefined;

  beforeAll(async () => {
    emulators = await startHotelEmulators();
    store = await faultStore();
    env = faultEnv(store, emulators, {
      IDEMPOTENCY_LEASE_SECONDS: String(LEASE_SECONDS),
      BOOKING_CALL_WINDOW_SECONDS: String(CALL_WINDOW_SECONDS),
    });
    server = await startChild(env);
    agent = await login(server, AGENT);
    admin = await login(server, ADMIN);
    await server.stop();
    server = undefined;
  }, 60_000);

  afterAll(async () => {
    await server?.kill9();
    await emulators?.close();
    await store?.drop();
  });

  /** A rate per provider for two adults, through the search API. */
  async function rates(s: Child): Promise<Record<Provider, string>> {
    const started = await api(s.url, 'POST', '/api/v1/hotel/search', {
      token: agent,
      body: {
        destination: 'LON',
        check_in: futureDate(60),
        check_out: futureDate(63),
        rooms: [{ adults: 2, children: 0, child_ages: [] }],
        currency: 'GBP',
        company_code: 'SANDBOX',
        user_code: 'AGENT1',
      },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const batch = await api(s.url, 'GET', `/api/v1/hotel/search/batch/${started.body.search_id}?timeout=30`, {
      token: agent,
    });
    const out = {} as Record<Provider, string>;
    for (const p of PROVIDERS) {
      const list = (batch.body.results_by_provider?.[p] ?? []) as Array<Record<string, any>>;
      const hit = list.find((o) => o.refundable) ?? list[0];
      if (!hit) throw new Error(`no ${p} rate: ${JSON.stringify(batch.body).slice(0, 300)}`);
      out[p] = hit.rate_key as string;
    }
    return out;
  }

  /** The bookings of one key (its contact email), as the admin list shows them. */
  async function bookingsFor(s: Child, email: string) {
    const r = await api(
      s.url,
      'GET',
      `/api/v1/admin/hotel-bookings?page_size=100&search=${encodeURIComponent(email)}`,
      { token: admin },
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return (r.body.items as Array<Record<string, any>>).filter((b) => b.contact_email === email);
  }

  const book = (s: Child, key: string, body: unknown) =>
    api(s.url, 'POST', '/api/v1/hotel/book', { token: agent, key, body });

  async function crashAt(boundary: Boundary, run: string) {
    const hooked = boundary !== 'during-supplier';
    const a = await startChild({
      ...env,
      ...(hooked ? { TEST_FAULT_HOOKS: '1', TEST_FAULT_AT: `hotelBook:${boundary}` } : {}),
    });
    server = a;
    const picked = await rates(a);
    const before = Object.fromEntries(PROVIDERS.map((p) => [p, emulators.bookings(p).length]));
    const booked = () =>
      until('the emulators book the calls', 10_000, async () => {
        const n = PROVIDERS.filter((p) => emulators.bookings(p).length > (before[p] as number));
        return n.length === PROVIDERS.length ? { done: true, value: n } : { done: false, seen: n };
      });
    // Lined up in the supplier call first: before-commit blocks inside a transaction, which on PGlite (one
    // connection) would otherwise keep the other request from even writing ahead.
    const gated = boundary === 'during-supplier' || boundary === 'before-commit';
    if (gated) for (const p of PROVIDERS) emulators.gates[p].close();
    const calls = PROVIDERS.map((provider) => {
      const key = `hotel-fault-${run}-${boundary}-${provider}`;
      const email = `${key}@example.test`;
      const body = {
        rate_key: picked[provider],
        provider,
        guests: [
          { room: 1, type: 'AD', first_name: 'Ada', last_name: 'Lovelace' },
          { room: 1, type: 'AD', first_name: 'Alan', last_name: 'Turing' },
        ],
        contact_email: email,
        contact_phone: '+447700900123',
        client_ref: key,
      };
      return { provider, key, email, body, answer: book(a, key, body).catch((err: unknown) => err) };
    });
    if (gated) await Promise.all(PROVIDERS.map((p) => emulators.gates[p].arrived(1)));
    if (boundary === 'before-commit') {
      for (const p of PROVIDERS) emulators.gates[p].open();
      await booked();
      // One request holds the settling transaction open at the hook; none has committed.
      await a.printed(`fault-hook reached hotelBook:${boundary}`, 1);
    } else if (hooked) await a.printed(`fault-hook reached hotelBook:${boundary}`, PROVIDERS.length);
    await a.kill9();
    for (const c of calls) expect(await c.answer).toBeInstanceOf(Error);
    if (boundary === 'during-supplier') {
      // The supplier goes on with calls whose caller died.
      for (const p of PROVIDERS) emulators.gates[p].open();
      await booked();
    }
    server = await startChild(env);
    return { calls, before, server };
  }

  const boundaries: Boundary[] = ['before-supplier', 'during-supplier', 'after-supplier', 'before-commit'];
  for (const boundary of boundaries) {
    it(`at ${boundary}: one row and ${boundary === 'before-supplier' ? 'no' : 'one'} supplier booking per key, settled by reconciliation, the retry answers it`, async () => {
      const { calls, before, server: b } = await crashAt(boundary, 'a');
      const reached = boundary !== 'before-supplier';
      const restartedAt = Date.now();
      for (const c of calls) {
        const settled = await until(
          `${c.provider} settled`,
          SETTLE_DEADLINE_MS - (Date.now() - restartedAt),
          async () => {
            const rows = await bookingsFor(b, c.email);
            const row = rows[0];
            return rows.length === 1 && row && row.status !== 'pending'
              ? { done: true, value: row }
              : { done: false, seen: rows.map((r) => r.status) };
          },
        );
        const atSupplier = emulators.bookings(c.provider).slice(before[c.provider] as number);
        expect([c.provider, atSupplier.length]).toEqual([c.provider, reached ? 1 : 0]);
        if (reached) {
          expect([c.provider, settled.status]).toEqual([c.provider, 'confirmed']);
          expect(settled.supplier_booking_ref).toBe(atSupplier[0]?.reference);
        } else {
          // Nothing reached the supplier: after the call window the booking is failed, with no reservation.
          expect([c.provider, settled.status, settled.supplier_booking_ref]).toEqual([
            c.provider,
            'failed',
            null,
          ]);
        }

        // The same key after the restart: the settled booking, never a second supplier booking.
        const retry = await book(b, c.key, c.body);
        expect([c.provider, retry.status], JSON.stringify(retry.body)).toEqual([c.provider, 200]);
        expect(retry.body).toMatchObject({ booking_id: settled.booking_id, status: settled.status });
        const replay = await book(b, c.key, c.body);
        expect(replay.headers.get('idempotent-replayed')).toBe('true');
        expect(replay.body).toEqual(retry.body);
        expect(await bookingsFor(b, c.email)).toHaveLength(1);
        expect(emulators.bookings(c.provider).slice(before[c.provider] as number)).toHaveLength(
          reached ? 1 : 0,
        );
      }
      // Every client reference the suppliers hold is there once.
      for (const p of PROVIDERS) {
        const refs = emulators.bookings(p).map((x) => x.ref);
        expect(new Set(refs).size).toBe(refs.length);
      }
      await b.stop();
      server = undefined;
    }, 90_000);
  }
});
