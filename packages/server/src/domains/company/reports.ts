/** Company reports: KPIs, sales, top clients and top routes of the caller's company. */
import { sql } from 'kysely';
import type { Routes } from '../../kernel/types.ts';
import { type AccountsDeps, num, ok, periodRange } from '../accounts/index.ts';
import { bookingCounts, COUNTED, revenueByDay, totalsByCurrency } from '../flight-booking/index.ts';
import { ownCompany } from './clients.ts';
import { walletView } from './wallet-store.ts';

export function companyReportRoutes(d: AccountsDeps): Routes {
  const { db, clock } = d;
  const window = (period: unknown) => periodRange(String(period ?? '30d'), clock.now());
  const head = (r: ReturnType<typeof window>) => ({
    period: r.period,
    from: r.from.toISOString(),
    to: r.to.toISOString(),
  });

  return {
    companyGetDashboard: async (ctx) => {
      const cid = ownCompany(ctx);
      const now = clock.now();
      const soon = new Date(now.getTime() + 24 * 3_600_000);
      // One count per status, each a range of the index (company_id, status, created_at, id) (0180): the
      // cost follows the bookings in that status, not every booking of the company (issue 31).
      const count = (status: string, more = sql`true`) =>
        sql`(select count(*) from flight_bookings
              where company_id = ${cid} and status = ${status} and ${more})`;
      const pending = await sql<{ pay: number; tick: number; hold: number }>`
        select ${count('payment_pending')} as pay, ${count('paid')} as tick,
               ${count('on_hold', sql`ticketing_deadline <= ${soon}`)} as hold`.execute(db);
      const p = pending.rows[0];
      return ok({
        ...(await bookingCounts(db, now, cid)),
        pending_payment: num(p?.pay),
        pending_ticketing: num(p?.tick),
        on_hold_expiring: num(p?.hold),
        revenue_30d: totalsByCurrency(
          await revenueByDay(db, {
            from: new Date(now.getTime() - 30 * 86_400_000),
            to: now,
            companyId: cid,
          }),
        ),
        wallet: await walletView(db, cid),
        generated_at: now.toISOString(),
      });
    },

    companyGetSalesReport: async (ctx) => {
      const cid = ownCompany(ctx);
      const r = window(ctx.query.period);
      const days = await revenueByDay(db, { from: r.from, to: r.to, companyId: cid });
      return ok({
        ...head(r),
        days: days.map(({ date, currency, bookings, gross_minor, markup_minor }) => ({
          date,
          currency,
          bookings,
          gross_minor,
          markup_minor,
        })),
        totals: totalsByCurrency(days),
      });
    },

    companyGetTopClients: async (ctx) => {
      const cid = ownCompany(ctx);
      const r = window(ctx.query.period);
      const limit = Number(ctx.query.limit ?? 10);
      // A client is matched by the booking's contact email; bookings without a client row count by booker.
      const rows = await sql<Record<string, unknown>>`
        select min(c.id) as client_id, case when min(c.id) is null then min(b.user_id) end as user_id,
               coalesce(min(c.full_name), min(b.contact->>'email')) as full_name,
               count(*) as bookings, b.pricing->>'currency' as currency,
               sum((b.pricing->>'total_minor')::bigint) as revenue
          from flight_bookings b
          left join clients c on c.company_id = b.company_id and lower(c.email) = lower(b.contact->>'email')
         where b.company_id = ${cid} and ${COUNTED} and b.created_at >= ${r.from} and b.created_at <= ${r.to}
         group by coalesce('c' || c.id::text, 'e' || lower(b.contact->>'email')), b.pricing->>'currency'
         order by revenue desc, bookings desc limit ${limit}`.execute(db);
      return ok({
        ...head(r),
        items: rows.rows.map((x) => ({
          client_id: x.client_id === null ? null : num(x.client_id),
          user_id: (x.user_id as string | null) ?? null,
          full_name: String(x.full_name ?? ''),
          bookings: num(x.bookings),
          currency: String(x.currency),
          revenue_minor: num(x.revenue),
        })),
      });
    },

    companyGetTopRoutes: async (ctx) => {
      const cid = ownCompany(ctx);
      const r = window(ctx.query.period);
      const limit = Number(ctx.query.limit ?? 10);
      // A route is the first segment's origin to the last segment's destination (a return trip counts
      // as LHR-LHR; segments carry no slice boundaries to split it further).
      const rows = await sql<Record<string, unknown>>`
        select b.flights->0->>'origin' as origin,
               b.flights->(jsonb_array_length(b.flights) - 1)->>'destination' as destination,
               count(*) as bookings, b.pricing->>'currency' as currency,
               sum((b.pricing->>'total_minor')::bigint) as revenue
          from flight_bookings b
         where b.company_id = ${cid} and ${COUNTED} and jsonb_array_length(b.flights) > 0
           and b.created_at >= ${r.from} and b.created_at <= ${r.to}
         group by 1, 2, 4 order by bookings desc, revenue desc limit ${limit}`.execute(db);
      return ok({
        ...head(r),
        items: rows.rows.map((x) => ({
          origin: String(x.origin ?? ''),
          destination: String(x.destination ?? ''),
          bookings: num(x.bookings),
          currency: String(x.currency),
          revenue_minor: num(x.revenue),
        })),
      });
    },
  };
}
