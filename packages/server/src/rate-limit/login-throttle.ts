import { sql } from 'kysely';
import type { Clock } from '../internal/clock.ts';
import type { RateRule } from '../internal/config.ts';
import type { Db } from '../storage/schema.ts';

/** Failed attempts per bucket (migration 0070). */
interface LoginFailuresTable {
  bucket: string;
  failures: number;
  /** Attempts reserved and being evaluated (migration 0130). */
  pending: number;
  last_failed_at: Date | string;
  blocked_until: Date | string | null;
  expires_at: Date | string;
}
const failuresDb = (db: Db) => db.withTables<{ login_failures: LoginFailuresTable }>();

export interface Block {
  bucket: string;
  retryAfterSeconds: number;
}

/** A reservation's answer: go ahead (evaluate the password), or 429 after this many seconds. */
export type Reservation = { ok: true } | { ok: false; retryAfterSeconds: number };

/** How long an address an account logged in from stays exempt from that address's block. */
const KNOWN_CLIENT_DAYS = 30;

/** The progressive block after the `failures`-th failure: window/16 doubling up to the window (≥ 1 s). */
function blockUntil(now: Date, rule: RateRule, failures: number): Date | null {
  const over = failures - rule.limit;
  if (over < 0) return null;
  const delayMs = Math.min(rule.windowSeconds * 1000, ((rule.windowSeconds * 1000) / 16) * 2 ** over);
  return new Date(now.getTime() + Math.max(1000, delayMs));
}

/**
 * Throttles credential guessing by counting FAILURES only, so a correct password never costs anything
 * and nobody can lock someone else out:
 * - a bucket names who fails: `acct:<email>|ip:<address>` (one client on one account), `ip:<address>`
 *   (one client on any account), `refresh-ip:<address>` (invalid refresh tokens);
 * - `rule.limit` failures are free; from then on every further failure blocks the bucket for a delay
 *   that doubles, `window/16, window/8, …` up to `rule.windowSeconds` (progressive delay);
 * - a bucket is forgotten `rule.windowSeconds` after its last failure, and a success clears the
 *   account bucket of that client;
 * - a login reserves its attempt in both buckets BEFORE the password hash runs (`reserve`), so
 *   concurrent guesses count at once and never overrun the limit, and gives it back when the password
 *   was right (`release`) or turns it into a failure (`failed`);
 * - `known:<email>|ip:<address>` rows remember for 30 days that the account logged in from that
 *   address: such a login is exempt from the address's own block (only its account bucket applies).
 * A blocked bucket answers 429 with Retry-After to that client only: the account's owner, from another
 * address, logs in as usual. Shared by every process through the database.
 */
export class LoginThrottle {
  readonly #db: Db;
  readonly #clock: Clock;

  constructor(opts: { db: Db; clock: Clock }) {
    this.#db = opts.db;
    this.#clock = opts.clock;
  }

