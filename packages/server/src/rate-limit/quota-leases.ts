/**
 * The kernel's per-caller limits (search, stream) without a database round trip per hit. A process takes
 * a block of a bucket's hits from the shared counter at once (`RateLimitStore.reserve`: one upsert that
 * adds the block and answers how many fit under the limit) and grants hits from it locally; when half of
 * the block is used it takes the next one in the background. So a caller far below its limit is answered
 * without waiting for any statement; a hit waits for the database only when this process holds none of
 * the bucket's hits (its first hit of a window, or a burst that outran the top-up), and the limit holds
 * across every process on the database: the counter grants no more than `limit` hits per window in all.
 *
 * The price: hits a process reserved and did not use count as used (another process cannot grant them),
 * so a caller spread over several processes may get its 429 up to one block (a tenth of the limit, at
 * most 50, unless its hits outran the top-ups: see below) per process early; a process that dies takes
 * its unused block with it. Never late.
 *
 * A caller whose hits come faster than a top-up returns (thousands of stream readers attaching at once,
 * on a database that answers slowly) would wait for a statement every 50 hits: each time its hits had to
 * wait for a top-up, its next block doubles, up to a tenth of the limit, for the rest of the window.
 */
import type { Clock } from '../internal/clock.ts';
import type { RateRule } from '../internal/config.ts';
import type { RateLimitStore } from './rate-limit-store.ts';

interface Lease {
  windowStart: number;
  windowEnd: number;
  /** Hits this process holds and may still grant in this window. */
  left: number;
  /** The shared counter is at the limit: nothing more to reserve in this window. */
  spent: boolean;
  /** A reservation on its way (the first of the window, or a top-up). */
  pending: Promise<void> | undefined;
  /** The shared counter's hits (all processes) as of this process's last reservation, at most the limit. */
  counted: number;
  /** Hits the next reservation asks for: `blockSize`, doubled each time hits outran a top-up. */
  block: number;
  /** The top-up that hits last had to wait for (the block doubles once per such top-up). */
  outran: Promise<void> | undefined;
}

export interface QuotaDecision {
  allowed: boolean;
  /** Refused: seconds until the current window ends; 0 when allowed. */
  retryAfterSeconds: number;
  /** Seconds until the current window ends. */
  resetSeconds: number;
  /**
   * Hits left in the window: what this process holds plus what the shared counter had not handed out at
   * its last reservation (an upper bound: other processes may have reserved since). 0 when refused.
   */
  remaining: number;
}

/** Hits reserved at once: a tenth of the limit, 1 to 50. */
export const blockSize = (rule: RateRule): number => Math.max(1, Math.min(50, Math.ceil(rule.limit / 10)));
/** The most a block grows to when hits outrun the top-ups: a tenth of the limit. */
const maxBlock = (rule: RateRule): number => Math.max(blockSize(rule), Math.ceil(rule.limit / 10));

export class QuotaLeases {
  readonly #store: RateLimitStore;
  readonly #clock: Clock;
  readonly #leases = new Map<string, Lease>();
  #sweptAt = 0;

  constructor(store: RateLimitStore) {
    this.#store = store;
    this.#clock = store.clock;
  }

  async hit(bucket: string, rule: RateRule): Promise<QuotaDecision> {
    for (;;) {
      const now = this.#clock.now().getTime();
      const lease = this.#current(bucket, rule, now);
      if (lease.left > 0) {
        lease.left -= 1;
        const block = lease.block;
        if (!lease.spent && !lease.pending && lease.left <= Math.floor(block / 2)) {
          // Background top-up: a failure here only means the next hit that needs it asks again.
          this.#reserve(bucket, rule, lease, block).catch(() => {});
        }
        return {
          allowed: true,
          retryAfterSeconds: 0,
          resetSeconds: Math.max(1, Math.ceil((lease.windowEnd - now) / 1000)),
          remaining: lease.left + Math.max(0, rule.limit - lease.counted),
        };
      }
      if (lease.spent) {
        const wait = Math.max(1, Math.ceil((lease.windowEnd - now) / 1000));
        return { allowed: false, retryAfterSeconds: wait, resetSeconds: wait, remaining: 0 };
      }
      // A top-up on its way after hits were granted in this window: they came faster than it.
      if (lease.pending && lease.counted > 0 && lease.outran !== lease.pending) {
        lease.outran = lease.pending;
        lease.block = Math.min(maxBlock(rule), lease.block * 2);
      }
      await (lease.pending ?? this.#reserve(bucket, rule, lease, lease.block));
    }
  }

  /** The bucket's lease of the window `now` falls in (a new, empty one when the window turned). */
  #current(bucket: string, rule: RateRule, now: number): Lease {
    const windowMs = rule.windowSeconds * 1000;
    const start = Math.floor(now / windowMs) * windowMs;
    let lease = this.#leases.get(bucket);
    if (!lease || lease.windowStart < start) {
      this.#sweep(now);
      lease = {
        windowStart: start,
        windowEnd: start + windowMs,
        left: 0,
        spent: false,
        pending: undefined,
        counted: 0,
        block: blockSize(rule),
        outran: undefined,
      };
      this.#leases.set(bucket, lease);
    }
    return lease;
  }

  #reserve(bucket: string, rule: RateRule, lease: Lease, want: number): Promise<void> {
    const p = this.#store.reserve(bucket, rule, want).then((r) => {
      // The window the hits were counted in decides whose they are: a lease of an older window gets none.
      let into = this.#leases.get(bucket);
      if (!into || into.windowStart < r.windowStart) {
        into = {
          windowStart: r.windowStart,
          windowEnd: r.windowStart + rule.windowSeconds * 1000,
          left: 0,
          spent: false,
          pending: undefined,
          counted: 0,
          block: blockSize(rule),
          outran: undefined,
        };
        this.#leases.set(bucket, into);
      }
      if (into.windowStart !== r.windowStart) return;
      into.left += r.granted;
      into.counted = Math.max(into.counted, Math.min(rule.limit, r.hits));
      if (r.granted < want) into.spent = true;
    });
    lease.pending = p;
    const clear = () => {
      if (lease.pending === p) lease.pending = undefined;
    };
    p.then(clear, clear);
    return p;
  }

  /** Forgets leases of windows that have ended (at most once a minute). */
  #sweep(now: number): void {
    if (now - this.#sweptAt < 60_000) return;
    this.#sweptAt = now;
    for (const [k, l] of this.#leases) if (l.windowEnd <= now && !l.pending) this.#leases.delete(k);
  }
}
