/** The event log reader on its own: heartbeats on an injected timer, and readers never block the writer. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { follow, insertEvents, type Timers } from '../../src/search/event-log.ts';
import { LocalNotifier } from '../../src/search/notifier.ts';
import { searchDb } from '../../src/search/tables.ts';
import type { Database } from '../../src/storage/database.ts';
import { testDatabase } from '../helpers/db.ts';

let database: Database;
beforeAll(async () => {
  database = await testDatabase();
  await searchDb(database.db)
    .insertInto('search_sessions')
    .values({
      id: 's1',
      vertical: 'flight',
      user_id: 'u',
      company_id: null,
      request: '{}',
      suppliers: '[]',
      expires_at: new Date(Date.now() + 60_000),
    })
    .execute();
});
afterAll(() => database.close());

/** Timers a test fires by hand: heartbeats without sleeping. */
function manualTimers() {
  const pending = new Map<number, { fn: () => void; ms: number }>();
  let n = 0;
  const t: Timers & { fire(ms: number): void } = {
    setTimeout: (fn, ms) => {
      pending.set(++n, { fn, ms });
      return n;
    },
    clearTimeout: (h) => void pending.delete(h as number),
    fire(ms) {
      for (const [k, v] of [...pending]) {
        if (v.ms !== ms) continue;
        pending.delete(k);
        v.fn();
      }
    },
  };
  return t;
}

it('sends a heartbeat when the heartbeat timer fires, then events as they are published', async () => {
  const notifier = new LocalNotifier();
  const timers = manualTimers();
  const it = follow({
    db: database.db,
    notifier,
    searchId: 's1',
    after: 0,
    heartbeatMs: 15_000,
    pollMs: 1000,
    timers,
  });
  const first = it.next();
  await new Promise((r) => setTimeout(r, 50));
  timers.fire(15_000);
  expect((await first).value).toEqual({ heartbeat: true });
  const second = it.next();
  await searchDb(database.db)
    .transaction()
    .execute((trx) =>
      insertEvents(trx, 's1', [
        { seq: 1, event: 'offer', data: { offer: { supplier: 'x' } } },
        { seq: 2, event: 'done', data: { status: 'completed', total_offers: 1 } },
      ]),
    );
  await notifier.publish('s1');
  expect((await second).value).toMatchObject({ seq: 1, event: 'offer' });
  expect((await it.next()).value).toMatchObject({ seq: 2, event: 'done' });
  expect((await it.next()).done).toBe(true);
});
