/**
 * The database goes away under a running service. A private PostgreSQL server (this test's own, so it
 * may be restarted) serves a child server process (`src/main.ts`); the emulators run here over HTTP, so
 * the test reads what the suppliers and the payment provider hold. Eight clients book (createPnr) and
 * pay (authorize) in a loop, retrying with the same Idempotency-Key on 503 and 409, while the database
 * is restarted (`pg_ctl restart -m fast`) and later stopped for a while and started again. The process
 * must stay up, answer 503 `database_unavailable` with Retry-After meanwhile, serve again within 5 s of
 * the database's return, and afterwards database, supplier and payment provider must agree one to one.
 */
import type { MockServers } from '@travel/mock-server';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerProcess } from '../search/processes.ts';
import { type PrivatePostgres, postgresBinaries, startPrivatePostgres } from './postgres.ts';
import { Client, eventually, type Res, startEmulators, startService, supplierUrls } from './stack.ts';

const bin = postgresBinaries();
if (!bin) console.warn('resilience: no PostgreSQL binaries (initdb, pg_ctl) on this machine: skipped');

const CLIENTS = 8;

type Offer = Awaited<ReturnType<Client['offer']>>;

/** Every answer a client got, with when it got it. */
interface Seen {
  at: number;
  op: 'createPnr' | 'authorize';
  key: string;
  status: number | 'network';
  code?: string;
  retryAfter?: string | null;
  requestId?: string;
}

