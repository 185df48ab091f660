/**
 * A short soak on PostgreSQL: a private PostgreSQL server (this test's own, so it may be restarted) under a
 * child server (`src/main.ts`), the emulators here over HTTP. Three clients book (createPnr), pay
 * (authorize) and ticket (capture) on Amadeus and Duffel in a loop, each call retried with the same
 * Idempotency-Key until its answer is final (network errors, 409, 502, 503 and 202 pending are retried),
 * while the server is killed -9 and restarted, PostgreSQL is restarted, and the server is stopped with
 * SIGTERM and started again. At the end, once reconciliation has settled: every acknowledged booking has
 * its row and its supplier order, and rows = supplier orders; every PaymentIntent has its payment row; no
 * booking is `paid` without a ticket and without a queued `ticketing.unticketed` follow-up.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { futureDate, oneWaySearch } from '../harness/flight-search.ts';
import { type PrivatePostgres, postgresBinaries, startPrivatePostgres } from '../resilience/postgres.ts';
import {
  type ApiResponse,
  api,
  type Child,
  FAULT_CONTACT as contact,
  type FaultEmulators,
  faultEnv,
  login,
  FAULT_PASSENGER as passenger,
  startChild,
  startFaultEmulators,
  until,
} from './harness.ts';

const bin = postgresBinaries();
const CLIENTS = 3;
/** When (ms after the traffic starts) each fault strikes, and when no new booking starts. */
const KILL_AT = 6_000;
const PG_RESTART_AT = 14_000;
const SIGTERM_AT = 22_000;
const TRAFFIC_MS = 30_000;
const RETRIED = new Set([409, 502, 503]);
type Sup = 'amadeus' | 'duffel';
const SUPS: Sup[] = ['amadeus', 'duffel'];

