/**
 * Two server instances sharing one PostgreSQL database (TEST_DATABASE_URL): a search started on one is
 * streamed and batched from the other, woken by LISTEN/NOTIFY. Each instance has its own pool, notifier,
 * engine and emulators, as two processes behind a load balancer would.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchRoutes } from '../../src/domains/search/routes.ts';
import type { Routes } from '../../src/kernel/types.ts';
import { openDatabase } from '../../src/storage/database.ts';
import { testDatabase } from '../helpers/db.ts';
import { collect, ctx, flightBody, type Harness, harness } from './harness.ts';

const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)('search across two instances on one PostgreSQL server', () => {
  let a: Harness;
  let b: Harness;
  let ra: Routes;
  let rb: Routes;
  let closeShared: () => Promise<void>;
  beforeAll(async () => {
    const shared = await testDatabase();
    closeShared = () => shared.close();
    const schema = (
      await shared.db
        .selectNoFrom((eb) => eb.fn<string>('current_schema', []).as('s'))
        .executeTakeFirstOrThrow()
    ).s;
    const second = await openDatabase({ databaseUrl: url, schema, migrate: true });
    // Instance A's mystifly answers after 300 ms, so B's reader is already waiting when events arrive.
    a = await harness({ database: shared, slow: { mystifly: 300 } });
    // B polls only once a minute: it must be woken by NOTIFY from A.
    b = await harness({ database: second, pollMs: 60_000 });
    ra = searchRoutes(a.search);
    rb = searchRoutes(b.search);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await b?.database.close();
    await closeShared?.();
  });

  it('streams on B, live, a search started on A; Last-Event-ID on B; batch on B', async () => {
    const r = await ra.searchFlights!(ctx({ body: flightBody() }));
    const id = (r as { body: { searchId: string } }).body.searchId;
    const onB = await collect(await rb.streamFlightOffers!(ctx({ params: { search_id: id } })));
    const onA = await collect(await ra.streamFlightOffers!(ctx({ params: { search_id: id } })));
    expect(onB).toEqual(onA);
    expect(onB.at(-1)).toMatchObject({ event: 'done', data: { status: 'completed' } });
    const resumed = await collect(
      await rb.streamFlightOffers!(
        ctx({ params: { search_id: id }, headers: { 'last-event-id': onA[3]!.id! } }),
      ),
    );
    expect(resumed).toEqual(onA.slice(4));

    const r2 = await ra.searchFlights!(ctx({ body: flightBody() }));
    const id2 = (r2 as { body: { searchId: string } }).body.searchId;
    const batch = (await rb.getFlightBatchResults!(
      ctx({ params: { search_id: id2 }, query: { timeout: 30 } }),
    )) as { status: number; body: Record<string, any> };
    expect(batch.status).toBe(200);
    expect(batch.body).toMatchObject({ completed_gds_count: 3, total_gds_count: 3, timed_out: false });
    expect(batch.body.results_by_gds.mystifly.length).toBeGreaterThan(0);
  });
});
