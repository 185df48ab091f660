/**
 * kill -9 inside authorize (Stripe create), capture (during Stripe's capture) and ticket (Stripe capture, then
 * the supplier's issuance: Amadeus issuance, Duffel payment), at each boundary, on an Amadeus and a Duffel booking at once; then a restart on
 * the same data (PGlite DATA_DIR, or a PostgreSQL database when TEST_DATABASE_URL is set). Each key must end
 * with exactly one provider effect (one PaymentIntent, one capture, one ticketing at the supplier) and one
 * payment row, its intent (`booking_money_ops`) settled by reconciliation within 30 s of the restart, and
 * the same-key retry answers the settled result: never a 409 once the dead request's lease has lapsed,
 * never a second effect.
 *
 * Boundaries: the test-only fault hooks (TEST_FAULT_HOOKS=1, src/internal/fault-hooks.ts) block the request
 * before the provider call, after its answer, or inside the settling transaction; "during the call" is the
 * emulator's gate holding the request, opened after the kill so the provider acts for a caller that is gone.
 * Each case runs on a fresh database, so the reconciliation backlog in /metrics is the case's own.
 */
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/storage/database.ts';
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
  type MoneyGate,
  FAULT_PASSENGER as passenger,
  startChild,
  startFaultEmulators,
  until,
} from './harness.ts';

const LEASE_SECONDS = 2;
const SETTLE_DEADLINE_MS = 30_000;
type Sup = 'amadeus' | 'duffel';
const SUPS: Sup[] = ['amadeus', 'duffel'];
const ROUTES: Record<Sup, [string, string]> = { duffel: ['LHR', 'BCN'], amadeus: ['LHR', 'DXB'] };

type Op = 'authorize' | 'ticket' | 'capture';
interface Case {
  op: Op;
  boundary: string;
  /** The fault hook the request stops at (absent: the gate holds it inside the provider call). */
  hook?: string;
  /** Gates closed before the request: the call is held there (and, with a hook, lined up before it). */
  gates?: MoneyGate[];
  /** What the provider had done when the process died. */
  authorized?: boolean;
  captured?: boolean;
  ticketed?: boolean;
  /** The audit entry reconciliation writes when it concludes that nothing happened at the provider. */
  unconfirmed?: string;
}

const CAPTURE_GATE: MoneyGate[] = ['stripe-capture'];
const ISSUE_GATES: MoneyGate[] = ['amadeus-issue', 'duffel-pay'];
const CASES: Case[] = [
  {
    op: 'authorize',
    boundary: 'before-provider',
    hook: 'authorize:before-provider',
    unconfirmed: 'authorize_unconfirmed',
  },
  { op: 'authorize', boundary: 'during-provider', gates: ['stripe-create'], authorized: true },
  { op: 'authorize', boundary: 'after-provider', hook: 'authorize:after-provider', authorized: true },
  {
    op: 'authorize',
    boundary: 'before-commit',
    hook: 'authorize:before-commit',
    gates: ['stripe-create'],
    authorized: true,
  },
  { op: 'capture', boundary: 'during-provider', gates: CAPTURE_GATE, captured: true },
  { op: 'ticket', boundary: 'before-capture', hook: 'ticket:before-capture' },
  { op: 'ticket', boundary: 'during-capture', gates: CAPTURE_GATE, captured: true },
  { op: 'ticket', boundary: 'after-capture', hook: 'ticket:after-capture', captured: true },
  {
    op: 'ticket',
    boundary: 'before-capture-commit',
    hook: 'ticket:before-capture-commit',
    gates: CAPTURE_GATE,
    captured: true,
  },
  {
    op: 'ticket',
    boundary: 'before-supplier',
    hook: 'ticket:before-supplier',
    captured: true,
    unconfirmed: 'ticketing_unconfirmed',
  },
  { op: 'ticket', boundary: 'during-supplier', gates: ISSUE_GATES, captured: true, ticketed: true },
  {
    op: 'ticket',
    boundary: 'after-supplier',
    hook: 'ticket:after-supplier',
    captured: true,
    ticketed: true,
  },
  {
    op: 'ticket',
    boundary: 'before-commit',
    hook: 'ticket:before-commit',
    gates: ISSUE_GATES,
    captured: true,
    ticketed: true,
  },
];

