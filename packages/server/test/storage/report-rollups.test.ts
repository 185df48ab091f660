/**
 * The reports read the booking rollups (migration 0240) and the partial edge days: over random bookings,
 * status changes (one row and many at once), reprices, contact and itinerary changes, payments with
 * refunds, deletions and windows (aligned to midnight or not, one day or many), each answers exactly what
 * the old scan of every booking of the window answers (report-oracle.ts).
 */
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bookingCounts,
  pendingCounts,
  revenueByDay,
  topClients,
  topRoutes,
} from '../../src/domains/flight-booking/index.ts';
import type { Database } from '../../src/storage/database.ts';
import { backfill } from '../../src/storage/migrations/0240-booking-rollups.ts';
import { testBackend, testDatabase } from '../helpers/db.ts';
import {
  oracleBookingCounts,
  oraclePending,
  oracleRevenueByDay,
  oracleTopClients,
  oracleTopRoutes,
} from './report-oracle.ts';

const DAY = 86_400_000;
const NOW = new Date('2026-11-28T15:20:00.250Z');
const STATUSES = [
  'initiated',
  'pending_pnr',
  'pnr_failed',
  'expired',
  'confirmed',
  'on_hold',
  'payment_pending',
  'paid',
  'ticketed',
  'cancelled',
  'refunded',
] as const;
const EMAILS = ['ann@example.test', 'ANN@example.test', 'bob@example.test', 'cy@example.test', null];
const AIRPORTS = ['LHR', 'DXB', 'JFK', null];

const status = fc.constantFrom(...STATUSES);
const flights = fc.array(
  fc.record({ origin: fc.constantFrom(...AIRPORTS), destination: fc.constantFrom(...AIRPORTS) }),
  { maxLength: 3 },
);
const booking = fc.record({
  company: fc.constantFrom(0, 1, null),
  // Within 40 days of NOW, either side, to the millisecond; some at midnight exactly.
  at: fc.oneof(
    fc.integer({ min: -40 * DAY, max: 3 * DAY }),
    fc.integer({ min: -40, max: 3 }).map((d) => d * DAY - (NOW.getTime() % DAY)),
  ),
  status,
  currency: fc.constantFrom('GBP', 'USD'),
  total: fc.integer({ min: 0, max: 100_000 }),
  markup: fc.integer({ min: 0, max: 500 }),
  email: fc.constantFrom(...EMAILS),
  user: fc.constantFrom('u1', 'u2'),
  flights,
  deadline: fc.option(fc.integer({ min: -2 * DAY, max: 3 * DAY })),
});
const pick = fc.nat();
const op = fc.oneof(
  fc.record({ k: fc.constant('insert' as const), rows: fc.array(booking, { minLength: 1, maxLength: 4 }) }),
  fc.record({ k: fc.constant('status' as const), pick, status }),
  fc.record({ k: fc.constant('bulkStatus' as const), from: status, to: status }),
  fc.record({
    k: fc.constant('reprice' as const),
    pick,
    total: fc.nat(90_000),
    currency: fc.constantFrom('GBP', 'USD'),
  }),
  fc.record({ k: fc.constant('contact' as const), pick, email: fc.constantFrom(...EMAILS) }),
  fc.record({ k: fc.constant('flights' as const), pick, flights }),
  fc.record({ k: fc.constant('pay' as const), pick, refunded: fc.nat(10_000) }),
  fc.record({ k: fc.constant('refund' as const), pick, refunded: fc.nat(10_000) }),
  fc.record({ k: fc.constant('unpay' as const), pick }),
  fc.record({ k: fc.constant('delete' as const), pick }),
);
const windowArb = fc.record({
  from: fc.oneof(
    fc.integer({ min: 0, max: 45 * DAY }),
    fc.integer({ min: 0, max: 45 }).map((d) => d * DAY + (NOW.getTime() % DAY)),
  ),
  length: fc.oneof(fc.integer({ min: 0, max: 2 * DAY }), fc.integer({ min: 0, max: 50 * DAY })),
});

type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;
type Win = typeof windowArb extends fc.Arbitrary<infer T> ? T : never;

