/** Company reports: KPIs, sales, top clients and top routes of the caller's company. */
import type { components } from '@travel/contract';
import type { Currency } from '../../internal/money.ts';
import type { Routes } from '../../kernel/types.ts';
import { type AccountsDeps, ok, periodRange } from '../accounts/index.ts';
import {
  bookingCounts,
  pendingCounts,
  revenueByDay,
  topClients,
  topRoutes,
  totalsByCurrency,
} from '../flight-booking/index.ts';
import { ownCompany } from './clients.ts';
import { walletView } from './wallet-store.ts';

export function companyReportRoutes(d: AccountsDeps): Routes {
  const { db, clock } = d;
  const window = (period: components['schemas']['ReportPeriod'] = '30d') => ({
    ...periodRange(period, clock.now()),
    period,
  });
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
      const wallet = await walletView(db, cid);
      return ok({
        ...(await bookingCounts(db, now, cid)),
        ...(await pendingCounts(db, cid, soon)),
        revenue_30d: totalsByCurrency(
          await revenueByDay(db, {
            from: new Date(now.getTime() - 30 * 86_400_000),
            to: now,
            companyId: cid,
          }),
        ),
        wallet: { ...wallet, currency: wallet.currency as Currency },
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
      return ok({ ...head(r), items: await topClients(db, cid, r, limit) });
    },

    companyGetTopRoutes: async (ctx) => {
      const cid = ownCompany(ctx);
      const r = window(ctx.query.period);
      const limit = Number(ctx.query.limit ?? 10);
      return ok({ ...head(r), items: await topRoutes(db, cid, r, limit) });
    },
  };
}