interface Booking {
  sup: Sup;
  id: number;
  pnr: string;
  total: number;
  currency: string;
  key: string;
  body: Record<string, unknown>;
}

describe('kill -9 inside authorize, capture and ticket', () => {
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

  const envOf = (s: FaultStore): Record<string, string> =>
    faultEnv(s, emulators, {
      IDEMPOTENCY_LEASE_SECONDS: String(LEASE_SECONDS),
      BOOKING_CALL_WINDOW_SECONDS: '3',
      // The money job's first look after an intent (it waits while the owning request's lease is alive).
      MONEY_RECONCILE_DELAY_MS: '500',
    });

  const call = (s: Child, method: string, path: string, o: { key?: string; body?: unknown } = {}) =>
    api(s.url, method, path, { token: agent, ...o });

  /** A confirmed booking per supplier (held fares), authorized too when the case is a ticket. */
  /**
   * Which crash this is. Each case has a fresh database, so booking ids repeat, while the emulators (and
   * Stripe's idempotency keys, `bk<booking>:authorize:<key>`) live on: every key carries the round, or a
   * case repeating a boundary would meet the earlier case's Stripe key with other parameters.
   */
  let round = 0;

  async function prepare(s: Child, c: Case): Promise<Booking[]> {
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
          key: `pnr-${c.op}-${c.boundary}-${sup}-${round}`,
          body: { offer_id: hit.offer_id, currency: hit.price.currency, passengers: [passenger], contact },
        });
        expect(created.status, JSON.stringify(created.body)).toBe(200);
        const b: Booking = {
          sup,
          id: created.body.booking_id,
          pnr: created.body.pnr,
          total: created.body.pricing.total_minor,
          currency: created.body.pricing.currency,
          key: `${c.op}-${c.boundary}-${sup}-${round}`,
          body: {},
        };
        const auth = { token: 'tok_sandbox_ok', currency: b.currency, amount_minor: b.total };
        if (c.op === 'authorize') b.body = auth;
        else {
          const r = await call(s, 'POST', `/api/v1/bookings/${b.id}/authorize`, {
            key: `auth-${c.boundary}-${sup}-${round}`,
            body: auth,
          });
          expect(r.status, JSON.stringify(r.body)).toBe(200);
          b.body = c.op === 'ticket' ? { capture: true } : {};
        }
        return b;
      }),
    );
  }

  const path = (c: Case, b: Booking) =>
    `/api/v1/bookings/${b.id}/${c.op === 'capture' ? 'payment/capture' : c.op}`;

  /** PaymentIntents of earlier cases (each case has a fresh database, so booking ids repeat). */
  let earlier = new Set<string>();
  /** The Stripe emulator's PaymentIntents of a booking of this case. */
  const intents = (b: Booking) =>
    [...emulators.stripe.paymentIntents.values()].filter(
      (pi) => !earlier.has(pi.id) && pi.metadata.booking_id === String(b.id),
    );

  /** The provider effects the case's call has made so far, per booking. */
  function effects(b: Booking) {
    const pis = intents(b);
    return {
      intents: pis.length,
      captured: pis.filter((pi) => pi.amount_received > 0).length,
      received: pis.reduce((n, pi) => n + pi.amount_received, 0),
      ...emulators.ticketing(b.sup, b.pnr),
    };
  }

  /** Resolves once the provider has done what the case says it does while the caller is gone. */
  const acted = (c: Case, bs: Booking[]) =>
    until('the providers act on the held calls', 10_000, async () => {
      const seen = bs.map((b) => effects(b));
      const done = seen.every(
        (e) =>
          (!c.authorized || e.intents === 1) &&
          (!c.captured || e.captured === 1) &&
          (!c.ticketed || e.payments === 1),
      );
      return done ? { done: true, value: seen } : { done: false, seen };
    });

  async function backlog(s: Child): Promise<number> {
    const r = await fetch(`${s.url}/metrics`);
    const m = /^travel_reconciliation_backlog (\d+)/m.exec(await r.text());
    return m ? Number(m[1]) : Number.NaN;
  }

  /**
   * Starts a server stopping at the case's boundary, sends the call on both bookings, kills it -9 there,
   * and restarts on the same data.
   */
  async function crash(c: Case) {
    round += 1;
    store = await faultStore();
    earlier = new Set(emulators.stripe.paymentIntents.keys());
    const env = envOf(store);
    const a = await startChild({
      ...env,
      ...(c.hook ? { TEST_FAULT_HOOKS: '1', TEST_FAULT_AT: c.hook } : {}),
    });
    server = a;
    agent = await login(a);
    const bookings = await prepare(a, c);
    const gates = (c.gates ?? []).map((g) => emulators.moneyGates[g]);
    for (const g of gates) g.close();
    const answers = bookings.map((b) =>
      call(a, 'POST', path(c, b), { key: b.key, body: b.body }).catch((e) => e),
    );
    // Both calls go through one Stripe gate; the suppliers' gates take one each.
    const perGate = c.gates?.[0]?.startsWith('stripe') ? bookings.length : 1;
    await Promise.all(gates.map((g) => g.arrived(perGate)));
    if (c.hook && gates.length > 0) {
      // Inside the settling transaction: on PGlite (one connection) the other call waits behind it, so the
      // calls were lined up at the provider first; at least one stops at the hook, none has committed.
      for (const g of gates) g.open();
      await acted(c, bookings);
      await a.printed(`fault-hook reached ${c.hook}`, 1);
    } else if (c.hook) await a.printed(`fault-hook reached ${c.hook}`, bookings.length);
    await a.kill9();
    for (const r of answers) expect(await r).toBeInstanceOf(Error);
    if (!c.hook) {
      // The provider goes on with calls whose caller died.
      for (const g of gates) g.open();
      await acted(c, bookings);
    }
    const atKill = bookings.map((b) => effects(b));
    server = await startChild(env);
    agent = await login(server);
    return { bookings, atKill, server, env };
  }

  /** The booking and its payments as the API shows them. */
  async function view(s: Child, b: Booking) {
    const [bk, hist] = await Promise.all([
      call(s, 'GET', `/api/v1/bookings/${b.id}`),
      call(s, 'GET', `/api/v1/bookings/${b.id}/payment/history`),
    ]);
    expect(bk.status, JSON.stringify(bk.body)).toBe(200);
    expect(hist.status, JSON.stringify(hist.body)).toBe(200);
    const payments = hist.body.payments as Array<Record<string, any>>;
    const txs = hist.body.transactions as Array<Record<string, any>>;
    return {
      status: bk.body.status as string,
      payments,
      pendingTx: txs.filter((t) => t.status === 'pending'),
    };
  }

  /** After the server stopped: the rows behind the API (intents, payments, reconciliation jobs). */
  async function rows(env: Record<string, string>, ids: number[]) {
    const database = await openDatabase({
      databaseUrl: env.DATABASE_URL,
      dataDir: env.DATA_DIR ? join(env.DATA_DIR, 'pglite') : undefined,
      migrate: false,
    });
    try {
      const db = database.db as any;
      const ops = await db
        .selectFrom('booking_money_ops')
        .select(['booking_id', 'kind', 'status', 'outcome'])
        .where('booking_id', 'in', ids)
        .execute();
      const payments = await db
        .selectFrom('booking_payments')
        .select(['booking_id', 'state'])
        .where('booking_id', 'in', ids)
        .execute();
      const jobs = await db
        .selectFrom('jobs')
        .select(['queue', 'status'])
        .where('status', 'in', ['queued', 'running'])
        .execute();
      const audits = await db
        .selectFrom('audit_log')
        .select(['entity_id', 'action'])
        .where('entity_type', '=', 'booking')
        .where(
          'entity_id',
          'in',
          ids.map((id) => String(id)),
        )
        .execute();
      return { ops, payments, jobs, audits };
    } finally {
      await database.close();
    }
  }

  for (const c of CASES) {
    const effect =
      c.op === 'authorize'
        ? c.authorized
          ? 'one PaymentIntent'
          : 'no PaymentIntent'
        : c.op === 'capture'
          ? 'one capture'
          : 'one capture and one ticketing';
    it(`${c.op} at ${c.boundary}: ${effect} per key, one payment row, settled by reconciliation, the retry answers it`, async () => {
      const { bookings, atKill, server: b, env } = await crash(c);
      const restartedAt = Date.now();
      // Settled by the server itself (no client call): no intent left in flight, no pending payment.
      await until(`${c.op} at ${c.boundary} settled`, SETTLE_DEADLINE_MS, async () => {
        const views = await Promise.all(bookings.map((x) => view(b, x)));
        const open = await backlog(b);
        const done =
          open === 0 &&
          views.every((v) => v.pendingTx.length === 0 && v.payments.every((p) => p.state !== 'PENDING'));
        return done
          ? { done: true, value: views }
          : {
              done: false,
              seen: { backlog: open, views: views.map((v) => [v.status, v.payments.map((p) => p.state)]) },
            };
      });
      const settledMs = Date.now() - restartedAt;
      // An authorization that never reached Stripe leaves no payment row: its intent was withdrawn.
      const withdrawn = c.op === 'authorize' && !c.authorized;
      for (const [i, x] of bookings.entries()) {
        const v = await view(b, x);
        expect.soft([x.sup, v.payments.length]).toEqual([x.sup, withdrawn ? 0 : 1]);
        const e = effects(x);
        // Reconciliation made no effect of its own, except a capture decided under the lock and never
        // sent (ticket before the capture call), which it completes once, with the same provider key.
        const completed = c.op === 'ticket' && !c.captured;
        expect
          .soft([x.sup, e])
          .toEqual([x.sup, completed ? { ...atKill[i], captured: 1, received: x.total } : atKill[i]]);
        if (c.op === 'authorize') {
          expect.soft([x.sup, e.intents]).toEqual([x.sup, c.authorized ? 1 : 0]);
          expect
            .soft([x.sup, v.payments[0]?.state, v.status])
            .toEqual([
              x.sup,
              c.authorized ? 'AUTHORIZED' : undefined,
              c.authorized ? 'payment_pending' : 'confirmed',
            ]);
          if (c.authorized) expect.soft(v.payments[0]?.provider_payment_ref).toBe(intents(x)[0]?.id);
        } else {
          expect.soft([x.sup, v.payments[0]?.state]).toEqual([x.sup, 'CAPTURED']);
          expect.soft([x.sup, v.status]).toEqual([x.sup, c.ticketed ? 'ticketed' : 'paid']);
        }
        if (c.op === 'capture') expect.soft([x.sup, e.captured, e.received]).toEqual([x.sup, 1, x.total]);
      }

      // The same key after the restart: the settled result, never a 409, never a second effect.
      for (const x of bookings) {
        const retry = await call(b, 'POST', path(c, x), { key: x.key, body: x.body });
        expect.soft([x.sup, retry.status], JSON.stringify(retry.body)).toEqual([x.sup, 200]);
        const replay = await call(b, 'POST', path(c, x), { key: x.key, body: x.body });
        expect.soft(replay.headers.get('idempotent-replayed')).toBe('true');
        expect.soft(replay.body).toEqual(retry.body);
        const v = await view(b, x);
        const e = effects(x);
        if (c.op === 'authorize') {
          // Authorized once: by the request that died (found by its reference), or, when that one never
          // reached Stripe (its intent withdrawn), by this retry with the same Stripe key: one row per key.
          const live = v.payments.filter((p) => p.state === 'AUTHORIZED');
          expect.soft([x.sup, v.payments.length, live.length]).toEqual([x.sup, 1, 1]);
          expect.soft(retry.body).toMatchObject({
            payment_id: live[0]?.payment_id,
            state: 'AUTHORIZED',
            provider_payment_ref: intents(x)[0]?.id,
          });
          expect.soft([x.sup, e.intents]).toEqual([x.sup, 1]);
        } else if (c.op === 'capture') {
          // The capture Stripe made for the dead caller, answered as the payment it left: taken once.
          expect.soft([x.sup, v.payments.length]).toEqual([x.sup, 1]);
          expect.soft(retry.body).toMatchObject({
            payment_id: v.payments[0]?.payment_id,
            state: 'CAPTURED',
            captured_minor: x.total,
          });
          expect.soft([x.sup, e.intents, e.captured, e.received]).toEqual([x.sup, 1, 1, x.total]);
          expect.soft(v.status).toBe('paid');
        } else {
          expect.soft([x.sup, v.payments.length]).toEqual([x.sup, 1]);
          // Tickets issued once (by the request that died, or now by its retry), money taken once.
          expect.soft(retry.body).toMatchObject({ booking_id: x.id, status: 'ticketed', issued: true });
          expect
            .soft([x.sup, e.intents, e.captured, e.received, e.payments])
            .toEqual([x.sup, 1, 1, x.total, 1]);
          expect.soft(e.tickets).toBeGreaterThan(0);
          expect.soft(v.status).toBe('ticketed');
        }
      }
      await b.stop();
      server = undefined;
      const r = await rows(
        env,
        bookings.map((x) => x.id),
      );
      expect.soft(r.ops.filter((o: any) => o.status === 'requested' || o.status === 'pending')).toEqual([]);
      expect.soft(r.payments).toHaveLength(bookings.length);
      // "Nothing happened" is concluded once per booking, on the record (one look after the call window).
      const unconfirmed = r.audits.filter((a: any) => a.action === c.unconfirmed);
      expect.soft(unconfirmed).toHaveLength(c.unconfirmed ? bookings.length : 0);
      expect.soft(r.jobs.filter((j: any) => j.queue === 'money.reconcile')).toEqual([]);
      expect.soft(settledMs).toBeLessThan(SETTLE_DEADLINE_MS);
    }, 120_000);
  }

  it('a retry right after the restart: 409 only while the dead request’s lease runs, then the settled payment', async () => {
    const c: Case = {
      op: 'authorize',
      boundary: 'after-provider',
      hook: 'authorize:after-provider',
      authorized: true,
    };
    const { bookings, server: b } = await crash(c);
    const restartedAt = Date.now();
    for (const x of bookings) {
      const answer = await until(`${x.sup} retry answered`, SETTLE_DEADLINE_MS, async () => {
        const r = await call(b, 'POST', path(c, x), { key: x.key, body: x.body });
        if (r.status === 409 && r.body.code === 'idempotency_in_progress')
          return { done: false, seen: r.body };
        return { done: true, value: r };
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body.state).toBe('AUTHORIZED');
      expect(intents(x)).toHaveLength(1);
      expect(answer.body.provider_payment_ref).toBe(intents(x)[0]?.id);
      expect((await view(b, x)).payments).toHaveLength(1);
    }
    // The first answer other than idempotency_in_progress came within a lease (plus the restart).
    expect(Date.now() - restartedAt).toBeLessThan(LEASE_SECONDS * 1000 + 10_000);
    await b.stop();
    server = undefined;
  }, 120_000);
});