let database: Database;
let db: Database['db'];
let run = 0;
let seq = 0;
beforeAll(async () => {
  database = await testDatabase();
  db = database.db;
});
afterAll(() => database?.close());

/** Two fresh companies for a run, each with clients named after two of the emails (one in other case). */
async function companies(): Promise<[number, number]> {
  run += 1;
  const ids: number[] = [];
  for (const n of [0, 1]) {
    const r = await sql<{ id: number }>`
      insert into companies (company_name, company_code, contact_email)
      values (${`Co ${run}-${n}`}, ${`RR${run}X${n}`}, 'co@example.test') returning id`.execute(db);
    const id = Number(r.rows[0]?.id);
    ids.push(id);
    await sql`insert into clients (company_id, email, full_name) values
      (${id}, 'Ann@Example.test', 'Ann'), (${id}, 'cy@example.test', 'Cy')`.execute(db);
  }
  return [ids[0] as number, ids[1] as number];
}

async function apply(cos: [number, number], o: Op) {
  const scope = sql`company_id in (${cos[0]}, ${cos[1]}) or (company_id is null and client_reference like ${`rr${run}:%`})`;
  const ids = (
    await sql<{ id: string }>`select id from flight_bookings where ${scope} order by id`.execute(db)
  ).rows;
  const target = 'pick' in o && ids.length > 0 ? Number(ids[o.pick % ids.length]?.id) : null;
  if (o.k === 'insert') {
    const values = o.rows.map((b) => {
      const at = new Date(NOW.getTime() + b.at);
      const segs = b.flights.map((f) => ({
        ...(f.origin && { origin: f.origin }),
        destination: f.destination,
      }));
      seq += 1;
      return sql`(null, ${b.status}, 'PNR_FIRST', 'sandbox', ${`rr${run}:${seq}`}, 'off', '{}',
          '[]', ${JSON.stringify({ email: b.email })}::jsonb, ${JSON.stringify(segs)}::jsonb,
          ${JSON.stringify({ currency: b.currency, total_minor: b.total, markup_minor: b.markup })}::jsonb,
          ${b.user}, ${b.company === null ? null : cos[b.company]}, ${at}, ${at},
          ${b.deadline === null ? null : new Date(NOW.getTime() + b.deadline)})`;
    });
    await sql`insert into flight_bookings (pnr, status, payment_mode, supplier, client_reference, offer_id,
        offer, passengers, contact, flights, pricing, user_id, company_id, created_at, updated_at, ticketing_deadline)
        values ${sql.join(values)}`.execute(db);
    return;
  }
  if (o.k === 'bulkStatus') {
    await sql`update flight_bookings set status = ${o.to} where status = ${o.from} and (${scope})`.execute(
      db,
    );
    return;
  }
  if (target === null) return;
  if (o.k === 'status')
    await sql`update flight_bookings set status = ${o.status} where id = ${target}`.execute(db);
  if (o.k === 'reprice')
    await sql`update flight_bookings set pricing = pricing || ${JSON.stringify({ total_minor: o.total, currency: o.currency })}::jsonb
      where id = ${target}`.execute(db);
  if (o.k === 'contact')
    await sql`update flight_bookings set contact = ${JSON.stringify({ email: o.email })}::jsonb where id = ${target}`.execute(
      db,
    );
  if (o.k === 'flights')
    await sql`update flight_bookings set flights = ${JSON.stringify(o.flights)}::jsonb where id = ${target}`.execute(
      db,
    );
  if (o.k === 'pay')
    await sql`insert into booking_payments (booking_id, state, amount_minor, captured_minor, refunded_minor, currency, provider)
      values (${target}, 'REFUNDED', 10000, 10000, ${o.refunded}, 'GBP', 'test')`.execute(db);
  if (o.k === 'refund')
    await sql`update booking_payments set refunded_minor = ${o.refunded}
      where id = (select min(id) from booking_payments where booking_id = ${target})`.execute(db);
  if (o.k === 'unpay')
    await sql`delete from booking_payments where id = (select max(id) from booking_payments where booking_id = ${target})`.execute(
      db,
    );
  if (o.k === 'delete') {
    await sql`delete from booking_payments where booking_id = ${target}`.execute(db);
    await sql`delete from flight_bookings where id = ${target}`.execute(db);
  }
}

