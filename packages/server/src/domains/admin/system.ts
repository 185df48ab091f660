/** Admin system: the kernel's TTL cache, the error log and a detailed health report. */
import { sql } from 'kysely';
import { ValidationError } from '../../kernel/errors.ts';
import type { Routes } from '../../kernel/types.ts';
import { columns, keysetBody, keysetList } from '../../storage/keyset-list.ts';
import { accountsDb, iso, num, ok, paging } from '../accounts/index.ts';
import type { AdminDeps } from './deps.ts';
import { componentHealth } from './reports.ts';

/**
 * The cache can only clear by key prefix, so a glob may use `*` only at its end (`search:*`, `*`); an
 * exact key clears that key and everything under it as a prefix, which is what an operator means.
 */
function globPrefix(pattern: string): string {
  const star = pattern.indexOf('*');
  if (/[?[\]]/.test(pattern) || (star >= 0 && star !== pattern.length - 1)) {
    throw new ValidationError([
      {
        loc: ['query', 'pattern'],
        msg: 'Only a trailing * is supported, e.g. search:* or *.',
        type: 'value_error',
      },
    ]);
  }
  return star >= 0 ? pattern.slice(0, -1) : pattern;
}

export function adminSystemRoutes(d: AdminDeps): Routes {
  const { db, clock, cache } = d;
  return {
    adminGetCacheStats: async () => {
      const s = cache.stats();
      return ok({
        hits: s.hits,
        misses: s.misses,
        hit_ratio: s.hit_ratio,
        keys: s.entries,
        key_distribution: s.key_distribution,
        // In-process cache: its memory is not measured separately.
        memory_bytes: null,
      });
    },

    adminClearCache: async (ctx) => {
      const pattern = String(ctx.query.pattern);
      return ok({ pattern, cleared: cache.clear(globPrefix(pattern)) });
    },

    adminListErrorLogs: async (ctx) => {
      const p = paging(ctx);
      // Newest first, keyset on (created_at, id), indexes of migration 0230.
      let q = accountsDb(db).selectFrom('error_logs as t');
      if (ctx.query.stage) q = q.where('t.stage', '=', ctx.query.stage);
      if (ctx.query.provider) q = q.where('t.provider', '=', ctx.query.provider);
      const r = await keysetList(
        db,
        {
          matches: q,
          table: 'error_logs',
          alias: 't',
          key: columns('created_at', 'id'),
          desc: true,
          page: p.page,
          page_size: p.page_size,
          ...(ctx.query.starting_after ? { starting_after: ctx.query.starting_after } : {}),
        },
        (rows) => rows.selectAll('t'),
      );
      const items = r.items.map((e) => ({
        error_id: Number(e.id),
        stage: e.stage,
        provider: e.provider,
        code: e.code,
        message: e.message,
        supplier_code: e.supplier_code,
        request_id: e.request_id,
        operation_id: e.operation_id,
        booking_id: e.booking_id === null ? null : Number(e.booking_id),
        created_at: iso(e.created_at),
      }));
      return ok(keysetBody(items, r, p));
    },

    adminGetSystemHealth: async () => {
      const components = await componentHealth(d);
      const suppliers: Record<string, { status: 'ok' | 'degraded' | 'down'; latency_ms: number | null }> = {};
      for (const s of d.supplierStatus ? await d.supplierStatus() : []) {
        suppliers[s.provider] = {
          status: s.healthy ? 'ok' : s.circuit_state === 'open' ? 'down' : 'degraded',
          latency_ms: s.latency_ms,
        };
      }
      const jobs = await sql<{ pending: number; failed: number }>`
        select count(*) filter (where status in ('queued', 'running')) as pending,
               count(*) filter (where status = 'failed') as failed from jobs`.execute(db);
      const status =
        components.database.status === 'down'
          ? 'down'
          : components.database.status === 'degraded' ||
              Object.values(suppliers).some((s) => s.status !== 'ok')
            ? 'degraded'
            : 'ok';
      return ok({
        status,
        version: d.version ?? '0.0.0',
        uptime_seconds: Math.max(
          0,
          (Date.now() - (d.startedAt ?? Date.now() - process.uptime() * 1000)) / 1000,
        ),
        components,
        suppliers,
        jobs: { pending: num(jobs.rows[0]?.pending), failed: num(jobs.rows[0]?.failed) },
        timestamp: clock.now().toISOString(),
      });
    },
  };
}
