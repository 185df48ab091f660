/** Admin reports: the audit log, platform KPIs, live figures and revenue. */
import { sql } from 'kysely';
import type { Routes } from '../../kernel/types.ts';
import { boundedTotal } from '../../storage/bounded-total.ts';
import { dayRange, iso, num, ok, pageBody, paging, periodRange } from '../accounts/index.ts';
import { bookingCounts, countIfTable, revenueByDay, totalsByCurrency } from '../flight-booking/index.ts';
import type { AdminDeps } from './deps.ts';

export async function componentHealth(d: AdminDeps) {
  const t0 = performance.now();
  let database: { status: 'ok' | 'degraded' | 'down'; latency_ms: number | null };
  try {
    await sql`select 1`.execute(d.db);
    database = {
      status: d.storageFull?.() ? 'degraded' : 'ok',
      latency_ms: Math.round((performance.now() - t0) * 100) / 100,
    };
  } catch {
    database = { status: 'down', latency_ms: null };
  }
  const t1 = performance.now();
  d.cache.stats();
  const cache = { status: 'ok' as const, latency_ms: Math.round((performance.now() - t1) * 100) / 100 };
  return { database, cache };
}

export function auditView(r: {
  id: number | string;
  at: Date | string;
  actor_id: string | null;
  impersonator_id: string | null;
  company_id: number | null;
  entity_type: string;
  entity_id: string;
  action: string;
  reason: string | null;
  changes: unknown;
  request_id: string | null;
  ip: string | null;
}) {
  const changes = (typeof r.changes === 'string' ? JSON.parse(r.changes) : r.changes) as Record<
    string,
    unknown
  > | null;
  return {
    audit_id: Number(r.id),
    event: `${r.entity_type}.${r.action}`,
    actor_user_id: r.actor_id,
    impersonator_id: r.impersonator_id,
    company_id: r.company_id,
    target_type: r.entity_type,
    target_id: r.entity_id,
    details: { ...(changes ?? {}), ...(r.reason ? { reason: r.reason } : {}) },
    ip: r.ip,
    request_id: r.request_id,
    created_at: iso(r.at) as string,
  };
}

export function adminReportRoutes(d: AdminDeps): Routes {
  const { db, clock } = d;
  return {
    adminGetAuditLog: async (ctx) => {
      const p = paging(ctx);
      const q0 = ctx.query;
      let q = db.selectFrom('audit_log');
      if (typeof q0.event === 'string') {
        // Events are `<entity>.<action>`; the entity never contains a dot.
        const i = q0.event.indexOf('.');
        q =
          i > 0
            ? q.where('entity_type', '=', q0.event.slice(0, i)).where('action', '=', q0.event.slice(i + 1))
            : q.where('action', '=', q0.event);
      }
      if (typeof q0.user_id === 'string') {
        const uid = q0.user_id;
        q = q.where((eb) =>
          eb.or([
            eb('actor_id', '=', uid),
            eb('impersonator_id', '=', uid),
            eb.and([eb('entity_type', '=', 'user'), eb('entity_id', '=', uid)]),
          ]),
        );
      }
      const { from, to } = dayRange(q0);
      if (from) q = q.where('at', '>=', from);
      if (to) q = q.where('at', '<', to);
      // Newest first by (at, id), index audit_log_list_at (0182); `starting_after` seeks past an entry.
      const after = q0.starting_after;
      let rows = q.selectAll();
      rows =
        typeof after === 'number'
          ? rows.where(
              sql<boolean>`(at, id) < ((select c.at from audit_log c where c.id = ${after}), ${after})`,
            )
          : rows.offset(p.offset);
      const [items, total] = await Promise.all([
        rows
          .orderBy('at', 'desc')
          .orderBy('id', 'desc')
          .limit(p.page_size + 1)
          .execute(),
        boundedTotal(db, q),
      ]);
      return ok({
        ...pageBody(items.slice(0, p.page_size).map(auditView), total.total, p),
        total_estimated: total.estimated,
        has_more: items.length > p.page_size,
      });
    },

    adminGetDashboard: async () => {
      const now = clock.now();
      const since30 = new Date(now.getTime() - 30 * 86_400_000);
      const since24h = new Date(now.getTime() - 86_400_000);
      const counts = await bookingCounts(db, now, null);
      const days = await revenueByDay(db, { from: since30, to: now });
      const activeCompanies = await db
        .selectFrom('companies')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('status', '=', 'active')
        .executeTakeFirstOrThrow();
      const activeUsers = await db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('status', '=', 'active')
        .where('is_active', '=', true)
        .executeTakeFirstOrThrow();
      return ok({
        ...counts,
        hotel_bookings_30d: await countIfTable(db, 'hotel_bookings', sql`created_at >= ${since30}`),
        transport_bookings_30d: await countIfTable(db, 'transport_bookings', sql`created_at >= ${since30}`),
        revenue_30d: totalsByCurrency(days),
        active_companies: num(activeCompanies.n),
        active_users: num(activeUsers.n),
        searches_24h: await countIfTable(db, 'search_sessions', sql`created_at >= ${since24h}`),
        pending_reconciliation: await countIfTable(
          db,
          'booking_reconciliation_queue',
          sql`job_status in ('queued', 'running')`,
        ),
        generated_at: now.toISOString(),
      });
    },

    adminGetLiveReport: async () => {
      const live = d.live;
      return ok({
        active_searches: live ? num(await live.activeSearches()) : 0,
        active_streams: live ? num(await live.activeStreams()) : 0,
        open_connections: live ? num(await live.openConnections()) : 0,
        components: await componentHealth(d),
        suppliers: d.supplierStatus ? await d.supplierStatus() : [],
        generated_at: clock.now().toISOString(),
      });
    },

    adminGetRevenueReport: async (ctx) => {
      const period = ctx.query.period ?? '30d';
      const r = periodRange(period, clock.now());
      const companyId = ctx.query.company_id ?? null;
      const days = await revenueByDay(db, { from: r.from, to: r.to, companyId });
      return ok({
        period,
        from: r.from.toISOString(),
        to: r.to.toISOString(),
        company_id: companyId,
        days,
        totals: totalsByCurrency(days),
      });
    },
  };
}
