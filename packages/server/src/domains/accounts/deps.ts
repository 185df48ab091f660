import type { TtlCache } from '../../cache/ttl-cache.ts';
import type { Clock } from '../../internal/clock.ts';
import type { Config } from '../../internal/config.ts';
import type { TokenService } from '../../internal/tokens.ts';
import type { PrincipalStore } from '../../kernel/principal.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { Db } from '../../storage/schema.ts';

/**
 * What the admin, company and customer routes are built from: the shared services they use (named
 * here, so the domain does not import the composition root; app.ts's SharedServices satisfies it). The
 * admin surface adds its own collaborators (admin/deps.ts).
 */
export interface AccountsDeps {
  config: Config;
  db: Db;
  clock: Clock;
  cache: TtlCache;
  mailer: Mailer;
  tokens: TokenService;
  principals: PrincipalStore;
}
