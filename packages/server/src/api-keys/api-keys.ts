/**
 * API keys for machines (issue 16, contracts §7): `tk_test_<43 base64url chars>` in sandbox mode,
 * `tk_live_...` in live mode, 256 random bits. Only the SHA-256 of the whole key is stored (a fast hash
 * is enough for a high-entropy secret; the unique index on it is the lookup, so no comparison of secrets
 * happens in this process). The first 8 random characters after the mode make the public `prefix`.
 *
 * Every request made with a key reads its row (one unique-index lookup, never cached), so a revocation or
 * an expiry is refused at once by every process sharing the database. `last_used_at` is written at most
 * once a minute per key (per process, and the update itself skips rows touched within the minute).
 */
import { createHash, randomBytes } from 'node:crypto';
import type { ColumnType, Generated, Selectable } from 'kysely';
import type { Clock } from '../internal/clock.ts';
import type { RateRule } from '../internal/config.ts';
import type { RateDecision, RateLimitStore } from '../rate-limit/rate-limit-store.ts';
import type { Db } from '../storage/schema.ts';

export type ApiKeyRole = 'company_admin' | 'company_staff';
export type ApiKeyMode = 'test' | 'live';

/** Characters of the random part shown in the public prefix (`tk_test_AbCd1234`). */
export const PREFIX_CHARS = 8;
const KEY_FORMAT = /^tk_(test|live)_([A-Za-z0-9_-]{43})$/;
/** How often `last_used_at` is brought up to date at most. */
export const TOUCH_EVERY_MS = 60_000;

interface ApiKeysTable {
  /** bigserial: read as a string. */
  id: Generated<string | number>;
  company_id: number;
  created_by: string;
  name: string;
  prefix: string;
  key_hash: string;
  role: ApiKeyRole;
  mode: ApiKeyMode;
  created_at: ColumnType<Date | string, Date | undefined, never>;
  expires_at: ColumnType<Date | string | null, Date | null, Date | null>;
  last_used_at: ColumnType<Date | string | null, Date | null, Date | null>;
  revoked_at: ColumnType<Date | string | null, Date | null, Date | null>;
  revoked_by: string | null;
}
const keysDb = (db: Db) => db.withTables<{ api_keys: ApiKeysTable }>();

/** A stored key as the service sees it (never the secret, never the hash). */
export interface ApiKey {
  id: number;
  companyId: number;
  /** The key's company's code (what flight searches name as `companyCode`). */
  companyCode: string;
  createdBy: string;
  /** The creator's user code (what flight searches name as `userCode`); null when the creator has none. */
  userCode: string | null;
  name: string;
  prefix: string;
  role: ApiKeyRole;
  mode: ApiKeyMode;
  createdAt: Date;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export type ApiKeyCheck =
  | { status: 'ok'; key: ApiKey }
  | { status: 'invalid' }
  | { status: 'revoked'; key: ApiKey }
  | { status: 'expired'; key: ApiKey };

export const hashApiKey = (secret: string): string => createHash('sha256').update(secret).digest('hex');

/** Whether a bearer credential is an API key rather than a JWT (`tk_...`; a JWT starts `eyJ`). */
export const isApiKeyShaped = (credential: string): boolean => credential.startsWith('tk_');

/** A fresh key: the secret (shown once), its public prefix and the hash to store. */
export function newApiKey(mode: ApiKeyMode): { secret: string; prefix: string; hash: string } {
  const random = randomBytes(32).toString('base64url');
  const secret = `tk_${mode}_${random}`;
  return { secret, prefix: `tk_${mode}_${random.slice(0, PREFIX_CHARS)}`, hash: hashApiKey(secret) };
}

const date = (d: Date | string | null): Date | null => (d === null ? null : new Date(d));

type KeyRow = Omit<Selectable<ApiKeysTable>, 'key_hash' | 'revoked_by'> & {
  company_code: string;
  user_code: string | null;
};

function toKey(r: KeyRow): ApiKey {
  return {
    id: Number(r.id),
    companyId: r.company_id,
    companyCode: r.company_code,
    createdBy: r.created_by,
    userCode: r.user_code,
    name: r.name,
    prefix: r.prefix,
    role: r.role,
    mode: r.mode,
    createdAt: new Date(r.created_at),
    expiresAt: date(r.expires_at),
    lastUsedAt: date(r.last_used_at),
    revokedAt: date(r.revoked_at),
  };
}

const PUBLIC_COLUMNS = [
  'k.id',
  'k.company_id',
  'k.created_by',
  'k.name',
  'k.prefix',
  'k.role',
  'k.mode',
  'k.created_at',
  'k.expires_at',
  'k.last_used_at',
  'k.revoked_at',
  'c.company_code',
  'u.user_code',
] as const;

/**
 * Keys with the codes a flight search names: the company's code and the creator's user code (the key
 * acts as its creator, and `companyCode`/`userCode` must be the caller's own, contracts §5).
 */
const keysWithCodes = (db: Db) =>
  keysDb(db)
    .selectFrom('api_keys as k')
    .innerJoin('companies as c', 'c.id', 'k.company_id')
    .leftJoin('users as u', 'u.id', 'k.created_by');

/** Create, list, revoke and check API keys; rate-limits each key with the shared counters. */
export class ApiKeyStore {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #rateLimits: RateLimitStore;
  readonly #rule: RateRule;
  /** The mode of keys this server issues and accepts: `test` in sandbox mode, `live` otherwise. */
  readonly mode: ApiKeyMode;
  /** When this process last wrote `last_used_at`, per key id. */
  readonly #touched = new Map<number, number>();

