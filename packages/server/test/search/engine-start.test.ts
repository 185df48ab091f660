/**
 * What the 202 of a search waits for: the session and its deadline job, committed together in one
 * statement, and nothing of the fan-out (no supplier is asked before the caller has its answer).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ManualClock } from '../../src/internal/clock.ts';
import { LocalNotifier } from '../../src/search/notifier.ts';
import { SEARCH_DEADLINE_QUEUE } from '../../src/search/orphans.ts';
import { searchDb } from '../../src/search/tables.ts';
import type { Database } from '../../src/storage/database.ts';
import type { SearchableSupplier } from '../../src/suppliers/searchable.ts';
import { testDatabase } from '../helpers/db.ts';
import { bareEngine, futureDate } from './harness.ts';

let database: Database;
beforeAll(async () => {
  database = await testDatabase();
});
afterAll(() => database.close());

it('start returns with the session and its deadline job stored, before any supplier is asked', async () => {
  const asked: string[] = [];
  let answer: (offers: unknown[]) => void = () => {};
  const supplier: SearchableSupplier<unknown, unknown> = {
    name: 'amadeus',
    search: () => {
      asked.push('amadeus');
      return new Promise((resolve) => {
        answer = resolve;
      });
    },
  };
  const clock = new ManualClock(new Date());
  const notifier = new LocalNotifier();
  const engine = bareEngine({ db: database.db, suppliers: [supplier], notifier, clock });
  const started = await engine.start(
    'flight',
    { searchAirLegs: [{ origin: 'LHR', destination: 'DXB', departureDate: futureDate(30) }] },
    { userId: 'u1', companyId: null },
  );
  expect(asked).toEqual([]);
  const session = await searchDb(database.db)
    .selectFrom('search_sessions')
    .select(['status', 'total_suppliers'])
    .where('id', '=', started.id)
    .executeTakeFirstOrThrow();
  // Stored (the fan-out, started meanwhile, may already have marked it in_progress; no supplier answered).
  expect(session.total_suppliers).toBe(1);
  expect(['initiated', 'in_progress']).toContain(session.status);
  const jobs = await database.db
    .selectFrom('jobs')
    .select(['queue', 'payload'])
    .where('queue', '=', SEARCH_DEADLINE_QUEUE)
    .execute();
  expect(jobs.map((j) => (typeof j.payload === 'string' ? JSON.parse(j.payload) : j.payload))).toContainEqual(
    {
      search_id: started.id,
    },
  );
  // Then the fan-out runs: the supplier is asked, and its answer ends the search (one write with `done`).
  await expect.poll(() => asked).toEqual(['amadeus']);
  const ended = new Promise<void>((resolve) => {
    notifier.subscribe(started.id, (c) => {
      if (c?.final) resolve();
    });
  });
  answer([]);
  await ended;
  expect(engine.activeSearches()).toBeLessThanOrEqual(1);
  await engine.close();
  const after = await searchDb(database.db)
    .selectFrom('search_sessions')
    .select(['status', 'completed_suppliers'])
    .where('id', '=', started.id)
    .executeTakeFirstOrThrow();
  expect(after).toEqual({ status: 'completed', completed_suppliers: 1 });
  // The deadline job went with the last write.
  const left = await database.db
    .selectFrom('jobs')
    .select('id')
    .where('queue', '=', SEARCH_DEADLINE_QUEUE)
    .execute();
  expect(left).toEqual([]);
});
