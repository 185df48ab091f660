/** The event log reader on its own: heartbeats on an injected timer, and readers never block the writer. */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { activeFeeds, follow, insertEvents } from '../../src/search/event-log.ts';
import { LocalNotifier } from '../../src/search/notifier.ts';
import { searchDb } from '../../src/search/tables.ts';
import type { Database } from '../../src/storage/database.ts';
import { testDatabase } from '../helpers/db.ts';
import { manualTimers } from './harness.ts';

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
  await searchDb(database.db)
    .insertInto('search_sessions')
    .values({
      id: 's2',
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
  // The follower has armed its heartbeat timer (it is waiting) before the timer fires: no sleep.
  await vi.waitFor(() => expect(timers.armed(15_000)).toBe(true));
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

it('many readers of one search share one reader of its log: one query per change, the same parsed events', async () => {
  const notifier = new LocalNotifier();
  const timers = manualTimers();
  let reads = 0;
  const db = database.db.withPlugin({
    transformQuery: (args) => {
      if (args.node.kind === 'SelectQueryNode') reads++;
      return args.node;
    },
    transformResult: async (args) => args.result,
  });
  const readers = Array.from({ length: 50 }, () =>
    follow({ db, notifier, searchId: 's2', after: 0, heartbeatMs: 15_000, pollMs: 1000, timers }),
  );
  const firsts = readers.map((r) => r.next());
  await searchDb(database.db)
    .transaction()
    .execute((trx) =>
      insertEvents(trx, 's2', [{ seq: 1, event: 'offer', data: { offer: { supplier: 'x' } } }]),
    );
  await notifier.publish('s2');
  const got = await Promise.all(firsts);
  expect(got.every((g) => (g.value as { seq: number }).seq === 1)).toBe(true);
  // One object for everyone: parsed once.
  expect(new Set(got.map((g) => g.value)).size).toBe(1);
  expect(activeFeeds(notifier)).toBe(1);
  const beforeDone = reads;
  const seconds = readers.map((r) => r.next());
  await searchDb(database.db)
    .transaction()
    .execute((trx) => insertEvents(trx, 's2', [{ seq: 2, event: 'done', data: { status: 'completed' } }]));
  await notifier.publish('s2');
  expect((await Promise.all(seconds)).every((g) => (g.value as { event: string }).event === 'done')).toBe(
    true,
  );
  expect(reads - beforeDone).toBe(1);
  for (const r of readers) expect((await r.next()).done).toBe(true);
  expect(activeFeeds(notifier)).toBe(0);
  // A reader resuming after the end gets `done` alone, from a fresh read.
  const late = follow({ db, notifier, searchId: 's2', after: 2, heartbeatMs: 15_000, pollMs: 1000, timers });
  expect((await late.next()).value).toMatchObject({ seq: 2, event: 'done' });
  expect((await late.next()).done).toBe(true);
});

it('a failed read of the shared log reaches its reader, and the next reader reads again', async () => {
  const notifier = new LocalNotifier();
  const timers = manualTimers();
  let failNext = true;
  const db = database.db.withPlugin({
    transformQuery: (args) => {
      if (failNext && args.node.kind === 'SelectQueryNode') {
        failNext = false;
        throw new Error('connection lost');
      }
      return args.node;
    },
    transformResult: async (args) => args.result,
  });
  const opts = { db, notifier, searchId: 's2', after: 0, heartbeatMs: 15_000, pollMs: 1000, timers };
  const first = follow(opts);
  const second = follow(opts);
  const a = first.next();
  const b = second.next();
  await expect(a).rejects.toThrow('connection lost');
  // The other follower of the same feed saw the same failure; a new reader tries the database again.
  await expect(b).rejects.toThrow('connection lost');
  const again = follow(opts);
  expect((await again.next()).value).toMatchObject({ seq: 1, event: 'offer' });
  await again.return(undefined);
});