  /** The longest remaining block among `buckets`, if any is blocked now. */
  async blocked(buckets: string[]): Promise<Block | undefined> {
    const now = this.#clock.now();
    const rows = await failuresDb(this.#db)
      .selectFrom('login_failures')
      .select(['bucket', 'blocked_until'])
      .where('bucket', 'in', buckets)
      .where('blocked_until', '>', now)
      .where('expires_at', '>', now)
      .execute();
    let worst: Block | undefined;
    for (const r of rows) {
      if (!r.blocked_until) continue;
      const s = Math.max(1, Math.ceil((new Date(r.blocked_until).getTime() - now.getTime()) / 1000));
      if (!worst || s > worst.retryAfterSeconds) worst = { bucket: r.bucket, retryAfterSeconds: s };
    }
    return worst;
  }

  /**
   * Reserves one attempt BEFORE the password is checked, atomically (a row lock on the bucket, so it
   * holds under any concurrency and across processes): granted while confirmed failures plus attempts
   * still being evaluated stay under the limit, and, once past it, one at a time each time the
   * progressive block lapses; otherwise refused (not counted). `force` always grants (a client the
   * account is known from, exempt from its address's block), still counting the attempt. Settle every
   * granted reservation with `failed` or `release`.
   */
  async reserve(bucket: string, rule: RateRule, opts: { force?: boolean } = {}): Promise<Reservation> {
    const now = this.#clock.now();
    const expires = new Date(now.getTime() + rule.windowSeconds * 1000);
    return this.#db.transaction().execute(async (trx) => {
      const t = failuresDb(trx);
      // Insert the bucket if missing, then lock it. A concurrent success may release (delete) the row
      // between the two statements: then insert it again (a few tries; each round is two statements).
      let row:
        | {
            failures: number;
            pending: number;
            blocked_until: Date | string | null;
            expires_at: Date | string;
          }
        | undefined;
      for (let attempt = 0; row === undefined; attempt++) {
        if (attempt === 5) throw new Error(`login bucket ${bucket} kept vanishing under concurrent releases`);
        await t
          .insertInto('login_failures')
          .values({
            bucket,
            failures: 0,
            pending: 0,
            last_failed_at: now,
            blocked_until: null,
            expires_at: expires,
          })
          .onConflict((oc) => oc.column('bucket').doNothing())
          .execute();
        row = await t
          .selectFrom('login_failures')
          .select(['failures', 'pending', 'blocked_until', 'expires_at'])
          .where('bucket', '=', bucket)
          .forUpdate()
          .executeTakeFirst();
      }
      const lapsed = new Date(row.expires_at) <= now;
      const failures = lapsed ? 0 : Number(row.failures);
      const pending = lapsed ? 0 : Number(row.pending);
      const blocked = !lapsed && row.blocked_until ? new Date(row.blocked_until) : null;
      const isBlocked = blocked !== null && blocked > now;
      const granted =
        opts.force === true ||
        (!isBlocked && (failures + pending < rule.limit || (failures >= rule.limit && pending === 0)));
      if (!granted) {
        const retryAfterSeconds = isBlocked
          ? Math.max(1, Math.ceil(((blocked as Date).getTime() - now.getTime()) / 1000))
          : 1;
        return { ok: false as const, retryAfterSeconds };
      }
      await t
        .updateTable('login_failures')
        .set({
          failures,
          pending: pending + 1,
          blocked_until: isBlocked ? blocked : null,
          expires_at: lapsed || new Date(row.expires_at) < expires ? expires : new Date(row.expires_at),
        })
        .where('bucket', '=', bucket)
        .execute();
      return { ok: true as const };
    });
  }

  /** A reserved attempt failed: it becomes a counted failure (and may start or extend the block). */
  async failed(bucket: string, rule: RateRule): Promise<void> {
    const now = this.#clock.now();
    const expires = new Date(now.getTime() + rule.windowSeconds * 1000);
    // One transaction: the upsert holds the bucket's row lock until the block is written too, so a
    // concurrent reserve (SELECT … FOR UPDATE) never sees the limit reached without its block.
    await this.#db.transaction().execute(async (trx) => {
      const row = await failuresDb(trx)
        .insertInto('login_failures')
        .values({
          bucket,
          failures: 1,
          pending: 0,
          last_failed_at: now,
          blocked_until: null,
          expires_at: expires,
        })
        .onConflict((oc) =>
          oc.column('bucket').doUpdateSet({
            failures: sql<number>`login_failures.failures + 1`,
            pending: sql<number>`greatest(login_failures.pending - 1, 0)`,
            last_failed_at: now,
            expires_at: expires,
          }),
        )
        .returning('failures')
        .executeTakeFirstOrThrow();
      const until = blockUntil(now, rule, Number(row.failures));
      if (until) {
        await failuresDb(trx)
          .updateTable('login_failures')
          .set({ blocked_until: sql<Date>`greatest(coalesce(blocked_until, ${until}), ${until})` })
          .where('bucket', '=', bucket)
          .execute();
      }
    });
  }

  /** A reserved attempt did not fail (right password, or it never ran): its reservation is given back. */
  async release(bucket: string): Promise<void> {
    await failuresDb(this.#db)
      .updateTable('login_failures')
      .set({ pending: sql<number>`greatest(pending - 1, 0)` })
      .where('bucket', '=', bucket)
      .execute();
  }

  /** Remembers that `client` logged in to `account` (exempt from that client's address block for 30 days). */
  async remember(account: string, client: string): Promise<void> {
    const now = this.#clock.now();
    const expires = new Date(now.getTime() + KNOWN_CLIENT_DAYS * 86_400_000);
    await failuresDb(this.#db)
      .insertInto('login_failures')
      .values({
        bucket: knownBucket(account, client),
        failures: 0,
        pending: 0,
        last_failed_at: now,
        blocked_until: null,
        expires_at: expires,
      })
      .onConflict((oc) => oc.column('bucket').doUpdateSet({ expires_at: expires }))
      .execute();
  }

  /** Whether `account` logged in from `client` within the last 30 days. */
  async known(account: string, client: string): Promise<boolean> {
    const row = await failuresDb(this.#db)
      .selectFrom('login_failures')
      .select('bucket')
      .where('bucket', '=', knownBucket(account, client))
      .where('expires_at', '>', this.#clock.now())
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Counts one failure; returns the failures counted in the bucket so far. */
  async fail(bucket: string, rule: RateRule): Promise<number> {
    const now = this.#clock.now();
    const expires = new Date(now.getTime() + rule.windowSeconds * 1000);
    const row = await failuresDb(this.#db)
      .insertInto('login_failures')
      .values({
        bucket,
        failures: 1,
        pending: 0,
        last_failed_at: now,
        blocked_until: null,
        expires_at: expires,
      })
      .onConflict((oc) =>
        oc.column('bucket').doUpdateSet({
          failures: sql<number>`case when login_failures.expires_at <= ${now} then 1 else login_failures.failures + 1 end`,
          blocked_until: sql<Date | null>`case when login_failures.expires_at <= ${now} then null else login_failures.blocked_until end`,
          last_failed_at: now,
          expires_at: expires,
        }),
      )
      .returning('failures')
      .executeTakeFirstOrThrow();
    const failures = Number(row.failures);
    const until = blockUntil(now, rule, failures);
    if (until) {
      await failuresDb(this.#db)
        .updateTable('login_failures')
        .set({ blocked_until: sql<Date>`greatest(coalesce(blocked_until, ${until}), ${until})` })
        .where('bucket', '=', bucket)
        .execute();
    }
    return failures;
  }

  /** Forgets a bucket (the account bucket of a client that just logged in). */
  async clear(bucket: string): Promise<void> {
    await failuresDb(this.#db).deleteFrom('login_failures').where('bucket', '=', bucket).execute();
  }

  async purgeExpired(): Promise<number> {
    const r = await failuresDb(this.#db)
      .deleteFrom('login_failures')
      .where('expires_at', '<', this.#clock.now())
      .executeTakeFirst();
    return Number(r.numDeletedRows ?? 0);
  }
}

const knownBucket = (account: string, client: string) => `known:${account}|ip:${client}`;