describe.skipIf(!bin)('PostgreSQL restarted and stopped under load', () => {
  let db: PrivatePostgres;
  let emulators: MockServers;
  let server: ServerProcess;
  let offer: Offer;
  const seen: Seen[] = [];
  /** Final createPnr answers by key, final authorize answers by key. */
  const booked = new Map<string, Res>();
  const paid = new Map<string, Res>();

  beforeAll(async () => {
    db = await startPrivatePostgres(bin as string);
    emulators = await startEmulators(5);
    server = await startService('pg-restart', {
      DATABASE_URL: db.url,
      SANDBOX_SUPPLIER_URLS: supplierUrls(emulators.urls),
      // Leases and reconciliation delays short enough for a test to see requests cut by the outage settled.
      IDEMPOTENCY_LEASE_SECONDS: '2',
      BOOKING_CALL_WINDOW_SECONDS: '3',
      MONEY_RECONCILE_DELAY_MS: '1000',
      SHUTDOWN_GRACE_MS: '2000',
    });
    const c = new Client(server.url);
    await c.login();
    offer = await c.offer('amadeus');
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    await emulators?.close();
    await db?.destroy();
  });

  /** Sends until the answer is final; 503 and 409 (and a dropped connection) are retried with the same key. */
  async function untilFinal(op: Seen['op'], key: string, send: () => Promise<Res>, budgetMs = 60_000) {
    const until = Date.now() + budgetMs;
    for (;;) {
      let r: Res | undefined;
      try {
        r = await send();
        seen.push({
          at: Date.now(),
          op,
          key,
          status: r.status,
          code: r.body?.code,
          retryAfter: r.headers.get('retry-after'),
          requestId: r.body?.request_id,
        });
      } catch {
        seen.push({ at: Date.now(), op, key, status: 'network' });
      }
      // 409 operation_in_progress: the booking has an operation whose request the outage cut; it is
      // written ahead and settled by reconciliation, not by a retry of this key.
      if (r && r.status !== 503 && !(r.status === 409 && r.body?.code === 'idempotency_in_progress'))
        return r;
      if (Date.now() > until) {
        const mine = seen.filter((x) => x.key === key).map((x) => `${x.status}:${x.code ?? ''}`);
        throw new Error(
          `${op} ${key} never settled: ${mine.slice(-5).join(' ')}\n${server.output().slice(-3000)}`,
        );
      }
      await new Promise((res) => setTimeout(res, 100));
    }
  }

  /** One client: book, then pay, with a fresh pair of keys each round, until `stop` says so. */
  async function client(i: number, stop: () => boolean) {
    const c = new Client(server.url);
    await c.login();
    for (let n = 0; !stop(); n++) {
      const key = `c${i}-r${n}-${Date.now()}`;
      // Every third booking of clients 0 and 1 is left pending by the supplier: reconciliation settles it.
      const last = i < 2 && n % 3 === 1 ? 'PENDING' : 'RAHMAN';
      const b = await untilFinal('createPnr', key, () => c.createPnr(offer, key, last));
      booked.set(key, b);
      if (b.status !== 200) continue;
      const pkey = `${key}-pay`;
      const a = await untilFinal('authorize', pkey, () =>
        c.authorize(b.body.booking_id, b.body.pricing.total_minor, b.body.pricing.currency, pkey),
      );
      paid.set(pkey, a);
    }
  }

  const okSince = (t: number) => seen.filter((s) => s.at >= t && s.status === 200);

  it('stays up through `pg_ctl restart -m fast` under 8 clients, answers 503 meanwhile, serves again within 5 s', async () => {
    let stopping = false;
    const clients = Array.from({ length: CLIENTS }, (_, i) => client(i, () => stopping));
    // Restart only once traffic flows on every client.
    await eventually('traffic', 30_000, async () => paid.size >= CLIENTS * 2);
    const restartAt = Date.now();
    await db.restart();
    const backAt = Date.now();
    // Served again: a booking answered 200 after the database is back, within 5 s of it.
    const firstOk = await eventually('a 200 after the restart', 10_000, async () => okSince(backAt)[0]);
    await eventually(
      'more traffic after the restart',
      30_000,
      async () => okSince(backAt).length >= CLIENTS * 4,
    );
    stopping = true;
    await Promise.all(clients);

    expect(server.child.exitCode, server.output()).toBeNull();
    expect(firstOk.at - backAt).toBeLessThanOrEqual(5000);
    const during = seen.filter((s) => s.at >= restartAt && s.at <= firstOk.at);
    const unavailable = during.filter((s) => s.status === 503);
    expect(unavailable.length, 'the restart was seen by the clients').toBeGreaterThan(0);
    for (const s of seen.filter((x) => x.status === 503)) {
      expect(s.code).toBe('database_unavailable');
      expect(Number(s.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(s.requestId).toEqual(expect.any(String));
    }
    // No dropped connection, no 500: every failure was the documented 503 (or 409 while a key was held:
    // idempotency_in_progress for the key, operation_in_progress for its booking).
    // An authorize cut by the outage after its intent was written, retried with its key, is answered with
    // what reconciliation (or the retry itself, asking Stripe) settled: never a 400 for its own payment.
    const others = seen.filter((s) => ![200, 409, 502, 503].includes(s.status as number));
    expect(others, JSON.stringify(others.slice(0, 5))).toEqual([]);
  }, 120_000);

  it('while the database is stopped: 503 database_unavailable with Retry-After, health down, /metrics up; back within 5 s of the start', async () => {
    const c = new Client(server.url);
    await c.login();
    await db.stop();
    const down = await c.createPnr(offer, `stopped-${Date.now()}`);
    expect(down.status).toBe(503);
    expect(down.body).toEqual({
      detail: expect.any(String),
      code: 'database_unavailable',
      request_id: expect.any(String),
    });
    expect(Number(down.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const list = await c.req('GET', '/api/v1/bookings/1');
    expect(list.status).toBe(503);
    expect(list.body.code).toBe('database_unavailable');
    const health = await c.req('GET', '/health/');
    expect(health.status).toBe(503);
    expect(health.body.components.database.status).toBe('down');
    const metrics = await c.req('GET', '/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.body).toMatch(/^travel_database_up 0$/m);
    expect(server.child.exitCode, server.output()).toBeNull();

    await db.start();
    const back = Date.now();
    const key = `after-start-${Date.now()}`;
    const r = await eventually('a booking after the start', 10_000, async () => {
      const x = await c.createPnr(offer, key);
      return x.status === 200 ? x : undefined;
    });
    expect(Date.now() - back).toBeLessThanOrEqual(5000);
    booked.set(key, r);
    expect((await c.req('GET', '/health/')).status).toBe(200);
  }, 60_000);

  it('afterwards every supplier order and every PaymentIntent is exactly one database record', async () => {
    const pgc = new pg.Client({ connectionString: db.url });
    await pgc.connect();
    try {
      // The PENDING bookings are settled by the job runner, which lived through both outages.
      await eventually('reconciliation of the PENDING bookings', 30_000, async () => {
        const r = await pgc.query(
          `select count(*)::int as n from flight_bookings where status = 'pending_pnr'`,
        );
        return r.rows[0].n === 0;
      });
      const pending = [...booked.values()].filter((r) => r.status === 502);
      expect(pending.length, 'PENDING bookings were made').toBeGreaterThan(0);

      // Supplier orders <-> bookings: by the order's reference, or (written ahead, not settled yet) by
      // the client reference the booking gave the supplier.
      const rows = await pgc.query<{
        id: number;
        supplier_order_ref: string | null;
        client_reference: string;
      }>(`select id, supplier_order_ref, client_reference from flight_bookings where supplier = 'amadeus'`);
      const orders = [...(emulators.states.amadeus?.orders.values() ?? [])];
      const byRef = new Map(
        rows.rows.filter((r) => r.supplier_order_ref).map((r) => [r.supplier_order_ref, r]),
      );
      const byClientRef = new Map(rows.rows.map((r) => [r.client_reference, r]));
      const matched = new Set<number>();
      for (const o of orders) {
        const row = byRef.get(o.id) ?? (o.clientReference ? byClientRef.get(o.clientReference) : undefined);
        expect(row, `supplier order ${o.id} (${o.clientReference}) has no booking`).toBeDefined();
        expect(matched.has(Number(row?.id)), `booking ${row?.id} holds two supplier orders`).toBe(false);
        matched.add(Number(row?.id));
      }
      for (const r of rows.rows.filter((x) => x.supplier_order_ref))
        expect(matched.has(Number(r.id))).toBe(true);
      // Every acknowledged booking is in the database under its id.
      const known = new Set(rows.rows.map((r) => Number(r.id)));
      for (const r of booked.values())
        if (r.status === 200 || r.status === 502) expect(known.has(Number(r.body.booking_id))).toBe(true);

      // PaymentIntents <-> payments: by the PaymentIntent id, or (an authorization the outage cut before
      // it was recorded) by the intent reference the request wrote ahead and handed to the provider.
      const pays = await pgc.query<{ provider_payment_ref: string | null }>(
        'select provider_payment_ref from booking_payments where provider_payment_ref is not null',
      );
      const refs = pays.rows.map((r) => r.provider_payment_ref as string);
      expect(new Set(refs).size).toBe(refs.length);
      const intentsInFlight = await pgc.query<{ reference: string }>(
        `select detail->>'intent_ref' as reference from booking_money_ops where kind = 'authorize' and status in ('requested', 'pending')`,
      );
      const unsettled = new Set(intentsInFlight.rows.map((r) => r.reference));
      const intents = [...(emulators.states.stripe?.paymentIntents.values() ?? [])];
      for (const pi of intents) {
        const ref = (pi as { metadata?: Record<string, string> }).metadata?.intent_ref;
        const recorded = refs.includes(pi.id) || (ref !== undefined && unsettled.has(ref));
        expect(recorded, `PaymentIntent ${pi.id} (${ref}) is unknown to the database`).toBe(true);
      }
      const ids = new Set(intents.map((pi) => pi.id));
      for (const ref of refs) expect(ids.has(ref), `payment ${ref} is not at the provider`).toBe(true);
      const authorized = [...paid.values()].filter((r) => r.status === 200);
      expect(authorized.length).toBeGreaterThan(0);
      for (const a of authorized) expect(refs).toContain(a.body.provider_payment_ref);

      // Then reconciliation settles what the outage cut (the process lived: no restart needed), and the
      // three agree one to one without the intent rows.
      await eventually('every written-ahead booking and authorization to be settled', 45_000, async () => {
        const r = await pgc.query(
          `select (select count(*)::int from flight_bookings where status in ('initiated', 'pending_pnr'))
                + (select count(*)::int from booking_money_ops where status in ('requested', 'pending')) as n`,
        );
        return r.rows[0].n === 0;
      });
      const settledRefs = await pgc.query<{ supplier_order_ref: string }>(
        `select supplier_order_ref from flight_bookings where supplier = 'amadeus' and supplier_order_ref is not null`,
      );
      expect(settledRefs.rows.map((r) => r.supplier_order_ref).sort()).toEqual(
        orders.map((o) => o.id).sort(),
      );
      const settledPays = await pgc.query<{ provider_payment_ref: string }>(
        'select provider_payment_ref from booking_payments where provider_payment_ref is not null',
      );
      const live = [...(emulators.states.stripe?.paymentIntents.values() ?? [])].filter(
        (pi) => pi.status !== 'canceled',
      );
      expect(settledPays.rows.map((r) => r.provider_payment_ref).sort()).toEqual(
        live.map((pi) => pi.id).sort(),
      );
    } finally {
      await pgc.end();
    }
  }, 90_000);
});
