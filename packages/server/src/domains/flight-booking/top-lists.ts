/**
 * A company's top clients and top routes of a window, and its pending counts: whole days from the booking
 * rollups (migration 0240), the partial edge days from flight_bookings (report-window.ts). The answers are
 * those of a scan of every counted booking of the window (test/storage/report-rollups.test.ts keeps
 * that scan as its oracle).
 */
import { sql } from 'kysely';
import type { Currency } from '../../internal/money.ts';
import type { Db } from '../../storage/schema.ts';
import { num } from '../accounts/index.ts';
import { splitWindow, windowParts } from './report-window.ts';
import { COUNTED } from './revenue.ts';

interface ReportWindow {
  from: Date;
  to: Date;
}

/**
 * Clients by revenue. A client is matched by the booking's contact email (case-insensitively); bookings
 * without a client row count by that email, showing the email as the name and the lowest booker.
 */
export async function topClients(db: Db, companyId: number, w: ReportWindow, limit: number) {
  const parts = windowParts(
    splitWindow(w.from, w.to),
    (range) => sql`
      select b.pricing->>'currency' as currency, b.contact->>'email' as email, b.user_id,
             count(*) as bookings, sum((b.pricing->>'total_minor')::bigint) as revenue
      from flight_bookings b
      where b.company_id = ${companyId} and ${COUNTED} and ${range}
      group by 1, 2, 3`,
    (range) => sql`
      select r.currency, r.email, r.user_id, sum(r.bookings) as bookings, sum(r.revenue_minor) as revenue
      from booking_rollup_clients r where r.company_id = ${companyId} and ${range}
      group by 1, 2, 3 having sum(r.bookings) > 0`,
  );
  const rows = await sql<Record<string, unknown>>`
    select min(c.id) as client_id, case when min(c.id) is null then min(x.user_id) end as user_id,
           coalesce(min(c.full_name), min(x.email)) as full_name,
           sum(x.bookings) as bookings, x.currency, sum(x.revenue) as revenue
      from (${parts}) x
      left join clients c on c.company_id = ${companyId} and lower(c.email) = lower(x.email)
     group by coalesce('c' || c.id::text, 'e' || lower(x.email)), x.currency
     order by revenue desc, bookings desc limit ${limit}`.execute(db);
  return rows.rows.map((x) => ({
    client_id: x.client_id === null ? null : num(x.client_id),
    user_id: (x.user_id as string | null) ?? null,
    full_name: String(x.full_name ?? ''),
    bookings: num(x.bookings),
    currency: String(x.currency) as Currency,
    revenue_minor: num(x.revenue),
  }));
}

/**
 * Routes by bookings: the first segment's origin to the last segment's destination (a return trip counts
 * as LHR-LHR; segments carry no slice boundaries to split it further).
 */
export async function topRoutes(db: Db, companyId: number, w: ReportWindow, limit: number) {
  const parts = windowParts(
    splitWindow(w.from, w.to),
    (range) => sql`
      select b.flights->0->>'origin' as origin,
             b.flights->(jsonb_array_length(b.flights) - 1)->>'destination' as destination,
             b.pricing->>'currency' as currency,
             count(*) as bookings, sum((b.pricing->>'total_minor')::bigint) as revenue
      from flight_bookings b
      where b.company_id = ${companyId} and ${COUNTED} and jsonb_array_length(b.flights) > 0 and ${range}
      group by 1, 2, 3`,
    (range) => sql`
      select r.origin, r.destination, r.currency, r.bookings, r.revenue_minor as revenue
      from booking_rollup_routes r where r.company_id = ${companyId} and ${range}`,
  );
  const rows = await sql<Record<string, unknown>>`
    select origin, destination, sum(bookings) as bookings, currency, sum(revenue) as revenue
      from (${parts}) x
     group by origin, destination, currency having sum(bookings) > 0
     order by bookings desc, revenue desc limit ${limit}`.execute(db);
  return rows.rows.map((x) => ({
    origin: String(x.origin ?? ''),
    destination: String(x.destination ?? ''),
    bookings: num(x.bookings),
    currency: String(x.currency) as Currency,
    revenue_minor: num(x.revenue),
  }));
}

/**
 * The company's bookings awaiting payment and ticketing (every day, from the status rollup), and its
 * on-hold bookings whose ticketing deadline falls before `soon` (the partial index of migration 0240).
 */
export async function pendingCounts(db: Db, companyId: number, soon: Date) {
  const r = await sql<{ pay: unknown; tick: unknown; hold: unknown }>`
    select coalesce(sum(r.bookings) filter (where r.status = 'payment_pending'), 0) as pay,
           coalesce(sum(r.bookings) filter (where r.status = 'paid'), 0) as tick,
           (select count(*) from flight_bookings b
             where b.company_id = ${companyId} and b.status = 'on_hold' and b.ticketing_deadline <= ${soon}) as hold
      from booking_rollup_status r
     where r.company_id = ${companyId} and r.status in ('payment_pending', 'paid')`.execute(db);
  const p = r.rows[0];
  return { pending_payment: num(p?.pay), pending_ticketing: num(p?.tick), on_hold_expiring: num(p?.hold) };
}
