/**
 * The engine's writes are chained, not queued (src/search/engine.ts, WRITES): after the search's first
 * write (which goes alone: answers made while it is on its way follow it in one write), a supplier's
 * answer is sent to the database as soon as it is made, while the writes before it are still on their
 * way, and the session row orders them there. Each supplier's answer is held at a gate the test opens, so
 * which answers meet which write is decided by the test, not by timing. What must hold whatever the timing: the log commits in seq order without
 * a gap, a write never commits without the one before it, and a write that reaches the database before
 * the one it follows (another pool connection got there first) is not lost.
 */
import { type CompiledQuery, type QueryResult, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchRoutes } from '../../src/domains/search/routes.ts';
import { type HandlerTable, handlerTable } from '../../src/kernel/types.ts';
import { readAfter } from '../../src/search/event-log.ts';
import { finishAbandoned } from '../../src/search/orphans.ts';
import { findSession } from '../../src/search/session-store.ts';
import { searchDb } from '../../src/search/tables.ts';
import type { Db } from '../../src/storage/schema.ts';
import { testBackend, testDatabase } from '../helpers/db.ts';
import { collect, ctx, flightBody, type Harness, harness } from './harness.ts';

/** One execution of a search write, as the database connection would run it. */
type Run = () => Promise<QueryResult<unknown>>;
/** Decides how the n-th search write (1-based) of the test runs; undefined: as it is. */
let hook: ((n: number, run: Run) => Promise<QueryResult<unknown>>) | undefined;
let writes = 0;

