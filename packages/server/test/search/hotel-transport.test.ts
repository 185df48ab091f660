/** Hotel and transfer searches through the same engine, in every consumption mode. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchRoutes } from '../../src/domains/search/routes.ts';
import { type HandlerTable, handlerTable } from '../../src/kernel/types.ts';
import { collect, ctx, futureDate, type Harness, harness } from './harness.ts';

let h: Harness;
let routes: HandlerTable;
beforeAll(async () => {
  h = await harness();
  routes = handlerTable(searchRoutes(h.search));
});
afterAll(() => h.close());

type Init = {
  search_id: string;
  status: string;
  stream_url: string;
  stream_by_provider_url: string;
  batch_url: string;
  results_url: string;
};

describe('hotel search', () => {
  const body = () => ({
    destination: 'PMI',
    check_in: futureDate(40),
    check_out: futureDate(43),
    rooms: [{ adults: 2, children: 0, child_ages: [] }],
    currency: 'EUR',
    company_code: 'AGY',
    user_code: 'u1@agency.test',
  });

  it('says which city a name was read as, with the other cities of that name; a qualifier picks one', async () => {
    const search = async (destination: string) => {
      const r = await routes.searchHotels!(ctx({ body: { ...body(), destination } }));
      return (r as { body: { destination: unknown } }).body.destination;
    };
    expect(await search('London')).toMatchObject({
      kind: 'city',
      name: 'London',
      country: 'GB',
      code: null,
      alternatives: expect.arrayContaining([expect.objectContaining({ name: 'London', country: 'CA' })]),
    });
    expect(await search('London, CA')).toMatchObject({ country: 'CA', region: 'Ontario' });
    expect(await search('LON')).toMatchObject({ kind: 'city_code', code: 'LON', country: 'GB' });
    expect(await search('bombay')).toMatchObject({ name: 'Mumbai', country: 'IN' });
    await expect(
      routes.searchHotels!(ctx({ body: { ...body(), destination: 'London, FR' } })),
    ).rejects.toMatchObject({
      status: 422,
      code: 'unknown_location',
      issues: [expect.objectContaining({ loc: ['body', 'destination'] })],
    });
  });

  it('answers 202 with the three URLs, then streams hotel_offer, status_update and done', async () => {
    const r = await routes.searchHotels!(ctx({ body: body() }));
    expect(r.status).toBe(202);
    const init = (r as { body: Init }).body;
    expect(init.status).toBe('initiated');
    expect(init.stream_url).toBe(`/api/v1/hotel/search/stream/${init.search_id}`);
    expect(init.batch_url).toBe(`/api/v1/hotel/search/batch/${init.search_id}`);
    const msgs = await collect(
      await routes.streamHotelOffers!(ctx({ params: { search_id: init.search_id } })),
    );
    const kinds = new Set(msgs.map((m) => m.event));
    expect(kinds).toEqual(new Set(['hotel_offer', 'status_update', 'done']));
    expect(msgs.at(-2)).toMatchObject({ event: 'status_update', data: { status: 'completed' } });
    const suppliers = new Set(
      msgs
        .filter((m) => m.event === 'hotel_offer')
        .map((m) => (m.data as { offer: { supplier: string } }).offer.supplier),
    );
    expect(suppliers).toEqual(new Set(['hotelbeds', 'duffel_stays']));

    const groups = await collect(
      await routes.streamHotelOffersByProvider!(ctx({ params: { search_id: init.search_id } })),
    );
    expect(
      groups
        .filter((m) => m.event === 'provider_results')
        .map((m) => (m.data as { provider: string }).provider)
        .sort(),
    ).toEqual(['duffel_stays', 'hotelbeds']);

    const batch = (await routes.getHotelBatchResults!(
      ctx({ params: { search_id: init.search_id }, query: { timeout: 30 } }),
    )) as { status: number; body: Record<string, any> };
    expect(batch.status).toBe(200);
    expect(batch.body).toMatchObject({
      completed_provider_count: 2,
      total_provider_count: 2,
      timed_out: false,
    });

    const page = (await routes.getHotelSearchResults!(
      ctx({
        params: { search_id: init.search_id },
        query: { page: 1, page_size: 5, min_stars: 4, sort_by: 'price_desc' },
      }),
    )) as {
      body: {
        items: { hotel: { star_rating: number }; price: { total_minor: number } }[];
        total: number;
        status: string;
      };
    };
    expect(page.body.status).toBe('completed');
    expect(page.body.items.length).toBeLessThanOrEqual(5);
    expect(page.body.items.every((o) => o.hotel.star_rating >= 4)).toBe(true);
    const totals = page.body.items.map((o) => o.price.total_minor);
    expect(totals).toEqual([...totals].sort((a, b) => b - a));
  });

  it('rejects check_out before check_in', async () => {
    await expect(
      routes.searchHotels!(ctx({ body: { ...body(), check_out: body().check_in } })),
    ).rejects.toMatchObject({ status: 400, code: 'invalid_date' });
  });
});

describe('transport search', () => {
  const body = () => ({
    pickup_location: 'PMI',
    dropoff_location: '39.5696,2.6502',
    pickup_datetime: `${futureDate(30)}T14:30:00`,
    passengers: 2,
    luggage: 2,
    currency: 'EUR',
  });

  it('streams transport_offer then done; grouped, batch and filtered results agree', async () => {
    const r = await routes.searchTransport!(ctx({ body: body() }));
    expect(r.status).toBe(202);
    const id = (r as { body: Init }).body.search_id;
    const msgs = await collect(await routes.streamTransportOffers!(ctx({ params: { search_id: id } })));
    expect(new Set(msgs.map((m) => m.event))).toEqual(new Set(['transport_offer', 'done']));
    const offers = msgs
      .filter((m) => m.event === 'transport_offer')
      .map((m) => (m.data as { offer: { transfer_type: string; vehicle: { category: string } } }).offer);
    expect(offers.length).toBeGreaterThan(0);
    const groups = await collect(
      await routes.streamTransportOffersByProvider!(ctx({ params: { search_id: id } })),
    );
    expect(groups.filter((m) => m.event === 'provider_results').length).toBe(
      h.search.suppliers.names().transfer.length,
    );
    const batch = (await routes.getTransportBatchResults!(
      ctx({ params: { search_id: id }, query: { timeout: 30 } }),
    )) as { status: number; body: Record<string, any> };
    expect(batch.status).toBe(200);
    expect(batch.body.total_offers).toBe(offers.length);
    const type = offers[0]!.transfer_type;
    const cat = offers[0]!.vehicle.category;
    const page = (await routes.getTransportSearchResults!(
      ctx({
        params: { search_id: id },
        query: { transfer_type: type, vehicle_category: cat, page: 1, page_size: 100 },
      }),
    )) as { body: { items: { transfer_type: string; vehicle: { category: string } }[]; total: number } };
    expect(page.body.total).toBe(
      offers.filter((o) => o.transfer_type === type && o.vehicle.category === cat).length,
    );
    expect(page.body.items.every((o) => o.transfer_type === type && o.vehicle.category === cat)).toBe(true);
  });
});
