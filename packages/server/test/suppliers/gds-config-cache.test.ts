/**
 * gds_config held in memory: the process that changes a supplier's settings sees it at once, every other
 * process on the same database within GDS_CONFIG_CACHE_MS (clock moved by hand, nothing timed).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../../src/storage/database.ts';
import { DEFAULT_GDS_SETTINGS, GdsConfigStore } from '../../src/suppliers/gds-config.ts';
import { testDatabase } from '../helpers/db.ts';

let database: Database;
beforeAll(async () => {
  database = await testDatabase();
});
afterAll(() => database.close());

it('a PATCH shows at once on its own process and on the others once their copy is older than cacheMs', async () => {
  let now = 1_000_000;
  const clock = () => now;
  const a = new GdsConfigStore({ db: database.db, cacheMs: 5000, now: clock });
  const b = new GdsConfigStore({ db: database.db, cacheMs: 5000, now: clock });
  // Both read (and hold) the table: no row yet, the defaults.
  expect((await a.get('amadeus')).timeout_ms).toBe(DEFAULT_GDS_SETTINGS.timeout_ms);
  expect((await b.get('amadeus')).enabled).toBe(true);

  await b.update('amadeus', { enabled: false, timeout_ms: 4000 });
  expect(await b.get('amadeus')).toMatchObject({ enabled: false, timeout_ms: 4000 });
  // A still answers from its copy, without reading the table...
  expect(await a.get('amadeus')).toMatchObject({
    enabled: true,
    timeout_ms: DEFAULT_GDS_SETTINGS.timeout_ms,
  });
  now += 4999;
  expect((await a.get('amadeus')).enabled).toBe(true);
  // ...until its copy is cacheMs old.
  now += 1;
  expect(await a.get('amadeus')).toMatchObject({ enabled: false, timeout_ms: 4000 });

  // An update merges into the table's current row, not into a stale copy of the process making it.
  await a.update('amadeus', { priority: 90 });
  await b.update('amadeus', { max_results: 7 });
  expect(await b.get('amadeus')).toEqual({ enabled: false, timeout_ms: 4000, priority: 90, max_results: 7 });
});

it('cacheMs 0 reads the table on every call', async () => {
  const a = new GdsConfigStore({ db: database.db, cacheMs: 0 });
  const b = new GdsConfigStore({ db: database.db, cacheMs: 0 });
  expect((await a.get('duffel')).priority).toBe(DEFAULT_GDS_SETTINGS.priority);
  await b.update('duffel', { priority: 10 });
  expect((await a.get('duffel')).priority).toBe(10);
});
