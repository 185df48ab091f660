import type { Clock } from '../internal/clock.ts';
import type { FxSource } from '../internal/fx.ts';
import type { Logger } from '../kernel/types.ts';
import type { Db } from '../storage/schema.ts';
import type { GdsConfigStore } from '../suppliers/gds-config.ts';
import type { CircuitBreakerRegistry } from './circuit-breaker.ts';
import type { Timers } from './event-log.ts';
import type { SearchNotifier } from './notifier.ts';
import type { SupplierStats } from './supplier-stats.ts';
import type { SearchStatus, Vertical } from './tables.ts';
import type { MarkupSource, SearchableSupplier } from './verticals.ts';

// What the fan-out engine (engine.ts) is built from, and what its `start` takes and answers.

/** Where the engine finds the suppliers of a vertical (the supplier registry implements it). */
export interface SupplierSource {
  searchSuppliers(vertical: Vertical): SearchableSupplier<unknown, unknown>[];
  /** Exchange rates for offers a supplier prices in another currency than the search asked for. */
  readonly fx?: FxSource;
}

export interface SearchEngineDeps {
  db: Db;
  suppliers: SupplierSource;
  gdsConfig: GdsConfigStore;
  breakers: CircuitBreakerRegistry;
  stats: SupplierStats;
  notifier: SearchNotifier;
  clock: Clock;
  /** SEARCH_TTL_SECONDS */
  ttlSeconds: number;
  /** SEARCH_ORPHAN_GRACE_SECONDS: after the slowest supplier's deadline, how long until a search whose
   * process died is closed by another (orphans.ts). */
  orphanGraceMs?: number;
  timers?: Timers;
  log?: Logger;
  /** The markup of a company's offers (domains/markup, injected by the composition root). */
  markup: MarkupSource;
}

export interface StartedSearch {
  id: string;
  status: SearchStatus;
  expires_at: Date;
}

export interface Starter {
  userId: string;
  companyId: number | null;
}
