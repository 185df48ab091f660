/**
 * Slow and failing suppliers: batch 408 with partial results, per-supplier deadlines, circuit breakers
 * that skip a supplier, and admin config that takes effect for the next search.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gdsAdminRoutes } from '../../src/domains/search/gds-routes.ts';
import { searchRoutes } from '../../src/domains/search/routes.ts';
import { type HandlerTable, handlerTable } from '../../src/kernel/types.ts';
import { collect, ctx, flightBody, type Harness, harness, userAuth } from './harness.ts';

const admin = userAuth({ userId: 'admin', role: 'super_admin', companyId: null, companyCode: null });

describe('a slow supplier', () => {
  let h: Harness;
  let routes: HandlerTable;
  beforeAll(async () => {
    // The batch deadline has already passed when the batch call waits: no sleeps, no timing race. The
    // fast suppliers are done by then (the test waits for them) and mystifly takes a minute.
    h = await harness({ slow: { mystifly: 60_000 }, batchDeadline: () => Promise.resolve() });
    routes = handlerTable(searchRoutes(h.search));
  });
  afterAll(() => h.close());

  it('batch answers 408 with the partial results when the timeout cuts the wait', async () => {
    const r0 = await routes.searchFlights!(ctx({ body: flightBody() }));
    const id = (r0 as { body: { searchId: string } }).body.searchId;
    // Wait (through the stream) until both fast suppliers are done; mystifly is still answering.
    await collect(
      await routes.streamFlightOffers!(ctx({ params: { search_id: id } })),
      (_m, all) => all.filter((x) => x.event === 'supplier_done').length === 2,
    );
    const r = (await routes.getFlightBatchResults!(
      ctx({ params: { search_id: id }, query: { timeout: 5 } }),
    )) as { status: number; body: Record<string, any> };
    expect(r.status).toBe(408);
    expect(r.body.timed_out).toBe(true);
    expect(r.body.status).toBe('in_progress');
    expect(r.body).toMatchObject({ completed_gds_count: 2, total_gds_count: 3 });
    expect(r.body.results_by_gds.mystifly).toEqual([]);
    expect(r.body.results_by_gds.amadeus.length + r.body.results_by_gds.duffel.length).toBe(
      r.body.total_offers,
    );
    expect(r.body.total_offers).toBeGreaterThan(0);
  });

  it('a supplier past its deadline ends timed_out and the search is partial', async () => {
    await h.search.suppliers.gdsConfig.update('mystifly', { timeout_ms: 150 });
    try {
      const r0 = await routes.searchFlights!(ctx({ body: flightBody() }));
      const id = (r0 as { body: { searchId: string } }).body.searchId;
      const msgs = await collect(await routes.streamFlightOffers!(ctx({ params: { search_id: id } })));
      const my = msgs.find(
        (m) => m.event === 'supplier_done' && (m.data as { supplier: string }).supplier === 'mystifly',
      );
      expect(my?.data).toEqual({ supplier: 'mystifly', status: 'timed_out', offer_count: 0 });
      expect(msgs.at(-1)?.data).toMatchObject({ status: 'partial' });
      expect(h.search.stats.summary('mystifly').timeout_rate).toBeGreaterThan(0);
    } finally {
      await h.search.suppliers.gdsConfig.update('mystifly', { timeout_ms: 20_000 });
    }
  });
});

describe('circuit breakers and GDS admin', () => {
  let h: Harness;
  let routes: HandlerTable;
  let gds: HandlerTable;
  beforeAll(async () => {
    h = await harness();
    routes = handlerTable(searchRoutes(h.search));
    gds = handlerTable(gdsAdminRoutes(h.search));
  });
  afterAll(() => h.close());

  const run = async () => {
    const r0 = await routes.searchFlights!(ctx({ body: flightBody() }));
    const id = (r0 as { body: { searchId: string } }).body.searchId;
    return collect(await routes.streamFlightOffers!(ctx({ params: { search_id: id } })));
  };
  const statusOf = (msgs: Awaited<ReturnType<typeof run>>, s: string) =>
    (
      msgs.find((m) => m.event === 'supplier_done' && (m.data as { supplier: string }).supplier === s)
        ?.data as { status: string }
    )?.status;

  it('an open breaker skips its supplier at once and reports it', async () => {
    const b = h.search.breakers.get('duffel');
    for (let i = 0; i < 5; i++) b.onFailure();
    const list = (await gds.adminGetCircuitBreakers!(ctx({ auth: admin }))) as {
      body: { items: { provider: string; state: string }[] };
    };
    expect(list.body.items.find((i) => i.provider === 'duffel')?.state).toBe('open');
    const msgs = await run();
    expect(statusOf(msgs, 'duffel')).toBe('skipped');
    expect(statusOf(msgs, 'amadeus')).toBe('completed');
    expect(msgs.at(-1)?.data).toMatchObject({ status: 'partial' });
    const reset = (await gds.adminResetGdsCircuit!(ctx({ auth: admin, params: { provider: 'duffel' } }))) as {
      body: { state: string };
    };
    expect(reset.body.state).toBe('closed');
    expect(statusOf(await run(), 'duffel')).toBe('completed');
  });

  it('failing calls open the breaker (real failures against a dead endpoint)', async () => {
    const { HotelbedsAdapter } = await import('../../src/suppliers/hotelbeds/index.ts');
    const dead = new HotelbedsAdapter({
      baseUrl: 'http://127.0.0.1:9',
      apiKey: 'k',
      secret: 's',
      timeoutMs: 2000,
    });
    const b = h.search.breakers.get('dead');
    for (let i = 0; i < 5 && b.canPass(); i++) {
      await dead
        .search({
          destination: 'PMI',
          check_in: '2030-01-01',
          check_out: '2030-01-02',
          rooms: [],
          nationality: 'GB',
          currency: 'USD',
          max_results: 1,
        })
        .then(
          () => b.onSuccess(),
          () => b.onFailure(),
        );
    }
    expect(b.currentState()).toBe('open');
  });

  it('PATCH config takes effect for the next search; status and performance report suppliers', async () => {
    const patched = (await gds.adminUpdateGdsConfig!(
      ctx({ auth: admin, params: { provider: 'mystifly' }, body: { enabled: false, max_results: 3 } }),
    )) as { body: Record<string, unknown> };
    expect(patched.body).toMatchObject({ enabled: false, max_results: 3 });
    try {
      const msgs = await run();
      expect(statusOf(msgs, 'mystifly')).toBeUndefined();
    } finally {
      await gds.adminUpdateGdsConfig!(
        ctx({ auth: admin, params: { provider: 'mystifly' }, body: { enabled: true } }),
      );
    }
    await gds.adminUpdateGdsConfig!(
      ctx({ auth: admin, params: { provider: 'amadeus' }, body: { max_results: 2 } }),
    );
    const msgs = await run();
    expect(
      msgs.filter(
        (m) =>
          m.event === 'offer' && (m.data as { offer: { supplier: string } }).offer.supplier === 'amadeus',
      ),
    ).toHaveLength(2);
    const st = (await gds.adminGetGdsStatus!(ctx({ auth: admin }))) as {
      body: { items: Record<string, any>[] };
    };
    expect(st.body.items.map((i) => i.provider).sort()).toEqual(['amadeus', 'duffel', 'mystifly']);
    expect(st.body.items.find((i) => i.provider === 'amadeus')?.config.max_results).toBe(2);
    const perf = (await gds.adminGetGdsPerformance!(
      ctx({ auth: admin, query: { period: '7d', provider: 'amadeus' } }),
    )) as { body: { items: Record<string, any>[] } };
    expect(perf.body.items[0]?.searches).toBeGreaterThan(0);
    await expect(gds.adminGetGdsStatus!(ctx())).rejects.toMatchObject({ status: 403 });
    await expect(
      gds.adminResetGdsCircuit!(ctx({ auth: admin, params: { provider: 'nope' } })),
    ).rejects.toMatchObject({ status: 404 });
  });
});
