/**
 * Offers the booking domain derives from a search's offers (upsell alternatives, bag re-prices) are stored
 * in the same search so they resolve by offer_id, but they are not results: the batch, the streams (also
 * resumed), the grouped stream and the results page show exactly what the suppliers answered.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PricingService } from '../../src/domains/flight-booking/pricing.ts';
import { searchRoutes } from '../../src/domains/search/routes.ts';
import { newOfferId } from '../../src/internal/ids.ts';
import { type HandlerTable, handlerTable, type SseMessage } from '../../src/kernel/types.ts';
import type { Mailer } from '../../src/mail/mailer.ts';
import { searchOffers } from '../../src/search/batch-reader.ts';
import { resolveOffer, saveDerivedOffer } from '../../src/search/resolve-offer.ts';
import { searchDb } from '../../src/search/tables.ts';
import { collect, ctx, flightBody, futureDate, type Harness, harness, opCtx } from './harness.ts';

let h: Harness;
let routes: HandlerTable;
let pricing: PricingService;
beforeAll(async () => {
  h = await harness();
  routes = handlerTable(searchRoutes(h.search));
  const registry = h.search.suppliers;
  pricing = new PricingService({
    db: h.database.db,
    clock: h.clock,
    mailer: {} as Mailer,
    suppliers: {
      flight: (n) => registry.flight(n),
      payments: () => {
        throw new Error('not used');
      },
    },
  });
});
afterAll(() => h.close());

type Offer = { offer_id: string; supplier: string };
const offerIds = (msgs: SseMessage[], event: string) =>
  msgs.filter((m) => m.event === event).map((m) => (m.data as { offer: Offer }).offer.offer_id);

const storedIds = async (searchId: string) =>
  (
    await searchDb(h.database.db)
      .selectFrom('search_offers')
      .select('offer_id')
      .where('search_id', '=', searchId)
      .execute()
  ).map((r) => r.offer_id);

describe('derived offers stay out of a search’s results', () => {
  it('flight: upsell alternatives and a bag offer are in the search but not in batch, stream or resume', async () => {
    const started = await routes.searchFlights!(ctx({ body: flightBody() }));
    const id = (started as { body: { searchId: string } }).body.searchId;
    const stream = async (lastId?: string) =>
      collect(
        await routes.streamFlightOffers!(
          ctx({ params: { search_id: id }, headers: lastId ? { 'last-event-id': lastId } : {} }),
        ),
      );
    const batch = async () => {
      const r = await routes.getFlightBatchResults!(
        ctx({ params: { search_id: id }, query: { timeout: 30 } }),
      );
      expect(r.status).toBe(200);
      return (r as { body: { results_by_gds: Record<string, Offer[]>; total_offers: number } }).body;
    };
    const full = await stream();
    const answered = offerIds(full, 'offer');
    const groupsBefore = await collect(
      await routes.streamFlightOffersByGds!(ctx({ params: { search_id: id } })),
    );
    const batchBefore = await batch();
    expect(
      Object.values(batchBefore.results_by_gds)
        .flat()
        .map((o) => o.offer_id)
        .sort(),
    ).toEqual([...answered].sort());

    // Derive offers the way the booking domain does: upsell on an Amadeus offer, bags on another offer.
    const amadeus = full
      .filter((m) => m.event === 'offer')
      .map((m) => (m.data as { offer: Offer }).offer)
      .find((o) => o.supplier === 'amadeus');
    expect(amadeus).toBeDefined();
    const up = (await pricing.upsell(opCtx({ body: { offer_id: amadeus!.offer_id } }))) as {
      alternatives: Offer[];
    };
    expect(up.alternatives.length).toBeGreaterThan(0);
    const cat = (await pricing.bagCatalogue(opCtx({ body: { offer_id: amadeus!.offer_id } }))) as {
      bag_options: { bag_option_id: string }[];
    };
    const bag = cat.bag_options[0];
    expect(bag).toBeDefined();
    const bagged = (await pricing.repriceBags(
      opCtx({
        body: {
          offer_id: amadeus!.offer_id,
          selections: [{ bag_option_id: bag!.bag_option_id, quantity: 1 }],
        },
      }),
    )) as { offer: Offer };
    const derived = [...up.alternatives.map((a) => a.offer_id), bagged.offer.offer_id];
    // They are stored under this search (so they resolve by offer_id)…
    const stored = await storedIds(id);
    for (const d of derived) {
      expect(answered).not.toContain(d);
      expect(stored).toContain(d);
      expect((await resolveOffer(h.database.db, d, ctx().auth!, h.clock)).search_id).toBe(id);
    }

    // …but no consumption mode shows them.
    const batchAfter = await batch();
    expect(batchAfter).toEqual(batchBefore);
    expect(batchAfter.total_offers).toBe(answered.length);
    expect(await stream()).toEqual(full);
    const cut = Math.floor(full.length / 2);
    expect(await stream(full[cut - 1]!.id)).toEqual(full.slice(cut));
    expect(await stream(full.at(-1)!.id)).toEqual([full.at(-1)]);
    const groupsAfter = await collect(
      await routes.streamFlightOffersByGds!(ctx({ params: { search_id: id } })),
    );
    expect(groupsAfter).toEqual(groupsBefore);
    expect(
      await collect(
        await routes.streamFlightOffersByGds!(
          ctx({ params: { search_id: id }, headers: { 'last-event-id': groupsBefore[0]!.id! } }),
        ),
      ),
    ).toEqual(groupsBefore.slice(1));
    expect((await searchOffers(h.database.db, id)).map((o) => o.offer.offer_id)).toEqual(answered);
  });

  it('hotel: a derived row, even at a position a real offer holds, is in neither batch nor results page', async () => {
    const started = await routes.searchHotels!(
      ctx({
        body: {
          destination: 'PMI',
          check_in: futureDate(40),
          check_out: futureDate(42),
          rooms: [{ adults: 2, children: 0, child_ages: [] }],
          currency: 'EUR',
        },
      }),
    );
    const id = (started as { body: { search_id: string } }).body.search_id;
    const full = await collect(await routes.streamHotelOffers!(ctx({ params: { search_id: id } })));
    const answered = offerIds(full, 'hotel_offer');
    expect(answered.length).toBeGreaterThan(0);
    // A hotel offer resolves like a flight offer; its supplier ref is the rate key as a plain string.
    const from = await resolveOffer(h.database.db, answered[0]!, ctx().auth!, h.clock);
    expect(from.supplier_ref).toBe((from.offer as { rate_key: string }).rate_key);
    const extra = [
      { offer_id: newOfferId(), position: 1 },
      { offer_id: newOfferId(), position: 100_000 },
    ];
    for (const x of extra) {
      await saveDerivedOffer(h.database.db, from, {
        offer: { ...from.offer, offer_id: x.offer_id } as never,
        supplier_ref: from.supplier_ref,
        position: x.position,
      });
    }
    const results = await routes.getHotelSearchResults!(
      ctx({ params: { search_id: id }, query: { page: 1, page_size: answered.length + 10 } }),
    );
    const page = (results as { body: { items: Offer[]; total: number } }).body;
    expect(page.total).toBe(answered.length);
    expect(page.items.map((o) => o.offer_id).sort()).toEqual([...answered].sort());
    const b = await routes.getHotelBatchResults!(ctx({ params: { search_id: id }, query: { timeout: 30 } }));
    const batch = (b as { body: { results_by_provider: Record<string, Offer[]>; total_offers: number } })
      .body;
    expect(batch.total_offers).toBe(answered.length);
    const inBatch = Object.values(batch.results_by_provider)
      .flat()
      .map((o) => o.offer_id);
    for (const x of extra) expect(inBatch).not.toContain(x.offer_id);
    expect(await collect(await routes.streamHotelOffers!(ctx({ params: { search_id: id } })))).toEqual(full);
  });
});
