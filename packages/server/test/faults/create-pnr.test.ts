/**
 * kill -9 inside createPnr, at each boundary, on all three flight suppliers at once; then a restart on the
 * same data (PGlite DATA_DIR, or the PostgreSQL database when TEST_DATABASE_URL is set). Each key must end
 * with exactly one booking row, at most one supplier order (exactly one once the call reached the
 * supplier), settled by reconciliation within 30 s, and the same-key retry answers that settled booking:
 * never a second order, never a 409 once the dead request's lease has lapsed.
 *
 * Boundaries: the test-only fault hooks (TEST_FAULT_HOOKS=1) block the request at
 * `createPnr:before-supplier`, `createPnr:after-supplier` or `createPnr:before-commit` (inside the settling
 * transaction); "during the supplier call" is the emulator's gate holding the order request, opened after
 * the kill so the supplier books for a caller that is gone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { futureDate, oneWaySearch } from '../harness/flight-search.ts';
import {
  SANDBOX_ADMIN as ADMIN,
  SANDBOX_AGENT as AGENT,
  api,
  type Child,
  FAULT_CONTACT as contact,
  type FaultEmulators,
  type FaultStore,
  FLIGHT_SUPPLIERS,
  type FlightSupplier,
  faultEnv,
  faultStore,
  login,
  FAULT_PASSENGER as passenger,
  startChild,
  startFaultEmulators,
  until,
} from './harness.ts';

const LEASE_SECONDS = 2;
const CALL_WINDOW_SECONDS = 3;
const SETTLE_DEADLINE_MS = 30_000;
const ROUTES: Record<FlightSupplier, [string, string]> = {
  duffel: ['LHR', 'BCN'],
  amadeus: ['LHR', 'DXB'],
  mystifly: ['DAC', 'LHR'],
};
const UNSETTLED = new Set(['initiated', 'pending_pnr']);

type Boundary = 'before-supplier' | 'during-supplier' | 'after-supplier' | 'before-commit';

describe('kill -9 inside createPnr', () => {
  let emulators: FaultEmulators;
  let store: FaultStore;
  let env: Record<string, string>;
  let agent: string;
  let admin: string;
  let server: Child | undefined;

  beforeAll(async () => {
    emulators = await startFaultEmulators();
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

  /** A bookable offer per supplier (held fares; no low-cost content, which cannot be held). */
  async function offers(s: Child): Promise<Record<FlightSupplier, { offer_id: string; currency: string }>> {
    const out = {} as Record<FlightSupplier, { offer_id: string; currency: string }>;
    await Promise.all(
      FLIGHT_SUPPLIERS.map(async (sup) => {
        const [origin, destination] = ROUTES[sup];
        const started = await api(s.url, 'POST', '/api/v1/flight/getFare', {
          token: agent,
          body: oneWaySearch(origin, destination, futureDate(60)),
        });
        expect(started.status, JSON.stringify(started.body)).toBe(202);
        const batch = await api(
          s.url,
          'GET',
          `/api/v1/flight/getFare/batch/${started.body.searchId}?timeout=30`,
          {
            token: agent,
          },
        );
        const list = (batch.body.results_by_gds?.[sup] ?? []) as Array<Record<string, any>>;
        const hit = list.find((o) => !o.lcc && !(sup === 'duffel' && o.validating_carrier === 'W6'));
        if (!hit) throw new Error(`no bookable ${sup} offer: ${JSON.stringify(batch.body).slice(0, 300)}`);
        out[sup] = { offer_id: hit.offer_id, currency: hit.price.currency };
      }),
    );
    return out;
  }

  /** The bookings carrying our `client_ref` (the caller's own reference), as the admin list shows them. */
  async function bookingsFor(s: Child, clientRef: string) {
    const r = await api(s.url, 'GET', `/api/v1/admin/bookings?search=${encodeURIComponent(clientRef)}`, {
      token: admin,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return (r.body.items as Array<Record<string, any>>).filter((b) => b.client_ref === clientRef);
  }

  const createPnr = (s: Child, key: string, body: unknown) =>
    api(s.url, 'POST', '/api/v1/bookings/createPnr', { token: agent, key, body });

  /**
   * Starts a server that stops at `boundary`, sends one createPnr per supplier, kills it -9 there, and
   * restarts on the same data. Returns the requests (key, body) and the supplier order counts before.
   */
  async function crashAt(boundary: Boundary, run: string) {
    const hooked = boundary !== 'during-supplier';
    const a = await startChild({
      ...env,
      ...(hooked ? { TEST_FAULT_HOOKS: '1', TEST_FAULT_AT: `createPnr:${boundary}` } : {}),
    });
    server = a;
    const picked = await offers(a);
    const before = Object.fromEntries(FLIGHT_SUPPLIERS.map((s) => [s, emulators.orders(s).length]));
    const booked = () =>
      until('the emulators book the calls', 10_000, async () => {
        const n = FLIGHT_SUPPLIERS.filter((s) => emulators.orders(s).length > (before[s] as number));
        return n.length === FLIGHT_SUPPLIERS.length ? { done: true, value: n } : { done: false, seen: n };
      });
    // Lined up in the supplier call first: before-commit blocks inside a transaction, which on PGlite (one
    // connection) would otherwise keep the other requests from even writing ahead.
    const gated = boundary === 'during-supplier' || boundary === 'before-commit';
    if (gated) for (const s of FLIGHT_SUPPLIERS) emulators.gates[s].close();
    const calls = FLIGHT_SUPPLIERS.map((sup) => {
      const key = `fault-${run}-${boundary}-${sup}`;
      const body = {
        offer_id: picked[sup].offer_id,
        currency: picked[sup].currency,
        passengers: [passenger],
        contact,
        client_ref: key,
      };
      return { sup, key, body, answer: createPnr(a, key, body).catch((err: unknown) => err) };
    });
    if (gated) await Promise.all(FLIGHT_SUPPLIERS.map((s) => emulators.gates[s].arrived(1)));
    if (boundary === 'before-commit') {
      for (const s of FLIGHT_SUPPLIERS) emulators.gates[s].open();
      await booked();
      // One request holds the settling transaction open at the hook; none has committed.
      await a.printed(`fault-hook reached createPnr:${boundary}`, 1);
    } else if (hooked) await a.printed(`fault-hook reached createPnr:${boundary}`, FLIGHT_SUPPLIERS.length);
    await a.kill9();
    const killedAt = Date.now();
    // No request got an answer: each was cut by the kill.
    for (const c of calls) expect(await c.answer).toBeInstanceOf(Error);
    if (boundary === 'during-supplier') {
      // The supplier goes on with calls whose caller died.
      for (const s of FLIGHT_SUPPLIERS) emulators.gates[s].open();
      await booked();
    }
    server = await startChild(env);
    return { calls, before, killedAt, server };
  }

  const boundaries: Boundary[] = ['before-supplier', 'during-supplier', 'after-supplier', 'before-commit'];
  for (const boundary of boundaries) {
    it(`at ${boundary}: one row and ${boundary === 'before-supplier' ? 'no' : 'one'} supplier order per key, settled by reconciliation, the retry answers it`, async () => {
      const { calls, before, server: b } = await crashAt(boundary, 'a');
      const orderExpected = boundary !== 'before-supplier';
      const restartedAt = Date.now();
      for (const c of calls) {
        const settled = await until(
          `${c.sup} settled`,
          SETTLE_DEADLINE_MS - (Date.now() - restartedAt),
          async () => {
            const rows = await bookingsFor(b, c.key);
            const row = rows[0];
            return rows.length === 1 && row && !UNSETTLED.has(row.status)
              ? { done: true, value: row }
              : { done: false, seen: rows.map((r) => r.status) };
          },
        );
        const orders = emulators.orders(c.sup).slice(before[c.sup] as number);
        expect([c.sup, orders.length]).toEqual([c.sup, orderExpected ? 1 : 0]);
        if (orderExpected) {
          expect([c.sup, settled.status]).toEqual([c.sup, 'confirmed']);
          expect(settled.pnr).toBe(orders[0]?.pnr);
        } else {
          // Nothing reached the supplier: after the call window the booking is failed, with no order.
          expect([c.sup, settled.status, settled.pnr]).toEqual([c.sup, 'pnr_failed', null]);
        }

        // The same key after the restart: the settled booking, never a 409 (the lease lapsed), never a new order.
        const retry = await createPnr(b, c.key, c.body);
        expect([c.sup, retry.status], JSON.stringify(retry.body)).toEqual([c.sup, 200]);
        expect(retry.body).toMatchObject({ booking_id: settled.booking_id, status: settled.status });
        const replay = await createPnr(b, c.key, c.body);
        expect(replay.headers.get('idempotent-replayed')).toBe('true');
        expect(replay.body).toEqual(retry.body);
        expect(await bookingsFor(b, c.key)).toHaveLength(1);
        expect(emulators.orders(c.sup).slice(before[c.sup] as number)).toHaveLength(orderExpected ? 1 : 0);
        // Issue 30: the killed transaction left no event; the settlement wrote exactly one, with its status.
        const events = await until(`${c.sup} event`, SETTLE_DEADLINE_MS, async () => {
          const r = await api(
            b.url,
            'GET',
            `/api/v1/events?resource_type=booking&resource_id=${settled.booking_id}`,
            { token: agent },
          );
          const data = (r.body?.data ?? []) as Array<{ type: string; data: { status: string } }>;
          return data.length > 0 ? { done: true, value: data } : { done: false, seen: r.status };
        });
        expect([c.sup, events.map((e) => [e.type, e.data.status])]).toEqual([
          c.sup,
          [['booking.created', settled.status]],
        ]);
      }
      // Every client reference the suppliers hold is there once.
      for (const s of FLIGHT_SUPPLIERS) {
        const refs = emulators.orders(s).map((o) => o.ref);
        expect(new Set(refs).size).toBe(refs.length);
      }
      await b.stop();
      server = undefined;
    }, 90_000);
  }

  it('a retry right after the restart: 409 only while the dead request’s lease runs, then the order found by its reference', async () => {
    const { calls, before, killedAt, server: b } = await crashAt('after-supplier', 'b');
    for (const c of calls) {
      const answer = await until(`${c.sup} retry answered`, LEASE_SECONDS * 1000 + 10_000, async () => {
        const r = await createPnr(b, c.key, c.body);
        if (r.status === 409) {
          expect(r.body.code).toBe('idempotency_in_progress');
          return { done: false, seen: r.status };
        }
        return { done: true, value: r };
      });
      // The first answer other than 409 came no later than one lease after the kill (plus the restart).
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body.status).toBe('confirmed');
      const orders = emulators.orders(c.sup).slice(before[c.sup] as number);
      expect(orders).toHaveLength(1);
      expect(answer.body.pnr).toBe(orders[0]?.pnr);
      expect(await bookingsFor(b, c.key)).toHaveLength(1);
    }
    expect(Date.now() - killedAt).toBeLessThan(60_000);
    await b.stop();
    server = undefined;
  }, 90_000);
});
