/**
 * Assembles the search engine and its readers: what app.ts creates once and hands to the search and
 * admin-GDS routes. With a PostgreSQL server (databaseUrl) new events are announced across processes by
 * LISTEN/NOTIFY; on PGlite an in-process emitter is enough.
 */

import { type Clock, systemClock } from '../internal/clock.ts';
import type { JobHandler } from '../jobs/runner.ts';
import type { Logger } from '../kernel/types.ts';
import type { Db } from '../storage/schema.ts';
import type { SupplierRegistry } from '../suppliers/registry.ts';
import { type BreakerConfig, CircuitBreakerRegistry } from './circuit-breaker.ts';
import { SearchEngine } from './engine.ts';
import { realTimers, type Timers } from './event-log.ts';
import { LocalNotifier, PgNotifier, type SearchNotifier } from './notifier.ts';
import { searchJobHandlers } from './orphans.ts';
import type { ReaderDeps } from './readers.ts';
import { SupplierStats } from './supplier-stats.ts';
import type { MarkupSource } from './verticals.ts';

export interface SearchServiceOptions {
  db: Db;
  suppliers: SupplierRegistry;
  /** postgres://… when the database is a server (cross-process notifications). */
  databaseUrl?: string | undefined;
  /** The PostgreSQL schema in use, if not the default (keeps NOTIFY channels apart per schema). */
  schema?: string | undefined;
  clock?: Clock;
  /** SEARCH_TTL_SECONDS */
  ttlSeconds: number;
  /** The markup of a company's offers: domains/markup's `searchMarkup(db)` (injected, so the engine
   * imports no domain). */
  markup: MarkupSource;
  /** SEARCH_HEARTBEAT_SECONDS, default 15. */
  heartbeatMs?: number;
  /** SEARCH_POLL_MS: fallback re-read of the event log, default 1000. */
  pollMs?: number;
  /** SEARCH_ORPHAN_GRACE_SECONDS: a search whose process died is closed this long after its slowest
   * supplier's deadline (default 10 s). */
  orphanGraceMs?: number;
  breakerConfig?: Partial<BreakerConfig>;
  /** Told of every circuit breaker state change (the per-supplier metrics count them). */
  onBreakerChange?: (supplier: string, from: string, to: string) => void;
  timers?: Timers;
  log?: Logger;
  /** Batch wait: resolves after `seconds` (tests substitute a controllable deadline). */
  batchDeadline?: (seconds: number, signal: AbortSignal) => Promise<void>;
}

export interface SearchService {
  engine: SearchEngine;
  readers: ReaderDeps;
  breakers: CircuitBreakerRegistry;
  stats: SupplierStats;
  suppliers: SupplierRegistry;
  notifier: SearchNotifier;
  clock: Clock;
  db: Db;
  batchDeadline(seconds: number, signal: AbortSignal): Promise<void>;
  /** For the job runner: closes searches whose process died mid fan-out (orphans.ts). */
  jobHandlers: Record<string, JobHandler>;
  /** Ends running fan-outs (each finishes its log with `done`), then stops listening. */
  close(): Promise<void>;
}

function sleepDeadline(timers: Timers) {
  return (seconds: number, signal: AbortSignal): Promise<void> =>
    new Promise((resolve) => {
      const t = timers.setTimeout(resolve, seconds * 1000);
      signal.addEventListener(
        'abort',
        () => {
          timers.clearTimeout(t);
          resolve();
        },
        { once: true },
      );
    });
}

export async function createSearchService(o: SearchServiceOptions): Promise<SearchService> {
  const clock = o.clock ?? systemClock;
  const timers = o.timers ?? realTimers;
  const now = () => clock.now().getTime();
  let notifier: SearchNotifier;
  if (o.databaseUrl) {
    const pgn = new PgNotifier({
      db: o.db,
      databaseUrl: o.databaseUrl,
      channel: o.schema ? `search_events_${o.schema}` : 'search_events',
      ...(o.log ? { log: o.log } : {}),
    });
    await pgn.start();
    notifier = pgn;
  } else {
    notifier = new LocalNotifier();
  }
  const breakers = new CircuitBreakerRegistry({
    now,
    ...(o.breakerConfig ? { defaults: o.breakerConfig } : {}),
    ...(o.onBreakerChange ? { onStateChange: o.onBreakerChange } : {}),
  });
  const stats = new SupplierStats({ now });
  const engine = new SearchEngine({
    db: o.db,
    suppliers: o.suppliers,
    gdsConfig: o.suppliers.gdsConfig,
    breakers,
    stats,
    notifier,
    clock,
    ttlSeconds: o.ttlSeconds,
    markup: o.markup,
    ...(o.orphanGraceMs !== undefined ? { orphanGraceMs: o.orphanGraceMs } : {}),
    timers,
    ...(o.log ? { log: o.log } : {}),
  });
  const readers: ReaderDeps = {
    db: o.db,
    notifier,
    clock,
    heartbeatMs: o.heartbeatMs ?? 15_000,
    pollMs: o.pollMs ?? 1000,
    timers,
  };
  return {
    engine,
    readers,
    breakers,
    stats,
    suppliers: o.suppliers,
    notifier,
    clock,
    db: o.db,
    batchDeadline: o.batchDeadline ?? sleepDeadline(timers),
    jobHandlers: searchJobHandlers({ db: o.db, notifier, clock, ...(o.log ? { log: o.log } : {}) }),
    async close() {
      await engine.close();
      await notifier.close();
    },
  };
}
