/**
 * The kernel's per-caller limits from reserved blocks (`QuotaLeases`): far below the limit a hit is
 * answered without a statement, and the limit still holds across processes sharing the counter.
 */
import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/internal/clock.ts';
import type { RateRule } from '../../src/internal/config.ts';
import { QuotaLeases } from '../../src/rate-limit/quota-leases.ts';
import { RateLimitStore } from '../../src/rate-limit/rate-limit-store.ts';
import type { Database } from '../../src/storage/database.ts';
import type { Db } from '../../src/storage/schema.ts';
import { testDatabase } from '../helpers/db.ts';

let database: Database;
beforeAll(async () => {
  database = await testDatabase();
});
afterAll(() => database.close());

/** The database with a count of the statements sent through it. */
function counted(db: Db): { db: Db; statements: () => number } {
  let n = 0;
  const plugin: KyselyPlugin = {
    transformQuery: (args) => {
      n += 1;
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  return { db: db.withPlugin(plugin), statements: () => n };
}

/** A store whose reservations wait until the test opens the gate (the database "slow"). */
class GatedStore extends RateLimitStore {
  #gate: Promise<void> = Promise.resolve();
  #open: () => void = () => {};
  calls = 0;
  close(): void {
    this.#gate = new Promise((r) => {
      this.#open = r;
    });
  }
  open(): void {
    this.#open();
  }
  override async reserve(bucket: string, rule: RateRule, want: number) {
    this.calls += 1;
    await this.#gate;
    return super.reserve(bucket, rule, want);
  }
}

const rule: RateRule = { limit: 60, windowSeconds: 60 };

describe('rate limit from reserved blocks', () => {
  it('a caller far below the limit is answered without any statement; the top-up is not waited for', async () => {
    const clock = new ManualClock('2026-06-01T10:00:05Z');
    const c = counted(database.db);
    const store = new GatedStore({ db: c.db, clock });
    const leases = new QuotaLeases(store);
    // The first hit of the window reserves a block (one statement, waited for).
    expect(await leases.hit('search:user:a', rule)).toMatchObject({ allowed: true, retryAfterSeconds: 0 });
    expect(c.statements()).toBe(1);
    // Far below the limit: no statement at all before the answer.
    expect((await leases.hit('search:user:a', rule)).allowed).toBe(true);
    expect(c.statements()).toBe(1);
    expect(store.calls).toBe(1);
    // With the database held, hits are still answered from the block; the top-up waits in the background.
    store.close();
    for (let i = 0; i < 4; i++) expect((await leases.hit('search:user:a', rule)).allowed).toBe(true);
    expect(store.calls).toBe(2);
    expect(c.statements()).toBe(1);
    store.open();
    // The shared counter holds every hit handed out: two blocks of 6 (polled: the statement is counted
    // when sent, and on PostgreSQL another connection may read the row before it has run).
    const hits = async () =>
      (
        await database.db
          .selectFrom('rate_limit_counters')
          .select('hits')
          .where('bucket', '=', 'search:user:a')
          .executeTakeFirstOrThrow()
      ).hits;
    await expect.poll(hits).toBe(12);
    expect(c.statements()).toBe(2);
  });

  it('the 429 still comes, with Retry-After to the end of the window, and the next window grants again', async () => {
    const clock = new ManualClock('2026-06-01T11:00:10Z');
    const leases = new QuotaLeases(new RateLimitStore({ db: database.db, clock }));
    const small: RateRule = { limit: 3, windowSeconds: 60 };
    const got = [];
    for (let i = 0; i < 5; i++) got.push(await leases.hit('search:user:b', small));
    expect(got.map((d) => d.allowed)).toEqual([true, true, true, false, false]);
    expect(got[3]?.retryAfterSeconds).toBe(50);
    // The budget each answer names (RateLimit-Remaining, -Reset): it counts down to 0.
    expect(got.map((d) => d.remaining)).toEqual([2, 1, 0, 0, 0]);
    expect(got.map((d) => d.resetSeconds)).toEqual([50, 50, 50, 50, 50]);
    clock.advance(50_000);
    expect((await leases.hit('search:user:b', small)).allowed).toBe(true);
  });

  it('holds across processes: two processes on one counter grant no more than the limit in all', async () => {
    const clock = new ManualClock('2026-06-01T12:00:00Z');
    const limit: RateRule = { limit: 20, windowSeconds: 60 };
    const a = new QuotaLeases(new RateLimitStore({ db: database.db, clock }));
    const b = new QuotaLeases(new RateLimitStore({ db: database.db, clock }));
    // Concurrent bursts from both, 30 hits each.
    const decisions = await Promise.all(
      Array.from({ length: 60 }, (_, i) => (i % 2 === 0 ? a : b).hit('search:user:c', limit)),
    );
    const allowed = decisions.filter((d) => d.allowed).length;
    expect(allowed).toBeLessThanOrEqual(20);
    // At most one block (2 hits) per process is held back unused.
    expect(allowed).toBeGreaterThanOrEqual(16);
    expect(decisions.filter((d) => !d.allowed).length).toBe(60 - allowed);
    // Once spent, both refuse without asking again.
    expect((await a.hit('search:user:c', limit)).allowed).toBe(false);
    expect((await b.hit('search:user:c', limit)).allowed).toBe(false);
  });

  it('a caller whose hits outrun the top-ups gets doubling blocks, up to a tenth of the limit, and never more than the limit', async () => {
    const clock = new ManualClock('2026-06-01T13:00:00Z');
    const store = new GatedStore({ db: database.db, clock });
    const leases = new QuotaLeases(store);
    const wanted = new Map<string, number[]>();
    const reserve = store.reserve.bind(store);
    store.reserve = (bucket, rule, want) => {
      wanted.set(bucket, [...(wanted.get(bucket) ?? []), want]);
      return reserve(bucket, rule, want);
    };
    // 2,000 hits at once (stream readers attaching): at 50 a block, 40 statements waited for in turn.
    const big: RateRule = { limit: 10_000, windowSeconds: 60 };
    const all = await Promise.all(Array.from({ length: 2000 }, () => leases.hit('stream:user:d', big)));
    expect(all.every((d) => d.allowed)).toBe(true);
    const asked = wanted.get('stream:user:d') ?? [];
    expect(asked[0]).toBe(50);
    expect(asked).toEqual([...asked].sort((a, b) => a - b));
    expect(Math.max(...asked)).toBe(1000);
    expect(asked.length).toBeLessThanOrEqual(8);
    // A small limit: blocks never past a tenth of it, and the limit holds.
    const small: RateRule = { limit: 30, windowSeconds: 60 };
    const got = await Promise.all(Array.from({ length: 60 }, () => leases.hit('stream:user:e', small)));
    expect(got.filter((d) => d.allowed).length).toBe(30);
    expect((wanted.get('stream:user:e') ?? []).every((w) => w === 3)).toBe(true);
  });
});
