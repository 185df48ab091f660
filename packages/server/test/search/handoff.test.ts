/**
 * This process's engine hands what it committed to this process's readers with the wake-up: the log
 * feed takes the events as they are and the batch wait takes the final state and offers, with no re-read;
 * what they get is what a reader of the database gets.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { searchRoutes } from '../../src/domains/search/routes.ts';
import { handlerTable } from '../../src/kernel/types.ts';
import { waitForSearch } from '../../src/search/batch-reader.ts';
import { follow, insertEvents, type LogEvent } from '../../src/search/event-log.ts';
import { LocalNotifier } from '../../src/search/notifier.ts';
import { searchDb } from '../../src/search/tables.ts';
import { ctx, flightBody, type Harness, harness } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  // Mystifly answers last; readers poll once a minute at most, so only a wake-up can end their wait.
  h = await harness({ slow: { mystifly: 300 }, pollMs: 60_000 });
  for (const id of ['h1', 'h2']) {
    await searchDb(h.database.db)
      .insertInto('search_sessions')
      .values({
        id,
        vertical: 'flight',
        user_id: 'u',
        company_id: null,
        request: '{}',
        suppliers: '["amadeus"]',
        total_suppliers: 1,
        status: 'in_progress',
        expires_at: new Date(Date.now() + 60_000),
      })
      .execute();
  }
});
afterAll(() => h.close());

it('a follower gets the events handed with the wake-up, the same objects, without reading the table', async () => {
  const notifier = new LocalNotifier();
  const one: LogEvent = { seq: 1, event: 'offer', data: { offer: { offer_id: 'of_1' } } };
  await searchDb(h.database.db)
    .transaction()
    .execute((trx) => insertEvents(trx, 'h1', [one]));
  const it = follow({
    db: h.database.db,
    notifier,
    searchId: 'h1',
    after: 0,
    heartbeatMs: 60_000,
    pollMs: 60_000,
  });
  expect((await it.next()).value).toEqual(one);
  const next = it.next();
  // Not in the table: only the hand-off can deliver these.
  const handed: LogEvent[] = [
    { seq: 2, event: 'supplier_done', data: { supplier: 'amadeus', status: 'completed', offer_count: 1 } },
    { seq: 3, event: 'done', data: { status: 'completed', total_offers: 1 } },
  ];
  notifier.wake('h1', { events: handed });
  expect((await next).value).toBe(handed[0]);
  expect((await it.next()).value).toBe(handed[1]);
  expect((await it.next()).done).toBe(true);
});

it('a batch wait ends with the final state and offers handed by the engine, not a re-read', async () => {
  const notifier = new LocalNotifier();
  const offers = [{ supplier: 'amadeus', offer: { offer_id: 'of_9' }, total_minor: 100 }];
  const finishedAt = new Date();
  const waiting = waitForSearch(
    { db: h.database.db, notifier, clock: h.clock, heartbeatMs: 60_000, pollMs: 60_000 },
    'h2',
    new Promise(() => {}),
  );
  // Other appends of the search wake nobody; the end does.
  notifier.wake('h2', { events: [] });
  notifier.wake('h2', {
    events: [],
    final: { status: 'completed', completed_suppliers: 1, total_offers: 1, finished_at: finishedAt, offers },
  });
  const r = await waiting;
  // The table still says in_progress: the answer came from the hand-off.
  expect(r.cut).toBe(false);
  expect(r.offers).toBe(offers);
  expect(r.session).toMatchObject({ id: 'h2', status: 'completed', completed_suppliers: 1, total_offers: 1 });
  expect(r.session.finished_at).toBe(finishedAt);
});

it('the batch answered at the end of a running search equals the batch read back from the database', async () => {
  const routes = handlerTable(searchRoutes(h.search));
  const started = await routes.searchFlights!(ctx({ body: flightBody() }));
  const id = (started as { body: { searchId: string } }).body.searchId;
  const batch = () =>
    routes.getFlightBatchResults!(ctx({ params: { search_id: id }, query: { timeout: 30 } }));
  const live = (await batch()) as { status: number; body: Record<string, unknown> };
  expect(live.status).toBe(200);
  expect(live.body).toMatchObject({ status: 'completed', completed_gds_count: 3, timed_out: false });
  expect((live.body.results_by_gds as Record<string, unknown[]>).mystifly?.length).toBeGreaterThan(0);
  const stored = (await batch()) as { status: number; body: Record<string, unknown> };
  expect(stored.body).toEqual(live.body);
});
