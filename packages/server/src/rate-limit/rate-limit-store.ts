import { sql } from 'kysely';
import type { Clock } from '../internal/clock.ts';
import type { RateRule } from '../internal/config.ts';
import type { Db } from '../storage/schema.ts';
import { LoginThrottle } from './login-throttle.ts';

export interface RateDecision {
  allowed: boolean;
  hits: number;
  limit: number;
  /** Seconds until the current window ends. */
  retryAfterSeconds: number;
}

/**
 * Fixed-window counters in the database: one upsert per hit, atomic, shared by every process on the
 * same database. Good enough against brute force and floods; not a precise sliding window.
 */
export class RateLimitStore {
  readonly #db: Db;
  readonly #clock: Clock;

  constructor(opts: { db: Db; clock: Clock }) {
    this.#db = opts.db;
    this.#clock = opts.clock;
  }

  /** The clock the windows are cut by. */
  get clock(): Clock {
    return this.#clock;
  }

  async hit(bucket: string, rule: RateRule): Promise<RateDecision> {
    const now = this.#clock.now().getTime();
    const windowMs = rule.windowSeconds * 1000;
    const start = Math.floor(now / windowMs) * windowMs;
    const row = await this.#db
      .insertInto('rate_limit_counters')
      .values({ bucket, window_start: new Date(start), hits: 1, expires_at: new Date(start + windowMs) })
      .onConflict((oc) =>
        oc.columns(['bucket', 'window_start']).doUpdateSet({ hits: sql`rate_limit_counters.hits + 1` }),
      )
      .returning('hits')
      .executeTakeFirstOrThrow();
    return {
      allowed: row.hits <= rule.limit,
      hits: row.hits,
      limit: rule.limit,
      retryAfterSeconds: Math.max(1, Math.ceil((start + windowMs - now) / 1000)),
    };
  }

  /**
   * Takes up to `want` hits of the bucket's current window at once (one upsert adds `want` to the shared
   * counter) and answers how many of them fit under the limit: the hits numbered `hits - want + 1 ..
   * hits` are this caller's, and those up to `limit` are granted. Concurrent reservations, from any
   * process, get disjoint ranges, so no more than `limit` hits are ever granted in one window.
   */
  async reserve(
    bucket: string,
    rule: RateRule,
    want: number,
  ): Promise<{ granted: number; windowStart: number; retryAfterSeconds: number; hits: number }> {
    const now = this.#clock.now().getTime();
    const windowMs = rule.windowSeconds * 1000;
    const start = Math.floor(now / windowMs) * windowMs;
    const row = await this.#db
      .insertInto('rate_limit_counters')
      .values({ bucket, window_start: new Date(start), hits: want, expires_at: new Date(start + windowMs) })
      .onConflict((oc) =>
        oc.columns(['bucket', 'window_start']).doUpdateSet({ hits: sql`rate_limit_counters.hits + ${want}` }),
      )
      .returning('hits')
      .executeTakeFirstOrThrow();
    const before = row.hits - want;
    return {
      granted: Math.max(0, Math.min(want, rule.limit - before)),
      windowStart: start,
      hits: row.hits,
      retryAfterSeconds: Math.max(1, Math.ceil((start + windowMs - now) / 1000)),
    };
  }

  /** Clears a bucket (e.g. the per-account login counter after a successful login). */
  async reset(bucket: string): Promise<void> {
    await this.#db.deleteFrom('rate_limit_counters').where('bucket', '=', bucket).execute();
  }

  /** Drops lapsed windows, and lapsed login-failure buckets (`LoginThrottle`) with them. */
  async purgeExpired(): Promise<number> {
    const r = await this.#db
      .deleteFrom('rate_limit_counters')
      .where('expires_at', '<', this.#clock.now())
      .executeTakeFirst();
    const failures = await new LoginThrottle({ db: this.#db, clock: this.#clock }).purgeExpired();
    return Number(r.numDeletedRows ?? 0) + failures;
  }
}
