/**
 * Admin views and controls of the supplier connections: circuit breakers, health, performance, config.
 * Breakers and call statistics are per process (each process reports what it saw); config is in the
 * database and shared. The engine's own state is in src/search/ (circuit-breaker.ts, supplier-stats.ts).
 *
 * METHOD /path → operationId:
 *   GET   /api/v1/admin/gds/circuit-breakers → adminGetCircuitBreakers
 *   GET   /api/v1/admin/gds/performance → adminGetGdsPerformance
 *   GET   /api/v1/admin/gds/status → adminGetGdsStatus
 *   PATCH /api/v1/admin/gds/{provider}/config → adminUpdateGdsConfig
 *   POST  /api/v1/admin/gds/{provider}/reset-circuit → adminResetGdsCircuit
 */
import { FLIGHT_SUPPLIERS } from '@travel/contract';
import { oneOf } from '../../internal/narrow.ts';
import { forbidden, notFound } from '../../kernel/errors.ts';
import type { RequestContext, Routes } from '../../kernel/types.ts';
import type { BreakerSnapshot } from '../../search/circuit-breaker.ts';
import type { SearchService } from '../../search/service.ts';
import type { GdsSettings } from '../../suppliers/gds-config.ts';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function requireAdmin(ctx: RequestContext): void {
  if (ctx.auth?.role !== 'super_admin') throw forbidden('insufficient_role', 'Platform administrators only.');
}

const breakerView = (b: BreakerSnapshot) => ({
  provider: b.name,
  state: b.state,
  failure_count: b.failures,
  last_failure_at: b.last_failure_at,
  opened_at: b.opened_at,
  next_attempt_at: b.next_attempt_at,
});

const configView = (c: GdsSettings) => ({
  enabled: c.enabled,
  timeout: Math.max(1, Math.round(c.timeout_ms / 1000)),
  max_results: c.max_results,
  priority: c.priority,
});

/** ReportPeriod -> milliseconds ending now. */
export function periodMs(period: string, now: Date): number {
  const day = 86_400_000;
  const fixed: Record<string, number> = {
    '7d': 7 * day,
    '30d': 30 * day,
    '90d': 90 * day,
    '365d': 365 * day,
  };
  if (fixed[period]) return fixed[period];
  const y = now.getUTCFullYear();
  const start =
    period === 'mtd'
      ? Date.UTC(y, now.getUTCMonth(), 1)
      : period === 'ytd'
        ? Date.UTC(y, 0, 1)
        : Date.UTC(y, now.getUTCMonth(), now.getUTCDate());
  return Math.max(1, now.getTime() - start);
}

export function gdsAdminRoutes(s: SearchService): Routes {
  const all = () => {
    const n = s.suppliers.names();
    return [...n.flight, ...n.hotel, ...n.transfer];
  };
  const provider = (ctx: RequestContext): string => {
    const p = String(ctx.params.provider ?? '');
    if (!all().includes(p)) throw notFound('provider_not_found', `Unknown supplier "${p}".`);
    return p;
  };

  return {
    adminGetCircuitBreakers: async (ctx) => {
      requireAdmin(ctx);
      return { status: 200, body: { items: all().map((p) => breakerView(s.breakers.get(p).snapshot())) } };
    },

    adminGetGdsStatus: async (ctx) => {
      requireAdmin(ctx);
      const names = s.suppliers.names().flight;
      const configs = await s.suppliers.gdsConfig.all(names);
      const items = names.map((p) => {
        const state = s.breakers.get(p).currentState();
        const sum = s.stats.summary(p, '15m');
        const extra = s.stats.extra(p, '15m');
        const cfg = configs[p] as GdsSettings;
        return {
          provider: oneOf(FLIGHT_SUPPLIERS, p, 'flight supplier'),
          // Healthy: reachable (breaker not open) and, when it was called lately, mostly answering.
          healthy: cfg.enabled && state !== 'open' && (sum.calls === 0 || sum.success_rate >= 0.5),
          circuit_state: state,
          latency_ms: sum.p50_ms,
          last_checked_at: iso(extra.last_at),
          config: configView(cfg),
        };
      });
      return { status: 200, body: { items } };
    },

    adminGetGdsPerformance: async (ctx) => {
      requireAdmin(ctx);
      const period = typeof ctx.query.period === 'string' ? ctx.query.period : '7d';
      const ms = periodMs(period, s.clock.now());
      const wanted =
        typeof ctx.query.provider === 'string' ? [ctx.query.provider] : s.suppliers.names().flight;
      const items = wanted.map((p) => {
        const sum = s.stats.summary(p, ms);
        const extra = s.stats.extra(p, ms);
        return {
          provider: oneOf(FLIGHT_SUPPLIERS, p, 'flight supplier'),
          period,
          searches: sum.calls,
          success_rate: sum.success_rate,
          timeouts: Math.round(sum.timeout_rate * sum.calls),
          errors: Math.round(sum.error_rate * sum.calls),
          avg_latency_ms: extra.avg_ms,
          p95_latency_ms: sum.p95_ms,
          avg_offers: null,
        };
      });
      return { status: 200, body: { period, items } };
    },

    adminUpdateGdsConfig: async (ctx) => {
      requireAdmin(ctx);
      const p = provider(ctx);
      const b = ctx.body ?? {};
      const patch: Partial<GdsSettings> = {};
      if (typeof b.enabled === 'boolean') patch.enabled = b.enabled;
      if (typeof b.timeout === 'number') patch.timeout_ms = Math.round(b.timeout * 1000);
      if (typeof b.max_results === 'number') patch.max_results = b.max_results;
      if (typeof b.priority === 'number') patch.priority = b.priority;
      const next = await s.suppliers.gdsConfig.update(p, patch);
      return { status: 200, body: configView(next) };
    },

    adminResetGdsCircuit: async (ctx) => {
      requireAdmin(ctx);
      const p = provider(ctx);
      const b = s.breakers.get(p);
      b.forceClose();
      return { status: 200, body: breakerView(b.snapshot()) };
    },
  };
}
