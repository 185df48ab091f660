import type { SharedServices } from '../../app.ts';
import type { BookingSuppliers } from '../booking/suppliers.ts';

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
 * What the admin, company and customer routes are built from: the shared services plus optional
 * collaborators owned by other domains (the payment provider for manual refunds, live search figures
 * and supplier health for the live report).
 */
export interface AccountsDeps
  extends Pick<SharedServices, 'db' | 'clock' | 'cache' | 'mailer' | 'tokens' | 'principals' | 'config'> {
  suppliers?: BookingSuppliers;
  live?: LiveFigures;
  supplierStatus?: () => Promise<SupplierHealth[]>;
  version?: string;
  startedAt?: number;
}