/** Rows in a canonical order: the reports' own order leaves ties unordered. */
const canonical = <T>(rows: T[]) => rows.map((r) => JSON.stringify(r)).sort();
const ranks = (rows: { bookings: number; revenue_minor: number }[]) =>
  rows.map((r) => [r.bookings, r.revenue_minor]);

async function compare(cos: [number, number], windows: Win[]) {
  for (const cid of [...cos, null]) {
    expect(await bookingCounts(db, NOW, cid)).toEqual(await oracleBookingCounts(db, NOW, cid));
    for (const w of windows) {
      const from = new Date(NOW.getTime() - w.from);
      const to = new Date(Math.min(NOW.getTime() + 3 * DAY, from.getTime() + w.length));
      expect(await revenueByDay(db, { from, to, companyId: cid })).toEqual(
        await oracleRevenueByDay(db, from, to, cid),
      );
      if (cid === null) continue;
      expect(canonical(await topClients(db, cid, { from, to }, 1000))).toEqual(
        canonical(await oracleTopClients(db, cid, from, to, 1000)),
      );
      expect(ranks(await topClients(db, cid, { from, to }, 2))).toEqual(
        ranks(await oracleTopClients(db, cid, from, to, 2)),
      );
      expect(canonical(await topRoutes(db, cid, { from, to }, 1000))).toEqual(
        canonical(await oracleTopRoutes(db, cid, from, to, 1000)),
      );
      expect(ranks(await topRoutes(db, cid, { from, to }, 2))).toEqual(
        ranks(await oracleTopRoutes(db, cid, from, to, 2)),
      );
    }
    if (cid !== null) {
      const soon = new Date(NOW.getTime() + DAY);
      expect(await pendingCounts(db, cid, soon)).toEqual(await oraclePending(db, cid, soon));
    }
  }
}

