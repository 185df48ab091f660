/**
 * Booking revenue aggregates over flight bookings, shared by admin and company reports. A booking counts
 * once it holds a reservation (not initiated, failed or expired); refunds come from its payments.
 */
import { sql } from 'kysely';
import type { Currency } from '../../internal/money.ts';
import type { Db } from '../../storage/schema.ts';
import { num } from '../accounts/index.ts';
import { splitWindow, windowParts } from './report-window.ts';

/** Kept equal to migration 0240's (its rollups count these bookings): a change needs a migration. */
export const COUNTED = sql`b.status not in ('initiated', 'pending_pnr', 'pnr_failed', 'expired')`;

export interface RevenueFilter {
  from: Date;
  to: Date;
  companyId?: number | null;
}

const companyClause = (f: RevenueFilter) =>
  f.companyId === undefined || f.companyId === null ? sql`true` : sql`b.company_id = ${f.companyId}`;

const REFUNDS = sql`coalesce((select sum(p.refunded_minor) from booking_payments p where p.booking_id = b.id), 0)`;

/**
 * One row per UTC day and currency: whole days from booking_rollup_revenue (migration 0240), the partial
 * days at the window's edges from flight_bookings (report-window.ts).
 */
export async function revenueByDay(db: Db, f: RevenueFilter) {
  const w = splitWindow(f.from, f.to);
  const rollupCompany =
    f.companyId === undefined || f.companyId === null ? sql`true` : sql`r.company_id = ${f.companyId}`;
  const parts = windowParts(
    w,
    (range) => sql`
      select to_char(date_trunc('day', b.created_at at time zone 'UTC'), 'YYYY-MM-DD') as day,
             b.pricing->>'currency' as currency,
             count(*) as bookings,
             coalesce(sum((b.pricing->>'total_minor')::bigint), 0) as gross,
             coalesce(sum((b.pricing->>'markup_minor')::bigint), 0) as markup,
             coalesce(sum(${REFUNDS}), 0) as refunds
      from flight_bookings b
      where ${COUNTED} and ${range} and ${companyClause(f)}
      group by 1, 2`,
    (range) => sql`
      select to_char(r.day, 'YYYY-MM-DD') as day, r.currency, sum(r.bookings) as bookings,
             sum(r.gross_minor) as gross, sum(r.markup_minor) as markup, sum(r.refunds_minor) as refunds
      from booking_rollup_revenue r where ${range} and ${rollupCompany}
      group by r.day, r.currency having sum(r.bookings) > 0`,
  );
  const r = await sql<Record<string, unknown>>`
    select day, currency, sum(bookings) as bookings, sum(gross) as gross, sum(markup) as markup,
           sum(refunds) as refunds
    from (${parts}) x group by 1, 2 order by 1, 2`.execute(db);
  return r.rows.map((x) => {
    const gross = num(x.gross);
    const refunds = num(x.refunds);
    return {
      date: String(x.day),
      currency: String(x.currency) as Currency,
      bookings: num(x.bookings),
      gross_minor: gross,
      markup_minor: num(x.markup),
      refunds_minor: refunds,
      net_minor: gross - refunds,
    };
  });
}

/** Per-currency totals of `revenueByDay` rows. */
export function totalsByCurrency(
  days: {
    currency: Currency;
    bookings: number;
    gross_minor: number;
    markup_minor: number;
    refunds_minor?: number;
  }[],
) {
  const m = new Map<
    string,
    {
      currency: Currency;
      bookings: number;
      gross_minor: number;
      markup_minor: number;
      refunds_minor: number;
      net_minor: number;
    }
  >();
  for (const d of days) {
    const t = m.get(d.currency) ?? {
      currency: d.currency,
      bookings: 0,
      gross_minor: 0,
      markup_minor: 0,
      refunds_minor: 0,
      net_minor: 0,
    };
    t.bookings += d.bookings;
    t.gross_minor += d.gross_minor;
    t.markup_minor += d.markup_minor;
    t.refunds_minor += d.refunds_minor ?? 0;
    t.net_minor = t.gross_minor - t.refunds_minor;
    m.set(d.currency, t);
  }
  return [...m.values()].sort((a, b) => a.currency.localeCompare(b.currency));
}

/**
 * Booking counts: today, last 30 days and by status (every status of the last 30 days). Whole days from
 * booking_rollup_status (migration 0240), the first partial day from flight_bookings.
 */
export async function bookingCounts(db: Db, now: Date, companyId: number | null) {
  const dayStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  const since = new Date(now.getTime() - 30 * 86_400_000);
  const cc = companyClause({ from: since, to: now, companyId });
  const rc = companyId === null ? sql`true` : sql`r.company_id = ${companyId}`;
  const firstToday = dayStart.toISOString().slice(0, 10);
  const parts = windowParts(
    splitWindow(since, null),
    (range) => sql`
      select b.status, count(*) filter (where b.created_at >= ${dayStart}) as today, count(*) as d30
      from flight_bookings b where ${range} and ${cc} group by b.status`,
    (range) => sql`
      select r.status, sum(r.bookings) filter (where r.day >= ${firstToday}::date) as today, sum(r.bookings) as d30
      from booking_rollup_status r where ${range} and ${rc} group by r.status`,
  );
  const r = await sql<{ status: string; today: number; d30: number }>`
    select status, sum(today) as today, sum(d30) as d30 from (${parts}) x
    group by status having sum(d30) > 0`.execute(db);
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

/** Counts rows of a table another domain owns, 0 while that table does not exist yet. */
export async function countIfTable(db: Db, table: string, where: ReturnType<typeof sql>): Promise<number> {
  const exists = await sql<{ t: string | null }>`select to_regclass(${table})::text as t`.execute(db);
  if (!exists.rows[0]?.t) return 0;
  const r = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)} where ${where}`.execute(
    db,
  );
  return num(r.rows[0]?.n);
}
