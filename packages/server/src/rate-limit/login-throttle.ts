import { sql } from 'kysely';
import type { Clock } from '../internal/clock.ts';
import type { RateRule } from '../internal/config.ts';
import type { Db } from '../storage/schema.ts';

/** Failed attempts per bucket (migration 0070). */
interface LoginFailuresTable {
  bucket: string;
  failures: number;
  last_failed_at: Date | string;
  blocked_until: Date | string | null;
  expires_at: Date | string;
}
const failuresDb = (db: Db) => db.withTables<{ login_failures: LoginFailuresTable }>();

export interface Block {
  bucket: string;
  retryAfterSeconds: number;
}

/**
 * Throttles credential guessing by counting FAILURES only, so a correct password never costs anything
 * and nobody can lock someone else out:
 * - a bucket names who fails: `acct:<email>|ip:<address>` (one client on one account), `ip:<address>`
 *   (one client on any account), `refresh-ip:<address>` (invalid refresh tokens);
 * - `rule.limit` failures are free; from then on every further failure blocks the bucket for a delay
 *   that doubles, `window/16, window/8, …` up to `rule.windowSeconds` (progressive delay);
 * - a bucket is forgotten `rule.windowSeconds` after its last failure, and a success clears the
 *   account bucket of that client.
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

  /** Counts one failure; returns the failures counted in the bucket so far. */
  async fail(bucket: string, rule: RateRule): Promise<number> {
    const now = this.#clock.now();
    const expires = new Date(now.getTime() + rule.windowSeconds * 1000);
    const row = await failuresDb(this.#db)
      .insertInto('login_failures')
      .values({ bucket, failures: 1, last_failed_at: now, blocked_until: null, expires_at: expires })
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
    const over = failures - rule.limit;
    if (over >= 0) {
      const delayMs = Math.min(rule.windowSeconds * 1000, ((rule.windowSeconds * 1000) / 16) * 2 ** over);
      const until = new Date(now.getTime() + Math.max(1000, delayMs));
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
