/**
 * kill -9 inside a flight booking cancel while the supplier's cancel call is in flight (Amadeus DELETE,
 * Duffel's cancellation confirm, held at the emulator and let through after the kill, so the supplier
 * cancels for a caller that is gone), on an Amadeus and a Duffel booking with a card hold at once; then a
 * restart on the same data (PGlite DATA_DIR, or a PostgreSQL database when TEST_DATABASE_URL is set).
 *
 * The supplier's truth wins: reconciliation (or the same-key retry) asks the supplier for the order, finds
 * it cancelled, cancels the booking and voids the hold; the same-key retry answers the cancellation (200,
 * replayed), never 400 `cancellation_failed`. Exactly one cancellation at the supplier, one void at Stripe.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { futureDate, oneWaySearch } from '../harness/flight-search.ts';
import {
  api,
  type Child,
  FAULT_CONTACT as contact,
  type FaultEmulators,
  type FaultStore,
  faultEnv,
  faultStore,
  login,
  FAULT_PASSENGER as passenger,
  startChild,
  startFaultEmulators,
  until,
} from './harness.ts';

const LEASE_SECONDS = 2;
const JOBS_LEASE_MS = 1_500;
const SETTLE_DEADLINE_MS = 30_000;
type Sup = 'amadeus' | 'duffel';
const SUPS: Sup[] = ['amadeus', 'duffel'];
const ROUTES: Record<Sup, [string, string]> = { duffel: ['LHR', 'BCN'], amadeus: ['LHR', 'DXB'] };

interface Booking {
  sup: Sup;
  id: number;
  pnr: string;
  key: string;
}

describe('kill -9 inside a flight booking cancel', () => {
  let emulators: FaultEmulators;
  let store: FaultStore | undefined;
  let server: Child | undefined;
  let agent = '';
  let round = 0;

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

  const call = (s: Child, method: string, path: string, o: { key?: string; body?: unknown } = {}) =>
    api(s.url, method, path, { token: agent, ...o });

  /** A confirmed booking per supplier with its card hold (AUTHORIZED): status payment_pending. */
  async function prepare(s: Child): Promise<Booking[]> {
    return Promise.all(
      SUPS.map(async (sup) => {
        const [origin, destination] = ROUTES[sup];
        const started = await call(s, 'POST', '/api/v1/flight/getFare', {
          body: oneWaySearch(origin, destination, futureDate(60)),
        });
        expect(started.status, JSON.stringify(started.body)).toBe(202);
        const batch = await call(
          s,
          'GET',
          `/api/v1/flight/getFare/batch/${started.body.searchId}?timeout=30`,
        );
        const list = (batch.body.results_by_gds?.[sup] ?? []) as Array<Record<string, any>>;
        const hit = list.find((o) => !o.lcc && !(sup === 'duffel' && o.validating_carrier === 'W6'));
        if (!hit) throw new Error(`no bookable ${sup} offer`);
        const created = await call(s, 'POST', '/api/v1/bookings/createPnr', {
          key: `cancel-pnr-${sup}-${round}`,
          body: { offer_id: hit.offer_id, currency: hit.price.currency, passengers: [passenger], contact },
        });
        expect(created.status, JSON.stringify(created.body)).toBe(200);
        const id = created.body.booking_id as number;
        const auth = await call(s, 'POST', `/api/v1/bookings/${id}/authorize`, {
          key: `cancel-auth-${sup}-${round}`,
          body: {
            token: 'tok_sandbox_ok',
            currency: created.body.pricing.currency,
            amount_minor: created.body.pricing.total_minor,
          },
        });
        expect(auth.status, JSON.stringify(auth.body)).toBe(200);
        return { sup, id, pnr: created.body.pnr, key: `cancel-${sup}-${round}` };
      }),
    );
  }

  /** PaymentIntents of earlier rounds (each round has a fresh database, so booking ids repeat). */
  let earlier = new Set<string>();
  const intents = (b: Booking) =>
    [...emulators.stripe.paymentIntents.values()].filter(
      (pi) => !earlier.has(pi.id) && pi.metadata.booking_id === String(b.id),
    );

  async function view(s: Child, b: Booking) {
    const [bk, hist] = await Promise.all([
      call(s, 'GET', `/api/v1/bookings/${b.id}`),
      call(s, 'GET', `/api/v1/bookings/${b.id}/payment/history`),
    ]);
    expect(bk.status, JSON.stringify(bk.body)).toBe(200);
    const payments = hist.body.payments as Array<Record<string, any>>;
    return { status: bk.body.status as string, payments: payments.map((p) => p.state as string) };
  }

  /**
   * Starts a server, holds both cancels inside the supplier call, kills it -9 there, lets the suppliers
   * cancel for the dead caller, and (after `beforeRestart`) restarts on the same data.
   */
  async function crash(extra: Record<string, string>, beforeRestart?: () => Promise<void>) {
    round += 1;
    store = await faultStore();
    earlier = new Set(emulators.stripe.paymentIntents.keys());
    const env = faultEnv(store, emulators, {
      IDEMPOTENCY_LEASE_SECONDS: String(LEASE_SECONDS),
      BOOKING_CALL_WINDOW_SECONDS: '3',
      MONEY_RECONCILE_DELAY_MS: '500',
      ...extra,
    });
    const a = await startChild(env);
    server = a;
    agent = await login(a);
    const bookings = await prepare(a);
    const gates = [emulators.moneyGates['amadeus-cancel'], emulators.moneyGates['duffel-cancel']];
    for (const g of gates) g.close();
    const answers = bookings.map((b) =>
      call(a, 'POST', `/api/v1/bookings/${b.id}/cancel`, { key: b.key, body: {} }).catch((e) => e),
    );
    await Promise.all(gates.map((g) => g.arrived(1)));
    await a.kill9();
    for (const r of answers) expect(await r).toBeInstanceOf(Error);
    for (const g of gates) g.open();
    await until('the suppliers cancel for the dead caller', 10_000, async () => {
      const seen = bookings.map((b) => emulators.cancelled(b.sup, b.pnr));
      return seen.every(Boolean) ? { done: true, value: seen } : { done: false, seen };
    });
    await beforeRestart?.();
    server = await startChild(env);
    agent = await login(server);
    return { bookings, server };
  }

  /** The end state every case must reach: cancelled here as there, the hold voided once. */
  async function expectSettled(s: Child, bookings: Booking[]) {
    for (const b of bookings) {
      const v = await view(s, b);
      expect.soft([b.sup, v.status, v.payments]).toEqual([b.sup, 'cancelled', ['VOIDED']]);
      const pis = intents(b);
      expect.soft([b.sup, pis.length, pis[0]?.status]).toEqual([b.sup, 1, 'canceled']);
      expect.soft([b.sup, emulators.cancelled(b.sup, b.pnr)]).toEqual([b.sup, true]);
    }
  }

  async function expectRetryAnswers(s: Child, bookings: Booking[]) {
    for (const b of bookings) {
      const retry = await until(`${b.sup} retry answered`, SETTLE_DEADLINE_MS, async () => {
        const r = await call(s, 'POST', `/api/v1/bookings/${b.id}/cancel`, { key: b.key, body: {} });
        return r.status === 409 ? { done: false, seen: r.body } : { done: true, value: r };
      });
      expect.soft([b.sup, retry.status], JSON.stringify(retry.body)).toEqual([b.sup, 200]);
      expect.soft(retry.body).toMatchObject({ booking_id: b.id, status: 'cancelled', cancelled: true });
      const replay = await call(s, 'POST', `/api/v1/bookings/${b.id}/cancel`, { key: b.key, body: {} });
      expect.soft(replay.headers.get('idempotent-replayed')).toBe('true');
      expect.soft(replay.body).toEqual(retry.body);
    }
  }

  it('reconciliation asks the supplier, cancels the booking and voids the hold; the retry answers it', async () => {
    const { bookings, server: s } = await crash({});
    await until('cancels settled by reconciliation', SETTLE_DEADLINE_MS, async () => {
      const views = await Promise.all(bookings.map((b) => view(s, b)));
      const done = views.every((v) => v.status === 'cancelled' && v.payments[0] === 'VOIDED');
      return done ? { done: true, value: views } : { done: false, seen: views };
    });
    await expectSettled(s, bookings);
    await expectRetryAnswers(s, bookings);
    await expectSettled(s, bookings);
  }, 120_000);

  it('a same-key retry right after the restart asks the supplier and answers the cancellation', async () => {
    // The job looks late: the retry is first to meet the dead request's op.
    const { bookings, server: s } = await crash({ MONEY_RECONCILE_DELAY_MS: '60000' });
    await expectRetryAnswers(s, bookings);
    await expectSettled(s, bookings);
  }, 120_000);

  it('a restart slower than the idempotency and job leases: settled, the retry answers the settled cancel', async () => {
    const { bookings, server: s } = await crash({ JOBS_LEASE_MS: String(JOBS_LEASE_MS) }, async () => {
      // The restart comes after every lease the dead process held has lapsed.
      const lapsed = Date.now() + Math.max(LEASE_SECONDS * 1000, JOBS_LEASE_MS) + 500;
      await until('the leases lapse', 10_000, async () =>
        Date.now() > lapsed ? { done: true, value: null } : { done: false, seen: Date.now() },
      );
    });
    await until('cancels settled by reconciliation', SETTLE_DEADLINE_MS, async () => {
      const views = await Promise.all(bookings.map((b) => view(s, b)));
      const done = views.every((v) => v.status === 'cancelled' && v.payments[0] === 'VOIDED');
      return done ? { done: true, value: views } : { done: false, seen: views };
    });
    await expectRetryAnswers(s, bookings);
    await expectSettled(s, bookings);
  }, 120_000);
});
