import type { ApiKeyStore } from '../api-keys/api-keys.ts';
import type { TtlCache } from '../cache/ttl-cache.ts';
import type { Clock } from '../internal/clock.ts';
import type { Db } from '../storage/schema.ts';
import { forbidden } from './errors.ts';

/** The access-token denylist (migration 0070). */
interface TokenRevocationsTable {
  key: string;
  reason: string;
  revoked_at: Date | string;
  expires_at: Date | string;
}
const revocations = (db: Db) => db.withTables<{ token_revocations: TokenRevocationsTable }>();

/** What the auth middleware knows of a token when it asks whether it was revoked. */
export interface TokenRef {
  tokenId: string;
  sessionId?: string | undefined;
}

import type { Role } from './types.ts';

/** A caller's current standing, read from the database (not from the token, which may be stale). */
export interface Principal {
  userId: string;
  email: string;
  role: Role;
  companyId: number | null;
  companyCode: string | null;
  userStatus: string;
  isActive: boolean;
  suspendedUntil: Date | null;
  companyStatus: string | null;
}

export type Standing = 'ok' | 'user_suspended' | 'user_inactive' | 'company_suspended' | 'gone';

/** Whether the principal may act now. A timed suspension lapses on its own. */
export function standing(p: Principal | undefined, now: Date): Standing {
  if (!p) return 'gone';
  if (p.userStatus === 'suspended' && !(p.suspendedUntil && p.suspendedUntil <= now)) return 'user_suspended';
  if (!p.isActive || p.userStatus === 'inactive') return 'user_inactive';
  if (p.companyStatus && p.companyStatus !== 'active') return 'company_suspended';
  return 'ok';
}

/**
 * Refuses a user whose account or company does not stand (403, one answer for a login, a refresh and every
 * authenticated request); `ok` passes, and `gone` is left to the caller (a bad credential, or a token that
 * names no current user).
 */
export function refuseStanding(s: Standing): void {
  if (s === 'user_suspended') throw forbidden('account_suspended', 'This account is suspended.');
  if (s === 'user_inactive') throw forbidden('account_inactive', 'This account is not active.');
  if (s === 'company_suspended') throw forbidden('company_suspended', "This account's company is suspended.");
}

/**
 * Loads principals, cached for `ttlMs` per process: a suspension takes effect everywhere within that
 * time; the process that suspends calls `invalidate` and sees it at once.
 */
export class PrincipalStore {
  readonly #db: Db;
  readonly #cache: TtlCache;
  readonly #ttlMs: number;
  readonly clock: Clock;
  /** API keys (issue 16); without it every `X-API-Key` / `Bearer tk_...` is refused as invalid. */
  readonly apiKeys: ApiKeyStore | undefined;

  constructor(opts: { db: Db; cache: TtlCache; ttlMs: number; clock: Clock; apiKeys?: ApiKeyStore }) {
    this.#db = opts.db;
    this.#cache = opts.cache;
    this.#ttlMs = opts.ttlMs;
    this.clock = opts.clock;
    this.apiKeys = opts.apiKeys;
  }

  /** What `get` would answer from the cache alone: a principal, null (known absent), undefined (not cached). */
  cachedNow(userId: string): Principal | null | undefined {
    return this.#cache.get<Principal | null>(`principal:${userId}`);
  }

  /** `fresh`: read the database even when cached (impersonation: both principals on every request). */
  async get(userId: string, opts?: { fresh?: boolean }): Promise<Principal | undefined> {
    const hit = opts?.fresh ? undefined : this.cachedNow(userId);
    if (hit !== undefined) return hit ?? undefined;
    const key = `principal:${userId}`;
    const row = await this.#db
      .selectFrom('users as u')
      .leftJoin('companies as c', 'c.id', 'u.company_id')
      .select([
        'u.id',
        'u.email',
        'u.role',
        'u.company_id',
        'u.status',
        'u.is_active',
        'u.suspended_until',
        'c.status as company_status',
        'c.company_code',
      ])
      .where('u.id', '=', userId)
      .executeTakeFirst();
    const p: Principal | null = row
      ? {
          userId: row.id,
          email: row.email,
          role: row.role as Role,
          companyId: row.company_id,
          companyCode: row.company_code ?? null,
          userStatus: row.status,
          isActive: row.is_active,
          suspendedUntil: row.suspended_until ? new Date(row.suspended_until) : null,
          companyStatus: row.company_status ?? null,
        }
      : null;
    if (this.#ttlMs > 0) this.#cache.set(key, p, this.#ttlMs);
    return p ?? undefined;
  }

  invalidate(userId?: string): void {
    if (userId) this.#cache.delete(`principal:${userId}`);
    else this.#cache.clear('principal:');
  }

  /**
   * What `isRevoked` would answer from the cache alone: true when the token or its session is cached as
   * revoked, false when both are cached as not revoked, undefined when the database must be asked.
   */
  revokedNow(t: TokenRef): boolean | undefined {
    const jti = this.#cache.get<boolean>(`revoked:jti:${t.tokenId}`);
    const sid = t.sessionId ? this.#cache.get<boolean>(`revoked:sid:${t.sessionId}`) : false;
    if (jti === true || sid === true) return true;
    return jti === false && sid === false ? false : undefined;
  }

  /**
   * Whether the token, or the session it belongs to, is on the denylist. One primary-key lookup, cached
   * like the principal (`ttlMs`, AUTH_STATUS_CACHE_MS): the process that revokes sees it at once
   * (`revoke` writes its own cache), every other process within `ttlMs`.
   */
  async isRevoked(t: TokenRef, opts?: { fresh?: boolean }): Promise<boolean> {
    const known = opts?.fresh ? undefined : this.revokedNow(t);
    if (known !== undefined) return known;
    const keys = [`jti:${t.tokenId}`, ...(t.sessionId ? [`sid:${t.sessionId}`] : [])];
    const rows = await revocations(this.#db)
      .selectFrom('token_revocations')
      .select('key')
      .where('key', 'in', keys)
      .where('expires_at', '>', this.clock.now())
      .execute();
    const hit = new Set(rows.map((r) => r.key));
    if (this.#ttlMs > 0) for (const k of keys) this.#cache.set(`revoked:${k}`, hit.has(k), this.#ttlMs);
    return hit.size > 0;
  }

  /**
   * Puts a session (`sid`, a refresh-token family) or a single token (`jti`) on the denylist until
   * `expiresAt` (when every token it can name has expired), and purges rows that have lapsed. Takes a
   * transaction so it commits with the refresh-token revocation it accompanies.
   */
  async revoke(
    target: { sessionId: string } | { tokenId: string },
    expiresAt: Date,
    reason: string,
    db: Db = this.#db,
  ): Promise<void> {
    const key = 'sessionId' in target ? `sid:${target.sessionId}` : `jti:${target.tokenId}`;
    const now = this.clock.now();
    await revocations(db)
      .insertInto('token_revocations')
      .values({ key, reason, revoked_at: now, expires_at: expiresAt })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet((eb) => ({
          expires_at: eb.fn('greatest', [eb.ref('token_revocations.expires_at'), eb.val(expiresAt)]),
        })),
      )
      .execute();
    await revocations(db).deleteFrom('token_revocations').where('expires_at', '<=', now).execute();
    this.#cache.set(`revoked:${key}`, true, Math.max(1, expiresAt.getTime() - now.getTime()));
  }
}
