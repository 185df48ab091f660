/**
 * The report queries as they were before the booking rollups (migration 0240): each a scan of every
 * booking of its window. Kept verbatim as the oracle of report-rollups.test.ts.
 */
import { sql } from 'kysely';
import type { Db } from '../../src/storage/schema.ts';

const COUNTED = sql`b.status not in ('initiated', 'pending_pnr', 'pnr_failed', 'expired')`;
const REFUNDS = sql`coalesce((select sum(p.refunded_minor) from booking_payments p where p.booking_id = b.id), 0)`;
const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));
const company = (cid: number | null) => (cid === null ? sql`true` : sql`b.company_id = ${cid}`);

export async function oracleRevenueByDay(db: Db, from: Date, to: Date, cid: number | null) {
  const r = await sql<Record<string, unknown>>`
    select to_char(date_trunc('day', b.created_at at time zone 'UTC'), 'YYYY-MM-DD') as day,
           b.pricing->>'currency' as currency,
           count(*) as bookings,
           coalesce(sum((b.pricing->>'total_minor')::bigint), 0) as gross,
           coalesce(sum((b.pricing->>'markup_minor')::bigint), 0) as markup,
           coalesce(sum(${REFUNDS}), 0) as refunds
    from flight_bookings b
    where ${COUNTED} and b.created_at >= ${from} and b.created_at <= ${to} and ${company(cid)}
    group by 1, 2 order by 1, 2`.execute(db);
  return r.rows.map((x) => ({
    date: String(x.day),
    currency: String(x.currency),
    bookings: num(x.bookings),
    gross_minor: num(x.gross),
    markup_minor: num(x.markup),
    refunds_minor: num(x.refunds),
    net_minor: num(x.gross) - num(x.refunds),
  }));
}

export async function oracleBookingCounts(db: Db, now: Date, cid: number | null) {
  const dayStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const since = new Date(now.getTime() - 30 * 86_400_000);
  const r = await sql<{ status: string; today: number; d30: number }>`
    select b.status, count(*) filter (where b.created_at >= ${dayStart}) as today, count(*) as d30
    from flight_bookings b where b.created_at >= ${since} and ${company(cid)} group by b.status`.execute(db);
  const by: Record<string, number> = {};
  let today = 0;
  let d30 = 0;
  for (const x of r.rows) {
    by[x.status] = num(x.d30);
    today += num(x.today);
    d30 += num(x.d30);
  }
  return { bookings_today: today, bookings_30d: d30, bookings_by_status: by };
}

export async function oraclePending(db: Db, cid: number, soon: Date) {
  const count = (status: string, more = sql`true`) =>
    sql`(select count(*) from flight_bookings
          where company_id = ${cid} and status = ${status} and ${more})`;
  const r = await sql<{ pay: number; tick: number; hold: number }>`
    select ${count('payment_pending')} as pay, ${count('paid')} as tick,
           ${count('on_hold', sql`ticketing_deadline <= ${soon}`)} as hold`.execute(db);
  const p = r.rows[0];
  return { pending_payment: num(p?.pay), pending_ticketing: num(p?.tick), on_hold_expiring: num(p?.hold) };
}

export async function oracleTopClients(db: Db, cid: number, from: Date, to: Date, limit: number) {
  const rows = await sql<Record<string, unknown>>`
    select min(c.id) as client_id, case when min(c.id) is null then min(b.user_id) end as user_id,
           coalesce(min(c.full_name), min(b.contact->>'email')) as full_name,
           count(*) as bookings, b.pricing->>'currency' as currency,
           sum((b.pricing->>'total_minor')::bigint) as revenue
      from flight_bookings b
      left join clients c on c.company_id = b.company_id and lower(c.email) = lower(b.contact->>'email')
     where b.company_id = ${cid} and ${COUNTED} and b.created_at >= ${from} and b.created_at <= ${to}
     group by coalesce('c' || c.id::text, 'e' || lower(b.contact->>'email')), b.pricing->>'currency'
     order by revenue desc, bookings desc limit ${limit}`.execute(db);
  return rows.rows.map((x) => ({
    client_id: x.client_id === null ? null : num(x.client_id),
    user_id: (x.user_id as string | null) ?? null,
    full_name: String(x.full_name ?? ''),
    bookings: num(x.bookings),
    currency: String(x.currency),
    revenue_minor: num(x.revenue),
  }));
}

export async function oracleTopRoutes(db: Db, cid: number, from: Date, to: Date, limit: number) {
  const rows = await sql<Record<string, unknown>>`
    select b.flights->0->>'origin' as origin,
           b.flights->(jsonb_array_length(b.flights) - 1)->>'destination' as destination,
           count(*) as bookings, b.pricing->>'currency' as currency,
           sum((b.pricing->>'total_minor')::bigint) as revenue
      from flight_bookings b
     where b.company_id = ${cid} and ${COUNTED} and jsonb_array_length(b.flights) > 0
       and b.created_at >= ${from} and b.created_at <= ${to}
     group by 1, 2, 4 order by bookings desc, revenue desc limit ${limit}`.execute(db);
  return rows.rows.map((x) => ({
    origin: String(x.origin ?? ''),
    destination: String(x.destination ?? ''),
    bookings: num(x.bookings),
    currency: String(x.currency),
    revenue_minor: num(x.revenue),
  }));
}