/** The database the engine writes through, with every search write passed to `hook`. */
function hooked(db: Db): Db {
  return new Proxy(db, {
    get(target, key) {
      if (key === 'executeQuery') {
        return (q: CompiledQuery, ...rest: unknown[]) => {
          const run: Run = () =>
            (target.executeQuery as (...a: unknown[]) => Promise<QueryResult<unknown>>)(q, ...rest);
          if (!q.sql.includes('insert into search_offers') || !hook) return run();
          writes += 1;
          return hook(writes, run);
        };
      }
      const v = Reflect.get(target, key, target);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

/** Per supplier: its answer is held (after it arrived) until the gate opens; `arrived` says it is there. */
interface Gate {
  open: () => void;
  opened: Promise<void>;
  arrived: Promise<void>;
  arrive: () => void;
}
let gates = new Map<string, Gate>();
function gate(name: string): Gate {
  let g = gates.get(name);
  if (!g) {
    const o = signal();
    const a = signal();
    g = { open: o.resolve, opened: o.p, arrived: a.p, arrive: a.resolve };
    gates.set(name, g);
  }
  return g;
}
/** Holds the answers of `names` until their gates open; every other supplier answers as it comes. */
function holdAnswers(...names: string[]) {
  gates = new Map();
  for (const n of names) gate(n);
}
/** One turn of the event loop: every continuation already queued (promise callbacks) has run. */
const turn = () => new Promise<void>((r) => setImmediate(r));

let h: Harness;
let routes: HandlerTable;
beforeAll(async () => {
  const database = await testDatabase();
  h = await harness({ database: { ...database, db: hooked(database.db) } });
  const registry = h.search.suppliers;
  const searchSuppliers = registry.searchSuppliers.bind(registry);
  registry.searchSuppliers = (v) =>
    searchSuppliers(v).map(
      (supplier) =>
        new Proxy(supplier, {
          get(target, key) {
            if (key === 'search')
              return async (...args: Parameters<typeof target.search>) => {
                const answer = await target.search(...args);
                const g = gates.get(target.name);
                if (g) {
                  g.arrive();
                  await g.opened;
                }
                return answer;
              };
            const v = Reflect.get(target, key, target);
            return typeof v === 'function' ? v.bind(target) : v;
          },
        }),
    );
  routes = handlerTable(searchRoutes(h.search));
  const close = h.close;
  h.close = async () => {
    await close();
    await database.close();
  };
});
afterAll(() => h?.close());

function reset() {
  writes = 0;
  hook = undefined;
  gates = new Map();
}

async function startFlight(): Promise<string> {
  const r = await routes.searchFlights!(ctx({ body: flightBody() }));
  expect(r.status).toBe(202);
  return (r as { body: { searchId: string } }).body.searchId;
}

/** A promise with its resolve, to be settled by a test's hook. */
function signal() {
  let resolve!: () => void;
  const p = new Promise<void>((r) => {
    resolve = r;
  });
  return { p, resolve };
}

/** The batch answer once the search is over. */
async function finalBatch(id: string) {
  const batch = (await routes.getFlightBatchResults!(
    ctx({ params: { search_id: id }, query: { timeout: 30 } }),
  )) as { status: number; body: Record<string, unknown> };
  expect(batch.status).toBe(200);
  expect(batch.body).toMatchObject({ status: expect.any(String), completed_gds_count: 3, timed_out: false });
  return batch;
}

/** Resolves once a reader has the search's first offer (its write handled), and a turn later. */
async function afterFirstOffer(id: string) {
  await collect(
    await routes.streamFlightOffers!(ctx({ params: { search_id: id } })),
    (m) => m.event === 'offer',
  );
  await turn();
}

/** Every supplier has offers in the batch, and the batch has exactly the offers the log announced. */
function expectAllSuppliers(batch: { body: Record<string, unknown> }, log: { event: string }[]) {
  expect(batch.body.status).toBe('completed');
  const groups = batch.body.results_by_gds as Record<string, unknown[]>;
  expect(Object.keys(groups).sort()).toEqual(['amadeus', 'duffel', 'mystifly']);
  expect(Object.values(groups).every((offers) => offers.length > 0)).toBe(true);
  expect(batch.body.total_offers).toBe(log.filter((e) => e.event === 'offer').length);
}

/** The stored log of a search: seqs 1..n without a gap, `done` last; returns it. */
async function contiguousLog(id: string) {
  const log = await readAfter(searchDb(h.database.db), id, 0);
  expect(log.map((e) => e.seq)).toEqual(log.map((_, i) => i + 1));
  expect(log.at(-1)?.event).toBe('done');
  return log;
}

describe(`chained search writes (${testBackend})`, () => {
  it('the first write goes alone; answers made while it is on its way follow it in one write', async () => {
    reset();
    holdAnswers('amadeus', 'mystifly');
    const order: string[] = [];
    hook = async (n, run) => {
      order.push(`sent ${n}`);
      if (n === 1) {
        // Both other answers are made while the first write is on its way.
        await Promise.all([gate('amadeus').arrived, gate('mystifly').arrived]);
        gate('amadeus').open();
        gate('mystifly').open();
        await turn();
      }
      const result = await run();
      order.push(`answered ${n}`);
      return result;
    };
    const id = await startFlight();
    const stream = collect(await routes.streamFlightOffers!(ctx({ params: { search_id: id } })));
    const batch = await finalBatch(id);
    expect(order).toEqual(['sent 1', 'answered 1', 'sent 2', 'answered 2']);
    const log = await contiguousLog(id);
    expect((await stream).map((m) => Number(m.id))).toEqual(
      log.filter((e) => e.event !== 'status_update').map((e) => e.seq),
    );
    expectAllSuppliers(batch, log);
  });

  it('after the first write, an answer is sent while the write before it is still on its way', async () => {
    reset();
    holdAnswers('amadeus', 'mystifly');
    const thirdSent = signal();
    hook = async (n, run) => {
      if (n === 2) gate('mystifly').open();
      if (n === 3) thirdSent.resolve();
      const result = await run();
      // The second write's answer comes back only once the third has been sent.
      if (n === 2) await thirdSent.p;
      return result;
    };
    const id = await startFlight();
    await afterFirstOffer(id);
    gate('amadeus').open();
    const batch = await finalBatch(id);
    // Three writes (a fourth when the third reached PostgreSQL, on its own connection, before the second
    // took the session row: it is sent again, see below).
    expect(writes).toBeGreaterThanOrEqual(3);
    expectAllSuppliers(batch, await contiguousLog(id));
  });

  it('a write whose predecessor did not commit commits nothing; the sweeper then closes the log', async () => {
    reset();
    holdAnswers('amadeus', 'mystifly');
    const thirdSent = signal();
    const settled: Promise<unknown>[] = [];
    // The second write never reaches the database (its connection failed); it says so only once the
    // third is in the database's hands.
    hook = (n, run) => {
      if (n === 2) gate('mystifly').open();
      if (n === 3) thirdSent.resolve();
      const p =
        n === 2
          ? thirdSent.p.then(() => {
              throw new Error('connection terminated');
            })
          : run();
      settled.push(p.catch(() => {}));
      return p;
    };
    const id = await startFlight();
    await afterFirstOffer(id);
    gate('amadeus').open();
    await thirdSent.p;
    await Promise.all(settled);
    // The third reached the database and committed nothing: no seq without the ones before it.
    const stored = await readAfter(searchDb(h.database.db), id, 0);
    expect(stored.map((e) => e.seq)).toEqual(stored.map((_, i) => i + 1));
    expect(stored.filter((e) => e.event === 'supplier_done')).toHaveLength(1);
    expect(await findSession(h.database.db, id)).toMatchObject({
      status: 'in_progress',
      completed_suppliers: 1,
      total_offers: stored.length - 1,
    });
    reset();
    // As the deadline job would: the log is closed from where it really is.
    expect(await finishAbandoned(h.search, id)).toBe('partial');
    const log = await contiguousLog(id);
    expect(log.filter((e) => e.event === 'supplier_done')).toHaveLength(3);
  });

  it('a write that reaches the database before the one it follows is sent again after it', async () => {
    reset();
    holdAnswers('amadeus', 'mystifly');
    const thirdRan = signal();
    // The second write reaches the database only after the third has run there (and found the session
    // without the second: it committed nothing).
    hook = async (n, run) => {
      if (n === 2) {
        gate('mystifly').open();
        await thirdRan.p;
        return run();
      }
      const result = await run();
      if (n === 3) thirdRan.resolve();
      return result;
    };
    const id = await startFlight();
    await afterFirstOffer(id);
    gate('amadeus').open();
    const batch = await finalBatch(id);
    // More statements than writes: what ran too early was sent again.
    expect(writes).toBe(4);
    expectAllSuppliers(batch, await contiguousLog(id));
  });

  it('offer rows up to 8 KB are stored as they are, not compressed first (migration 0100)', async () => {
    reset();
    const id = await startFlight();
    await routes.getFlightBatchResults!(ctx({ params: { search_id: id }, query: { timeout: 30 } }));
    const rows = await sql<{ bytes: number; offer: string | null; ref: string | null }>`
      select pg_column_size(o.*) as bytes, pg_column_compression(offer) as offer,
             pg_column_compression(supplier_ref) as ref
        from search_offers o where search_id = ${id}`.execute(h.database.db);
    // Amadeus rows carry the whole supplier offer: over the default 2 KB threshold, under 8 KB.
    expect(Math.max(...rows.rows.map((r) => Number(r.bytes)))).toBeGreaterThan(2048);
    expect(rows.rows.every((r) => r.offer === null && r.ref === null)).toBe(true);
  });
});