describe.skipIf(!bin || !process.env.TEST_DATABASE_URL)(
  'soak: kill -9, a PostgreSQL restart and a SIGTERM',
  () => {
    let db: PrivatePostgres;
    let emulators: FaultEmulators;
    let env: Record<string, string>;
    let server: Child | undefined;
    let token = '';
    const offers = {} as Record<Sup, Record<string, any>>;
    /** Calls that met a fault (no answer, 409, 502, 503, 202) and were sent again. */
    let retries = 0;

    beforeAll(async () => {
      db = await startPrivatePostgres(bin as string);
      emulators = await startFaultEmulators();
      env = faultEnv({ env: { DATABASE_URL: db.url }, kind: 'postgres', drop: async () => {} }, emulators, {
        IDEMPOTENCY_LEASE_SECONDS: '2',
        JOBS_LEASE_MS: '1500',
        BOOKING_CALL_WINDOW_SECONDS: '3',
        MONEY_RECONCILE_DELAY_MS: '500',
        SHUTDOWN_GRACE_MS: '2000',
      });
      server = await startChild(env);
      token = await login(server);
      for (const sup of SUPS) {
        const [o, d] = sup === 'duffel' ? ['LHR', 'BCN'] : ['LHR', 'DXB'];
        const s = server;
        const started = await api(s.url, 'POST', '/api/v1/flight/getFare', {
          token,
          body: oneWaySearch(o, d, futureDate(60)),
        });
        const batch = await api(
          s.url,
          'GET',
          `/api/v1/flight/getFare/batch/${started.body.searchId}?timeout=30`,
          {
            token,
          },
        );
        const list = (batch.body.results_by_gds?.[sup] ?? []) as Array<Record<string, any>>;
        const hit = list.find((x) => !x.lcc && !(sup === 'duffel' && x.validating_carrier === 'W6'));
        if (!hit) throw new Error(`no bookable ${sup} offer`);
        offers[sup] = hit;
      }
    }, 90_000);

    afterAll(async () => {
      await server?.kill9();
      await emulators?.close();
      await db?.destroy();
    });

    /** Sends with the same key until the answer is final; the server may be down or a new process meanwhile. */
    async function final(method: string, path: string, key: string, body: unknown): Promise<ApiResponse> {
      const end = Date.now() + 60_000;
      for (;;) {
        const s = server;
        const r = s ? await api(s.url, method, path, { token, key, body }).catch(() => undefined) : undefined;
        if (r && !RETRIED.has(r.status) && r.status !== 202) return r;
        retries += 1;
        if (Date.now() > end) throw new Error(`${key}: no final answer; last ${JSON.stringify(r?.body)}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }

    it('ends with rows = supplier orders, every PaymentIntent with its row, nothing paid without a ticket or a follow-up', async () => {
      const acknowledged: number[] = [];
      const start = Date.now();
      const clients = Array.from({ length: CLIENTS }, async (_, c) => {
        for (let n = 0; Date.now() - start < TRAFFIC_MS; n++) {
          const sup = SUPS[(c + n) % SUPS.length] as Sup;
          const offer = offers[sup];
          const k = `soak-${c}-${n}`;
          const created = await final('POST', '/api/v1/bookings/createPnr', `${k}-pnr`, {
            offer_id: offer.offer_id,
            currency: offer.price.currency,
            passengers: [passenger],
            contact,
          });
          if (created.status !== 200) continue;
          const id = created.body.booking_id as number;
          acknowledged.push(id);
          const auth = await final('POST', `/api/v1/bookings/${id}/authorize`, `${k}-auth`, {
            token: 'tok_sandbox_ok',
            currency: created.body.pricing.currency,
            amount_minor: created.body.pricing.total_minor,
          });
          if (auth.status !== 200) continue;
          await final('POST', `/api/v1/bookings/${id}/ticket`, `${k}-ticket`, { capture: true });
        }
      });
      const at = (ms: number) =>
        until(`t+${ms}`, ms + 10_000, async () =>
          Date.now() - start >= ms ? { done: true, value: null } : { done: false, seen: Date.now() - start },
        );
      const faults = (async () => {
        await at(KILL_AT);
        await server?.kill9();
        server = await startChild(env);
        await at(PG_RESTART_AT);
        await db.restart();
        await at(SIGTERM_AT);
        const old = server;
        server = undefined;
        await old?.stop();
        server = await startChild(env);
      })();
      await Promise.all([faults, ...clients]);
      expect(acknowledged.length).toBeGreaterThan(CLIENTS);
      // The faults met calls in flight.
      expect(retries, `${acknowledged.length} bookings acknowledged`).toBeGreaterThan(0);

      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      try {
        const q = async (sql: string) => (await client.query(sql)).rows as Array<Record<string, any>>;
        // Reconciliation settles every op the faults cut.
        await until('every written-ahead op settled', 60_000, async () => {
          const open = await q(
            `select kind, status from booking_money_ops where status not in ('done', 'failed')`,
          );
          return open.length === 0 ? { done: true, value: null } : { done: false, seen: open };
        });
        const live = await q(
          'select id, supplier_order_ref from flight_bookings where supplier_order_ref is not null',
        );
        const orders = SUPS.flatMap((s) => emulators.orders(s));
        expect(live.map((r) => Number(r.id)).sort((a, b) => a - b)).toEqual(
          [...acknowledged].sort((a, b) => a - b),
        );
        expect(orders).toHaveLength(live.length);
        const refs = new Set(live.map((r) => String(r.supplier_order_ref)));
        expect(refs.size).toBe(live.length);

        const payments = new Set(
          (await q('select provider_payment_ref from booking_payments')).map((r) => r.provider_payment_ref),
        );
        const intents = [...emulators.stripe.paymentIntents.values()];
        expect(intents.filter((pi) => !payments.has(pi.id)).map((pi) => pi.id)).toEqual([]);

        const unfollowed = await q(`
        select b.id from flight_bookings b
        where b.status = 'paid'
          and not exists (select 1 from booking_tickets t where t.booking_id = b.id)
          and not exists (select 1 from jobs j where j.queue = 'ticketing.unticketed'
                          and j.status in ('queued', 'running') and (j.payload->>'booking_id')::bigint = b.id)`);
        expect(unfollowed).toEqual([]);
      } finally {
        await client.end();
      }
    }, 240_000);
  },
);