describe('report rollups', () => {
  it('answer what a scan of every booking of the window answers', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(op, { minLength: 1, maxLength: 30 }),
        fc.array(windowArb, { minLength: 1, maxLength: 4 }),
        async (ops, windows) => {
          const cos = await companies();
          for (const o of ops) await apply(cos, o);
          await compare(cos, windows);
        },
      ),
      { numRuns: 40 },
    );
  }, 600_000);

  it('concurrent bookings of one company on one day all count, without a deadlock', async () => {
    const cos = await companies();
    const at = new Date(NOW.getTime() - 3 * DAY);
    const book = (i: number) =>
      db.transaction().execute(async (trx) => {
        const r = await sql<{ id: string }>`
          insert into flight_bookings (status, payment_mode, supplier, client_reference, offer_id, offer,
            passengers, contact, flights, pricing, user_id, company_id, created_at, updated_at)
          values ('initiated', 'PNR_FIRST', 'sandbox', ${`rr${run}:c${i}`}, 'off', '{}', '[]',
            ${JSON.stringify({ email: EMAILS[i % 4] })}::jsonb, '[{"origin":"LHR","destination":"DXB"}]',
            ${JSON.stringify({ currency: 'GBP', total_minor: 100 + i, markup_minor: 1 })}::jsonb, 'u1',
            ${cos[0]}, ${at}, ${at}) returning id`.execute(trx);
        const id = r.rows[0]?.id;
        await sql`update flight_bookings set status = ${i % 3 === 0 ? 'paid' : 'confirmed'} where id = ${id}`.execute(
          trx,
        );
        await sql`insert into booking_payments (booking_id, state, amount_minor, captured_minor, refunded_minor, currency, provider)
          values (${id}, 'REFUNDED', 100, 100, ${i}, 'GBP', 'test')`.execute(trx);
        if (i % 4 === 0)
          await sql`update flight_bookings set status = 'cancelled' where id = ${id}`.execute(trx);
      });
    await Promise.all(Array.from({ length: 24 }, (_, i) => book(i)));
    await compare(cos, [{ from: 4 * DAY, length: 4 * DAY }]);
    const [sales] = await revenueByDay(db, { from: new Date(at.getTime() - 1), to: NOW, companyId: cos[0] });
    expect(sales).toMatchObject({ bookings: 24, refunds_minor: (23 * 24) / 2 });
    // On PostgreSQL the connections wrote their own slots of the same day's rows (no queue on one row);
    // PGlite has one connection, so one slot.
    const slots = await sql<{ n: number }>`
      select count(distinct slot)::int as n from booking_rollup_status where company_id = ${cos[0]}`.execute(
      db,
    );
    if (testBackend === 'postgres') expect(slots.rows[0]?.n).toBeGreaterThan(1);
    else expect(slots.rows[0]?.n).toBe(1);
  });

  it('the backfill of the migration rebuilds what the triggers kept', async () => {
    const tables = [
      'booking_rollup_status',
      'booking_rollup_revenue',
      'booking_rollup_clients',
      'booking_rollup_routes',
    ];
    // Per key, the slots (writing connections) summed; keys whose sums are all 0 are left by the triggers,
    // never written by the backfill.
    const counter = (k: string) => /bookings|_minor/.test(k);
    const live = async (t: string) => {
      const byKey = new Map<string, Record<string, unknown>>();
      for (const { j } of (
        await sql<{ j: string }>`select row_to_json(r)::text as j from ${sql.table(t)} r`.execute(db)
      ).rows) {
        const { slot: _slot, ...row } = JSON.parse(j) as Record<string, unknown>;
        const key = JSON.stringify(Object.entries(row).filter(([k]) => !counter(k)));
        const sum = byKey.get(key);
        if (!sum) byKey.set(key, row);
        else for (const [k, v] of Object.entries(row)) if (counter(k)) sum[k] = Number(sum[k]) + Number(v);
      }
      return canonical(
        [...byKey.values()]
          .map((x) => Object.fromEntries(Object.entries(x).map(([k, v]) => [k, counter(k) ? Number(v) : v])))
          .filter((x) => Object.entries(x).some(([k, v]) => counter(k) && v !== 0)),
      );
    };
    const kept = await Promise.all(tables.map(live));
    expect(kept[0]?.length).toBeGreaterThan(0);
    for (const t of tables) await sql`delete from ${sql.table(t)}`.execute(db);
    await backfill(db as never);
    expect(await Promise.all(tables.map(live))).toEqual(kept);
  });

  it('a whole day, a one-day window and the rolling 30 days (the dashboards) agree', async () => {
    const cos = await companies();
    await apply(cos, {
      k: 'insert',
      rows: [-31, -30, -29.5, -1, 0, 0.2].map((d, i) => ({
        company: 0,
        at: Math.round(d * DAY),
        status: STATUSES[4 + (i % 7)] as (typeof STATUSES)[number],
        currency: 'GBP',
        total: 1000 * (i + 1),
        markup: 10,
        email: EMAILS[i % 5] ?? null,
        user: 'u1',
        flights: [{ origin: 'LHR', destination: 'DXB' }],
        deadline: i === 1 ? DAY / 2 : null,
      })),
    });
    // Refunds go up, down and away with their payments: a booking five days ago (a whole day of any window).
    const five = (
      await sql<{
        id: string;
      }>`select id from flight_bookings where company_id = ${cos[0]} order by id limit 1`.execute(db)
    ).rows[0]?.id;
    await sql`update flight_bookings set created_at = ${new Date(NOW.getTime() - 5 * DAY)}, status = 'confirmed'
      where id = ${five}`.execute(db);
    for (const o of [
      { pick: 0, refunded: 300 },
      { pick: 0, refunded: 50 },
    ])
      await apply(cos, { k: 'pay', ...o });
    await apply(cos, { k: 'refund', pick: 0, refunded: 100 });
    await apply(cos, { k: 'unpay', pick: 0 });
    const day = await revenueByDay(db, {
      from: new Date(NOW.getTime() - 6 * DAY),
      to: NOW,
      companyId: cos[0],
    });
    expect(day[0]).toMatchObject({ bookings: 1, refunds_minor: 100 });
    const midnight = NOW.getTime() % DAY;
    await compare(cos, [
      { from: 30 * DAY, length: 30 * DAY },
      { from: midnight, length: midnight },
      { from: midnight + DAY, length: DAY },
      { from: 365 * DAY, length: 366 * DAY },
    ]);
  });
});
