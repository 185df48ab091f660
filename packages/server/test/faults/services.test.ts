/**
 * kill -9 inside the paid service changes of a flight booking: seats issuance, ancillary purchase and EMD
 * issuance on Amadeus, and a confirmed ticket refund on Duffel (its cancellation confirm); each held at
 * the emulator's gate and let through after the kill, so the supplier acts for a caller that is gone. Then
 * a restart on the same data (PGlite DATA_DIR, or a PostgreSQL database when TEST_DATABASE_URL is set),
 * right away or slower than every lease the dead process held. The same-key retry answers the effect the
 * supplier made (200), the rows agree, and there is exactly one effect at the supplier (and at Stripe).
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
const JOBS_LEASE_MS = 1_500;
const SETTLE_DEADLINE_MS = 30_000;
type Sup = 'amadeus' | 'duffel';
type Kind = 'seats' | 'ancillaries' | 'emd' | 'refund';
const GATES: Record<Kind, MoneyGate> = {
  seats: 'amadeus-seats-issue',
  ancillaries: 'amadeus-services',
  emd: 'amadeus-emds',
  refund: 'duffel-cancel',
};

describe('kill -9 inside seats, ancillaries, EMD and a ticket refund confirm', () => {
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

  const call = (s: Child, method: string, path: string, o: { key?: string; body?: unknown } = {}) =>
    api(s.url, method, path, { token: agent, ...o });
  const B = (id: number) => `/api/v1/bookings/${id}`;

  async function book(s: Child, sup: Sup) {
    const [origin, destination] = sup === 'duffel' ? ['LHR', 'BCN'] : ['LHR', 'DXB'];
    const started = await call(s, 'POST', '/api/v1/flight/getFare', {
      body: oneWaySearch(origin as string, destination as string, futureDate(60)),
    });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const batch = await call(s, 'GET', `/api/v1/flight/getFare/batch/${started.body.searchId}?timeout=30`);
    const list = (batch.body.results_by_gds?.[sup] ?? []) as Array<Record<string, any>>;
    const hit = list.find((o) => !o.lcc && !(sup === 'duffel' && o.validating_carrier === 'W6'));
    if (!hit) throw new Error(`no bookable ${sup} offer`);
    const created = await call(s, 'POST', '/api/v1/bookings/createPnr', {
      key: `svc-pnr-${sup}`,
      body: { offer_id: hit.offer_id, currency: hit.price.currency, passengers: [passenger], contact },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    return created.body as Record<string, any>;
  }

  const amadeusOrder = (pnr: string) =>
    [...emulators.states.amadeus.orders.values()].find((o: any) => o.pnr === pnr) as Record<string, any>;

  /** A booking ready for the request of `kind`; the request's path and body. */
  async function prepare(s: Child, kind: Kind) {
    const b = await book(s, kind === 'refund' ? 'duffel' : 'amadeus');
    const id = b.booking_id as number;
    const got = await call(s, 'GET', B(id));
    const pid = String(got.body.passengers[0].passenger_id);
    if (kind === 'seats') {
      const map = await call(s, 'GET', `${B(id)}/seats`);
      expect(map.status, JSON.stringify(map.body)).toBe(200);
      const seats = (map.body.seat_maps as any[]).map((m) => {
        const seat = m.rows
          .filter((r: any) => r.row !== 13)
          .flatMap((r: any) => r.seats)
          .find((x: any) => x.available && x.chargeable);
        return { segment_id: m.segment_id, seat_number: seat.seat_number, passenger_id: pid };
      });
      const r = await call(s, 'POST', `${B(id)}/seats/batch`, { key: 'seats-pick', body: { seats } });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return { b, path: `${B(id)}/seats/issue`, body: {}, n: seats.length };
    }
    if (kind === 'refund') {
      const auth = await call(s, 'POST', `${B(id)}/authorize`, {
        key: 'svc-auth',
        body: { token: 'tok_sandbox_ok', currency: b.pricing.currency, amount_minor: b.pricing.total_minor },
      });
      expect(auth.status, JSON.stringify(auth.body)).toBe(200);
      const t = await call(s, 'POST', `${B(id)}/ticket`, { key: 'svc-ticket', body: { capture: true } });
      expect(t.status, JSON.stringify(t.body)).toBe(200);
      return {
        b,
        path: `${B(id)}/ticket/refund?confirm=true`,
        body: {},
        n: 1,
        pi: auth.body.provider_payment_ref,
      };
    }
    const cat = await call(s, 'GET', `${B(id)}/ancillaries/catalogue`);
    expect(cat.status, JSON.stringify(cat.body)).toBe(200);
    const item = cat.body.items[0];
    const product = {
      code: item.code,
      rfic: item.rfic,
      rfisc: item.rfisc,
      booking_method: item.booking_method,
      provider: item.provider,
      customer_ref_ids: [pid],
      segment_ref_ids: String(got.body.flights[0].segment_id),
    };
    const body = { products: [product] };
    if (kind === 'ancillaries') return { b, path: `${B(id)}/ancillaries/purchase`, body, n: 1 };
    const bought = await call(s, 'POST', `${B(id)}/ancillaries/purchase`, { key: 'svc-buy', body });
    expect(bought.status, JSON.stringify(bought.body)).toBe(200);
    return { b, path: `${B(id)}/ancillaries/emd`, body: {}, n: 1 };
  }

  /** The effects at the supplier of `kind` on the booking's order. */
  function effects(kind: Kind, pnr: string): number {
    if (kind === 'refund') {
      const order = [...emulators.states.duffel.orders.values()].find(
        (o: any) => o.order.booking_reference === pnr,
      ) as any;
      return [...emulators.states.duffel.cancellations.values()].filter(
        (c: any) => c.order_id === order?.order.id && c.confirmed_at,
      ).length;
    }
    const o = amadeusOrder(pnr);
    if (kind === 'seats') return o.seats.filter((x: any) => x.status === 'CONFIRMED' && x.emdNumber).length;
    if (kind === 'ancillaries') return o.ancillaries.length;
    return o.ancillaries.filter((x: any) => x.emdNumber).length;
  }

  /** After the server stopped: the rows behind the answer. */
  async function rows(env: Record<string, string>, id: number) {
    const database = await openDatabase({
      databaseUrl: env.DATABASE_URL,
      dataDir: env.DATA_DIR ? join(env.DATA_DIR, 'pglite') : undefined,
      migrate: false,
    });
    try {
      const db = database.db as any;
      const q = (t: string, cols: string[]) =>
        db.selectFrom(t).select(cols).where('booking_id', '=', id).orderBy(cols[0]).execute();
      return {
        seats: (await q('booking_seat_selections', ['status'])).map((r: any) => r.status),
        ancillaries: await q('booking_ancillaries', ['id', 'status', 'emd_number']),
        ops: (await q('booking_money_ops', ['id', 'kind', 'status'])).map(
          (r: any) => `${r.kind}:${r.status}`,
        ),
      };
    } finally {
      await database.close();
    }
  }

  const KINDS: Kind[] = ['seats', 'ancillaries', 'emd', 'refund'];
  for (const kind of KINDS) {
    for (const slow of [false, true]) {
      it(`${kind}${slow ? ', restart slower than the leases' : ''}: one effect, the rows agree, the retry answers it`, async () => {
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
        const req = await prepare(a, kind);
        const pnr = req.b.pnr as string;
        const id = req.b.booking_id as number;
        const gate = emulators.moneyGates[GATES[kind]];
        gate.close();
        const key = `fault-${kind}`;
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
        const want = kind === 'seats' ? req.n : 1;
        await until('the supplier acts for the dead caller', 10_000, async () =>
          effects(kind, pnr) === want
            ? { done: true, value: null }
            : { done: false, seen: effects(kind, pnr) },
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
          return r.status === 409 || r.status === 202
            ? { done: false, seen: [r.status, r.body] }
            : { done: true, value: r };
        });
        expect(retry.status, JSON.stringify(retry.body)).toBe(200);
        const replay = await call(s, 'POST', req.path, { key, body: req.body });
        expect(replay.body).toEqual(retry.body);
        expect(effects(kind, pnr)).toBe(want);
        if (kind === 'seats') expect(retry.body.emds).toHaveLength(req.n);
        if (kind === 'ancillaries')
          expect(retry.body.tsm_references).toEqual([amadeusOrder(pnr).ancillaries[0].tsmReference]);
        if (kind === 'emd')
          expect(retry.body.emds.map((e: any) => e.emd_number)).toEqual([
            amadeusOrder(pnr).ancillaries[0].emdNumber,
          ]);
        if (kind === 'refund') {
          expect(retry.body).toMatchObject({ booking_id: id, action: 'refund', confirmed: true });
          // The card gets its money back once.
          await until('the refund reaches the card', SETTLE_DEADLINE_MS, async () => {
            const n = [...emulators.stripe.refunds.values()].filter(
              (r) => r.payment_intent === req.pi,
            ).length;
            return n === 1 ? { done: true, value: n } : { done: false, seen: n };
          });
          const bk = await call(s, 'GET', B(id));
          expect(['cancelled', 'refunded']).toContain(bk.body.status);
        }
        await s.stop();
        server = undefined;
        const r = await rows(env, id);
        expect(r.ops.filter((o: string) => !o.endsWith(':done'))).toEqual([]);
        if (kind === 'seats') expect(r.seats).toEqual(Array(req.n).fill('confirmed'));
        if (kind === 'ancillaries') expect(r.ancillaries.map((x: any) => x.status)).toEqual(['held']);
        if (kind === 'emd')
          expect(r.ancillaries.map((x: any) => [x.status, x.emd_number])).toEqual([
            ['issued', amadeusOrder(pnr).ancillaries[0].emdNumber],
          ]);
        const refunds = [...emulators.stripe.refunds.values()].filter((x) => x.payment_intent === req.pi);
        if (kind === 'refund') expect(refunds).toHaveLength(1);
      }, 120_000);
    }
  }
});
