/**
 * Flight search against the real emulators on loopback: fan-out to every supplier, the offer stream with
 * ids and Last-Event-ID, the grouped stream, markup, expiry, ownership and offer resolution.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markupDb } from '../../src/domains/markup/markup-store.ts';
import { searchRoutes } from '../../src/domains/search/routes.ts';
import { type HandlerTable, handlerTable, type SseMessage } from '../../src/kernel/types.ts';
import { resolveOffer, toSupplierFlightOffer } from '../../src/search/resolve-offer.ts';
import { collect, ctx, flightBody, type Harness, harness, userAuth } from './harness.ts';

let h: Harness;
let routes: HandlerTable;
beforeAll(async () => {
  h = await harness();
  routes = handlerTable(searchRoutes(h.search));
  await h.database.db
    .insertInto('companies')
    .values([
      { company_name: 'Agency', company_code: 'AGY', contact_email: 'a@agency.test', settings: '{}' },
      { company_name: 'Other', company_code: 'OTH', contact_email: 'o@other.test', settings: '{}' },
    ])
    .execute();
});
afterAll(() => h.close());

async function startFlight(body = flightBody()): Promise<string> {
  const r = await routes.searchFlights!(ctx({ body }));
  expect(r.status).toBe(202);
  const b = (r as { body: { searchId: string; status: string; streamUrl: string } }).body;
  expect(b.status).toBe('initiated');
  expect(b.streamUrl).toBe(`/api/v1/flight/getFare/stream/${b.searchId}`);
  return b.searchId;
}

const stream = async (id: string, lastId?: string) =>
  collect(
    await routes.streamFlightOffers!(
      ctx({ params: { search_id: id }, headers: lastId ? { 'last-event-id': lastId } : {} }),
    ),
  );

type Offer = {
  offer_id: string;
  supplier: string;
  price: { base_minor: number; taxes_minor: number; markup_minor: number; total_minor: number };
};
const offersOf = (msgs: SseMessage[]) =>
  msgs.filter((m) => m.event === 'offer').map((m) => (m.data as { offer: Offer }).offer);

describe('flight search', () => {
  it('streams offers from every supplier, each completion, then done; every data event has an increasing id', async () => {
    const id = await startFlight();
    const msgs = await stream(id);
    const done = msgs
      .filter((m) => m.event === 'supplier_done')
      .map((m) => m.data as { supplier: string; status: string });
    expect(done.map((d) => d.supplier).sort()).toEqual(['amadeus', 'duffel', 'mystifly']);
    expect(done.every((d) => d.status === 'completed')).toBe(true);
    const offers = offersOf(msgs);
    expect(new Set(offers.map((o) => o.supplier))).toEqual(new Set(['amadeus', 'duffel', 'mystifly']));
    // Each supplier's offers arrive before its own completion event.
    for (const d of done) {
      const at = msgs.findIndex(
        (m) => m.event === 'supplier_done' && (m.data as { supplier: string }).supplier === d.supplier,
      );
      const lastOffer = msgs.findLastIndex(
        (m) => m.event === 'offer' && (m.data as { offer: Offer }).offer.supplier === d.supplier,
      );
      expect(lastOffer).toBeLessThan(at);
    }
    const last = msgs.at(-1)!;
    expect(last.event).toBe('done');
    expect(last.data).toEqual({ status: 'completed', total_offers: offers.length });
    const ids = msgs.map((m) => Number(m.id));
    expect(ids.every((n, i) => Number.isInteger(n) && (i === 0 || n > (ids[i - 1] as number)))).toBe(true);
  });

  it('resumes after Last-Event-ID with nothing lost and nothing repeated, also after the search finished', async () => {
    const id = await startFlight();
    const full = await stream(id);
    const cut = Math.floor(full.length / 2);
    const resumed = await stream(id, full[cut - 1]!.id);
    expect(resumed).toEqual(full.slice(cut));
    // At the terminal event: only the terminal event again, so the client knows the search is over.
    const atEnd = await stream(id, full.at(-1)!.id);
    expect(atEnd).toEqual([full.at(-1)]);
  });

  it('several readers each get everything', async () => {
    const id = await startFlight();
    const [a, b] = await Promise.all([stream(id), stream(id)]);
    expect(a).toEqual(b);
    expect(a.at(-1)?.event).toBe('done');
  });

  it('stream-by-gds sends one complete group per supplier, with ids, then done', async () => {
    const id = await startFlight();
    const full = await stream(id);
    const groups = await collect(await routes.streamFlightOffersByGds!(ctx({ params: { search_id: id } })));
    const g = groups
      .filter((m) => m.event === 'gds_results')
      .map((m) => m.data as { gds: string; status: string; offers: Offer[] });
    expect(g.map((x) => x.gds).sort()).toEqual(['amadeus', 'duffel', 'mystifly']);
    for (const x of g)
      expect(x.offers.map((o) => o.offer_id)).toEqual(
        offersOf(full)
          .filter((o) => o.supplier === x.gds)
          .map((o) => o.offer_id),
      );
    expect(groups.at(-1)?.event).toBe('done');
    const resumed = await collect(
      await routes.streamFlightOffersByGds!(
        ctx({ params: { search_id: id }, headers: { 'last-event-id': groups[0]!.id! } }),
      ),
    );
    expect(resumed).toEqual(groups.slice(1));
  });

  it('applies platform and company markup rules to displayed prices', async () => {
    const before = offersOf(await stream(await startFlight()));
    expect(before.every((o) => o.price.markup_minor === 0)).toBe(true);
    const m = markupDb(h.database.db);
    await m
      .insertInto('markup_rules')
      .values({
        company_id: null,
        rule_type: 'fixed',
        amount: 5,
        currency: null,
        origin: null,
        destination: null,
        cabin_class: null,
        airline: null,
        gds_provider: null,
        min_fare: null,
        max_fare: null,
        description: null,
        created_by: null,
      })
      .execute();
    await m
      .insertInto('markup_rules')
      .values({
        company_id: 2,
        rule_type: 'fixed',
        amount: 99,
        currency: null,
        origin: null,
        destination: null,
        cabin_class: null,
        airline: null,
        gds_provider: null,
        min_fare: null,
        max_fare: null,
        description: 'another company',
        created_by: null,
      })
      .execute();
    try {
      const after = offersOf(await stream(await startFlight()));
      expect(after.length).toBeGreaterThan(0);
      for (const o of after) {
        expect(o.price.markup_minor).toBe(500);
        expect(o.price.total_minor).toBe(o.price.base_minor + o.price.taxes_minor + 500);
      }
      // The stored offer resolves with the supplier's own price for the adapter.
      const r = await resolveOffer(h.database.db, after[0]!.offer_id, userAuth(), h.clock);
      expect(r.supplier).toBe(after[0]!.supplier);
      expect(r.supplier_ref).not.toBeNull();
      const so = toSupplierFlightOffer(r);
      // In the supplier's own currency and amount (a Duffel GBP fare shown in USD is handed back in GBP).
      const shown = after[0] as unknown as { supplier_price: { currency: string; amount_minor: number } };
      expect(so.price.total_minor).toBe(shown.supplier_price.amount_minor);
      expect(so.price.currency).toBe(shown.supplier_price.currency);
      expect(so.price.markup_minor).toBe(0);
    } finally {
      await m.deleteFrom('markup_rules').execute();
    }
  });

  it('404 for an unknown search and for another company’s; 410 once expired', async () => {
    await expect(routes.streamFlightOffers!(ctx({ params: { search_id: 'fs_nope' } }))).rejects.toMatchObject(
      { status: 404, code: 'search_not_found' },
    );
    const id = await startFlight();
    await collect(await routes.streamFlightOffers!(ctx({ params: { search_id: id } })));
    const other = userAuth({ userId: 'u9', companyId: 2, companyCode: 'OTH' });
    await expect(
      routes.getFlightBatchResults!(ctx({ params: { search_id: id }, auth: other })),
    ).rejects.toMatchObject({ status: 404 });
    h.clock.advance(901_000);
    try {
      await expect(routes.streamFlightOffers!(ctx({ params: { search_id: id } }))).rejects.toMatchObject({
        status: 410,
        code: 'search_expired',
      });
      await expect(routes.getFlightBatchResults!(ctx({ params: { search_id: id } }))).rejects.toMatchObject({
        status: 410,
      });
    } finally {
      h.clock.advance(-901_000);
    }
  });

  it('rejects another company’s code (403) and invalid searches (400)', async () => {
    await expect(
      routes.searchFlights!(ctx({ body: flightBody({ companyCode: 'OTHER' }) })),
    ).rejects.toMatchObject({ status: 403, code: 'company_mismatch' });
    await expect(
      routes.searchFlights!(ctx({ body: flightBody({ userCode: 'someone-else' }) })),
    ).rejects.toMatchObject({ status: 403 });
    await expect(
      routes.searchFlights!(
        ctx({
          body: flightBody({
            searchAirLegs: [{ origin: 'LHR', destination: 'DXB', departureDate: '2020-01-01' }],
          }),
        }),
      ),
    ).rejects.toMatchObject({ status: 400, code: 'invalid_date' });
    await expect(
      routes.searchFlights!(ctx({ body: flightBody({ journeyType: 'Return' }) })),
    ).rejects.toMatchObject({ status: 400, code: 'invalid_search' });
    await expect(
      routes.searchFlights!(ctx({ body: flightBody({ adults: 1, infants: 2 }) })),
    ).rejects.toMatchObject({ status: 400, code: 'invalid_passenger_mix' });
  });

  it('batch returns every supplier’s results with 200 when all finish', async () => {
    const id = await startFlight();
    const r = await routes.getFlightBatchResults!(ctx({ params: { search_id: id }, query: { timeout: 30 } }));
    expect(r.status).toBe(200);
    const b = (r as { body: Record<string, unknown> }).body as {
      results_by_gds: Record<string, unknown[]>;
      total_offers: number;
      completed_gds_count: number;
      total_gds_count: number;
      timed_out: boolean;
      status: string;
    };
    expect(Object.keys(b.results_by_gds).sort()).toEqual(['amadeus', 'duffel', 'mystifly']);
    expect(b.total_offers).toBe(Object.values(b.results_by_gds).flat().length);
    expect(b).toMatchObject({
      completed_gds_count: 3,
      total_gds_count: 3,
      timed_out: false,
      status: 'completed',
    });
  });
});
