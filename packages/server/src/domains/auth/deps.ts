import type { Selectable } from 'kysely';
import type { Clock } from '../../internal/clock.ts';
import type { Config } from '../../internal/config.ts';
import { HashQueueFull } from '../../internal/hash-gate.ts';
import type { TokenService } from '../../internal/tokens.ts';
import { tooManyRequests, unauthorized } from '../../kernel/errors.ts';
import type { PrincipalStore } from '../../kernel/principal.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { RateLimitStore } from '../../rate-limit/rate-limit-store.ts';
import type { Db, UsersTable } from '../../storage/schema.ts';

// What every auth use case shares: its deps (service.ts builds them once) and a few small steps.

export interface AuthDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'publicBaseUrl' | 'refreshTokenTtlSeconds' | 'rateLimits'>;
  tokens: TokenService;
  mailer: Mailer;
  rateLimits: RateLimitStore;
  principals: PrincipalStore;
}

export const credentialsError = () => unauthorized('invalid_credentials', 'Wrong email or password.');

export type UserRow = Selectable<UsersTable>;

export async function companyCode(d: AuthDeps, companyId: number | null): Promise<string | null> {
  if (companyId === null) return null;
  const c = await d.db
    .selectFrom('companies')
    .select('company_code')
    .where('id', '=', companyId)
    .executeTakeFirst();
  return c?.company_code ?? null;
}

export async function limit(d: AuthDeps, bucket: string, rule: { limit: number; windowSeconds: number }) {
  const decision = await d.rateLimits.hit(bucket, rule);
  if (!decision.allowed) throw tooManyRequests(decision.retryAfterSeconds, 'Too many attempts; retry later.');
}

/** A hash through the fair queue; a full lane of this client is 429 (the queue is bounded). */
export async function hashed<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof HashQueueFull)
      throw tooManyRequests(1, 'Too many password checks from this client are waiting; retry shortly.');
    throw err;
  }
}
