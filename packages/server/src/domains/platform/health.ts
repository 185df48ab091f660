/**
 * The health endpoints. `/health/` (and its three aliases) is the spec's aggregated check: 503 while the
 * database is down. For an orchestrator there are two more, which answer different questions:
 *   GET /health/live  → getLiveness: the process answers (never looks at the database, so an outage
 *                       does not get the process restarted);
 *   GET /health/ready → getReadiness: the database answers, every migration this build knows is applied,
 *                       and the process is not draining. SIGTERM turns it 503 at once, READINESS_DRAIN_MS
 *                       before the listener closes (main.ts), so load balancers stop sending traffic first.
 */
import type { TtlCache } from '../../cache/ttl-cache.ts';
import type { BuildInfo } from '../../internal/build-info.ts';
import type { ResultOf } from '../../kernel/types.ts';

export interface HealthDeps {
  cache: TtlCache;
  pingDatabase(): Promise<number>;
  /** Writes fail for want of disk space: the database is reachable but `degraded`. */
  storageFull(): boolean;
  /** Migrations this build knows that the database has not applied; throws when it is unreachable. */
  pendingMigrations(): Promise<readonly string[]>;
  /** True from SIGTERM on. */
  draining(): boolean;
  build: BuildInfo;
  startedAt: number;
}

const round = (ms: number) => Math.round(ms * 100) / 100;
const noStore = { 'cache-control': 'no-store' };

export function healthHandlers(d: HealthDeps) {
  /** The four health operations answer the same `Health` body. */
  const health = async (): Promise<ResultOf<'getHealth'>> => {
    let database: { status: 'ok' | 'degraded' | 'down'; latency_ms: number | null };
    try {
      const latency = round(await d.pingDatabase());
      database = { status: d.storageFull() ? 'degraded' : 'ok', latency_ms: latency };
    } catch {
      database = { status: 'down', latency_ms: null };
    }
    const t0 = performance.now();
    d.cache.set('health:probe', 1, 1000);
    d.cache.get('health:probe');
    const cache = { status: 'ok' as const, latency_ms: round(performance.now() - t0) };
    const status = database.status;
    return {
      status: status === 'down' ? 503 : 200,
      body: { status, components: { database, cache }, build: d.build, timestamp: new Date().toISOString() },
      headers: noStore,
    };
  };
  const liveness = async (): Promise<ResultOf<'getLiveness'>> => ({
    status: 200,
    body: { status: 'ok', uptime_seconds: (Date.now() - d.startedAt) / 1000 },
    headers: noStore,
  });
  const readiness = async (): Promise<ResultOf<'getReadiness'>> => {
    const draining = d.draining();
    let database: 'ok' | 'down' = 'ok';
    let migrations: 'current' | 'pending' | 'unknown' = 'unknown';
    try {
      migrations = (await d.pendingMigrations()).length === 0 ? 'current' : 'pending';
    } catch {
      database = 'down';
    }
    const ready = !draining && database === 'ok' && migrations === 'current';
    return {
      status: ready ? 200 : 503,
      body: {
        status: ready ? 'ready' : 'not_ready',
        checks: { database, migrations, draining },
        build: d.build,
      },
      headers: noStore,
    };
  };
  return {
    getHealth: health,
    getHealthAlias: health,
    getApiHealth: health,
    getApiHealthAlias: health,
    getLiveness: liveness,
    getReadiness: readiness,
  };
}