  constructor(opts: { db: Db; clock: Clock; rateLimits: RateLimitStore; rule: RateRule; sandbox: boolean }) {
    this.#db = opts.db;
    this.#clock = opts.clock;
    this.#rateLimits = opts.rateLimits;
    this.#rule = opts.rule;
    this.mode = opts.sandbox ? 'test' : 'live';
  }

  /** A new key; the secret is returned here only (only its hash is stored). */
  async create(
    input: { companyId: number; createdBy: string; name: string; role: ApiKeyRole; expiresAt: Date | null },
    db: Db = this.#db,
  ): Promise<{ key: ApiKey; secret: string }> {
    const { secret, prefix, hash } = newApiKey(this.mode);
    const { id } = await keysDb(db)
      .insertInto('api_keys')
      .values({
        company_id: input.companyId,
        created_by: input.createdBy,
        name: input.name,
        prefix,
        key_hash: hash,
        role: input.role,
        mode: this.mode,
        created_at: this.#clock.now(),
        expires_at: input.expiresAt,
        last_used_at: null,
        revoked_at: null,
        revoked_by: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const key = await this.get(input.companyId, Number(id), db);
    if (!key) throw new Error(`API key ${id} vanished after its insert`);
    return { key, secret };
  }

  /** A company's keys, newest first; revoked ones only when asked. */
  async list(
    companyId: number,
    o: { includeRevoked: boolean; limit: number; offset: number },
  ): Promise<{ items: ApiKey[]; total: number }> {
    let q = keysWithCodes(this.#db).where('k.company_id', '=', companyId);
    if (!o.includeRevoked) q = q.where('k.revoked_at', 'is', null);
    const [rows, count] = await Promise.all([
      q.select(PUBLIC_COLUMNS).orderBy('k.id', 'desc').limit(o.limit).offset(o.offset).execute(),
      q.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { items: rows.map(toKey), total: Number(count.n) };
  }

  /** One key of a company (undefined when it has no such key). */
  async get(companyId: number, id: number, db: Db = this.#db): Promise<ApiKey | undefined> {
    const row = await keysWithCodes(db)
      .select(PUBLIC_COLUMNS)
      .where('k.company_id', '=', companyId)
      .where('k.id', '=', id)
      .executeTakeFirst();
    return row ? toKey(row) : undefined;
  }

  /**
   * Revokes a key of the company (idempotent: a revoked key keeps its first `revoked_at`). Takes effect
   * on the next request in every process: nothing caches a key's state.
   */
  async revoke(companyId: number, id: number, by: string, db: Db = this.#db): Promise<ApiKey | undefined> {
    await keysDb(db)
      .updateTable('api_keys')
      .set({ revoked_at: this.#clock.now(), revoked_by: by })
      .where('company_id', '=', companyId)
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .execute();
    return this.get(companyId, id, db);
  }

  /** The key a request presents: ok, or why not. Brings `last_used_at` up to date (at most once a minute). */
  async check(secret: string): Promise<ApiKeyCheck> {
    const m = KEY_FORMAT.exec(secret);
    if (!m || m[1] !== this.mode) return { status: 'invalid' };
    const row = await keysWithCodes(this.#db)
      .select(PUBLIC_COLUMNS)
      .where('k.key_hash', '=', hashApiKey(secret))
      .executeTakeFirst();
    if (!row) return { status: 'invalid' };
    const key = toKey(row);
    const now = this.#clock.now();
    if (key.revokedAt) return { status: 'revoked', key };
    if (key.expiresAt && key.expiresAt <= now) return { status: 'expired', key };
    await this.#touch(key, now);
    return { status: 'ok', key };
  }

  /** One request against the key's budget (RATE_LIMIT_API_KEY), in the counters every process shares. */
  hit(key: ApiKey): Promise<RateDecision> {
    return this.#rateLimits.hit(`apikey:${key.id}`, this.#rule);
  }

  async #touch(key: ApiKey, now: Date): Promise<void> {
    const last = this.#touched.get(key.id);
    if (last !== undefined && now.getTime() - last < TOUCH_EVERY_MS) return;
    if (key.lastUsedAt && now.getTime() - key.lastUsedAt.getTime() < TOUCH_EVERY_MS) {
      this.#touched.set(key.id, key.lastUsedAt.getTime());
      return;
    }
    this.#touched.set(key.id, now.getTime());
    await keysDb(this.#db)
      .updateTable('api_keys')
      .set({ last_used_at: now })
      .where('id', '=', key.id)
      .where((eb) =>
        eb.or([
          eb('last_used_at', 'is', null),
          eb('last_used_at', '<', new Date(now.getTime() - TOUCH_EVERY_MS)),
        ]),
      )
      .execute();
  }
}
