import type { TtlCache } from '../../cache/ttl-cache.ts';
import type { Clock } from '../../internal/clock.ts';
import type { Config } from '../../internal/config.ts';
import type { TokenService } from '../../internal/tokens.ts';
import type { PrincipalStore } from '../../kernel/principal.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { Db } from '../../storage/schema.ts';
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
 * What the admin, company and customer routes are built from: the shared services they use (named
 * here, so the domain does not import the composition root; app.ts's SharedServices satisfies it) plus
 * optional collaborators owned by other domains (the payment provider for manual refunds, live search
 * figures and supplier health for the live report).
 */
export interface AccountsDeps {
  config: Config;
  db: Db;
  clock: Clock;
  cache: TtlCache;
  mailer: Mailer;
  tokens: TokenService;
  principals: PrincipalStore;
  suppliers?: BookingSuppliers;
  live?: LiveFigures;
  supplierStatus?: () => Promise<SupplierHealth[]>;
  version?: string;
  startedAt?: number;
}
