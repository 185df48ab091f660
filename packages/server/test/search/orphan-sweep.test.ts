/**
 * Searches whose process died mid fan-out (src/search/orphans.ts), on the test clock: each search's
 * deadline job comes due only after its slowest supplier's deadline plus the grace period; then the job
 * runner closes the log (missing suppliers `failed`, then `done`) and a waiting reader gets its terminal
 * event. A search that finishes normally removes its job. The kill -9 variant with real processes is in
 * two-process.test.ts.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchRoutes } from '../../src/domains/search/routes.ts';
import { JobRunner } from '../../src/jobs/runner.ts';
import { type HandlerTable, handlerTable, type SseMessage } from '../../src/kernel/types.ts';
import { readAfter } from '../../src/search/event-log.ts';
import { DEFAULT_ORPHAN_GRACE_MS, finishAbandoned, SEARCH_DEADLINE_QUEUE } from '../../src/search/orphans.ts';
import { findSession } from '../../src/search/session-store.ts';
import { searchDb } from '../../src/search/tables.ts';
import { testBackend } from '../helpers/db.ts';
import { collect, ctx, flightBody, type Harness, harness } from './harness.ts';

// Mystifly answers after a minute and may take that long: its fan-out is still running when the clock
// says the deadline has passed, as if its process were gone.
const MYSTIFLY_MS = 60_000;
let h: Harness;
let routes: HandlerTable;
let runner: JobRunner;
beforeAll(async () => {
  h = await harness({
    slow: { mystifly: MYSTIFLY_MS },
    gdsDefaults: { mystifly: { timeout_ms: MYSTIFLY_MS } },
  });
  routes = handlerTable(searchRoutes(h.search));
  runner = new JobRunner({ db: h.database.db, clock: h.clock, handlers: h.search.jobHandlers });
});
afterAll(() => h?.close());

async function startFlight(body = flightBody()): Promise<string> {
  const r = await routes.searchFlights!(ctx({ body }));
  expect(r.status).toBe(202);
  return (r as { body: { searchId: string } }).body.searchId;
}

const deadlineJob = (searchId: string) =>
  h.database.db
    .selectFrom('jobs')
    .select(['id', 'status', 'run_at'])
    .where('queue', '=', SEARCH_DEADLINE_QUEUE)
    .where(sql`payload->>'search_id'`, '=', searchId)
    .executeTakeFirst();

const supplierDone = (m: SseMessage) => m.data as { supplier: string; status: string; offer_count: number };

describe(`orphaned searches (${testBackend})`, () => {
  it('a search that finishes removes its deadline job; the sweeper leaves a finished search alone', async () => {
    const id = await startFlight(flightBody({ sources: ['amadeus', 'duffel'] }));
    const msgs = await collect(await routes.streamFlightOffers!(ctx({ params: { search_id: id } })));
    expect(msgs.at(-1)).toMatchObject({ event: 'done', data: { status: 'completed' } });
    expect(await deadlineJob(id)).toBeUndefined();
    expect(await finishAbandoned(h.search, id)).toBeUndefined();
    const log = await readAfter(searchDb(h.database.db), id, 0);
    expect(log.filter((e) => e.event === 'done').map((e) => String(e.seq))).toEqual([msgs.at(-1)?.id]);
    expect(log.at(-1)?.event).toBe('done');
  });

  it('closes a search at its deadline: the waiting reader gets the missing supplier failed, then done', async () => {
    const started = h.clock.now().getTime();
    const id = await startFlight();
    const r = await routes.streamFlightOffers!(ctx({ params: { search_id: id } }));
    if (!('sse' in r)) throw new Error('not a stream');
    const it = r.sse[Symbol.asyncIterator]();
    const seen: SseMessage[] = [];
    while (seen.filter((m) => m.event === 'supplier_done').length < 2) {
      const next = await it.next();
      if (next.done) throw new Error('stream ended early');
      seen.push(next.value);
    }
    expect(
      seen
        .filter((m) => m.event === 'supplier_done')
        .map((m) => supplierDone(m).supplier)
        .sort(),
    ).toEqual(['amadeus', 'duffel']);

    // Due at the slowest supplier's deadline plus the grace period, not a millisecond before.
    const job = await deadlineJob(id);
    expect(job?.status).toBe('queued');
    expect(new Date(job!.run_at).getTime()).toBe(started + MYSTIFLY_MS + DEFAULT_ORPHAN_GRACE_MS);
    h.clock.advance(MYSTIFLY_MS + DEFAULT_ORPHAN_GRACE_MS - 1);
    expect(await runner.runOnce()).toBe(0);
    h.clock.advance(1);
    expect(await runner.runOnce()).toBe(1);
    expect((await deadlineJob(id))?.status).toBe('done');

    for (let next = await it.next(); !next.done; next = await it.next()) seen.push(next.value);
    const offers = seen.filter((m) => m.event === 'offer').length;
    const tail = seen.slice(-2);
    expect(tail[0]).toMatchObject({ event: 'supplier_done' });
    expect(supplierDone(tail[0]!)).toEqual({ supplier: 'mystifly', status: 'failed', offer_count: 0 });
    expect(tail[1]).toMatchObject({ event: 'done', data: { status: 'partial', total_offers: offers } });
    const ids = seen.map((m) => Number(m.id));
    expect(ids.every((n, i) => i === 0 || n > (ids[i - 1] as number))).toBe(true);

    const session = await findSession(h.database.db, id);
    expect(session).toMatchObject({ status: 'partial', completed_suppliers: 3, total_suppliers: 3 });
    expect(session?.finished_at).not.toBeNull();
    const batch = (await routes.getFlightBatchResults!(
      ctx({ params: { search_id: id }, query: { timeout: 1 } }),
    )) as { status: number; body: Record<string, unknown> };
    expect(batch.status).toBe(200);
    expect(batch.body).toMatchObject({ status: 'partial', completed_gds_count: 3, timed_out: false });

    // The owner was only slow, not dead: what it writes now is dropped, the log stays closed.
    const before = await readAfter(searchDb(h.database.db), id, 0);
    await h.search.engine.close();
    expect(h.search.engine.activeSearches()).toBe(0);
    expect(await readAfter(searchDb(h.database.db), id, 0)).toEqual(before);
    expect((await findSession(h.database.db, id))?.status).toBe('partial');
  });

  it('a search that died before any supplier answered ends failed, every supplier failed', async () => {
    const id = 'fs_orphan_without_events';
    await searchDb(h.database.db)
      .insertInto('search_sessions')
      .values({
        id,
        vertical: 'flight',
        status: 'initiated',
        user_id: 'u1',
        company_id: 1,
        request: '{}',
        suppliers: JSON.stringify(['amadeus', 'duffel']),
        total_suppliers: 2,
        expires_at: new Date(h.clock.now().getTime() + 900_000),
      })
      .execute();
    expect(await finishAbandoned(h.search, id)).toBe('failed');
    const log = await readAfter(searchDb(h.database.db), id, 0);
    expect(log.map((e) => [e.seq, e.event, e.data])).toEqual([
      [1, 'supplier_done', { supplier: 'amadeus', status: 'failed', offer_count: 0 }],
      [2, 'supplier_done', { supplier: 'duffel', status: 'failed', offer_count: 0 }],
      [3, 'status_update', { status: 'failed' }],
      [4, 'done', { status: 'failed', total_offers: 0 }],
    ]);
    expect(await finishAbandoned(h.search, id)).toBeUndefined();
  });
});
