import type { AccountsDeps } from '../accounts/index.ts';
import type { BookingSuppliers } from '../flight-booking/index.ts';

/** Live figures the composition root can supply (search engine, kernel); zeros when absent. */
export interface LiveFigures {
  activeSearches(): number | Promise<number>;
  activeStreams(): number | Promise<number>;
  openConnections(): number | Promise<number>;
}

export interface SupplierHealth {
  provider: string;
  healthy: boolean;
  circuit_state: 'closed' | 'open' | 'half_open';
  latency_ms: number | null;
  last_checked_at: string | null;
  config: { enabled: boolean; timeout: number; max_results: number; priority: number };
}

/**
 * The admin surface's deps: the accounts deps plus optional collaborators owned by other domains (the
 * payment provider for manual refunds, live search figures and supplier health for the live report).
 */
export interface AdminDeps extends AccountsDeps {
  suppliers?: BookingSuppliers;
  live?: LiveFigures;
  supplierStatus?: () => Promise<SupplierHealth[]>;
  /** Writes fail for want of disk space: the database is `degraded`. */
  storageFull?: () => boolean;
  version?: string;
  startedAt?: number;
}
