/**
 * Every hotel and transfer adapter lands a destination in the city a traveller means (issue #33): 90+ city
 * names and IATA city codes from every continent, against the four emulators in-process (msw/node). Hotels:
 * every offer's coordinates within 80 km of the intended city. Transfers: from the city's airport to the
 * city named, the emulator's road distance (great circle x 1.3) stays within 80 km as the crow flies; a
 * wrong city (London, Ontario for London) is thousands of kilometres away.
 */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { amadeusHandlers } from '../../../mock-server/src/suppliers/amadeus/handlers.ts';
import { duffelHandlers } from '../../../mock-server/src/suppliers/duffel/index.ts';
import { hotelbedsHandlers } from '../../../mock-server/src/suppliers/hotelbeds/index.ts';
import { hotelbedsTransfersHandlers } from '../../../mock-server/src/suppliers/hotelbeds-transfers/index.ts';
import { haversineKm } from '../../src/domains/reference/geo.ts';
import { AmadeusTransfersAdapter } from '../../src/suppliers/amadeus-transfers/index.ts';
import { DuffelStaysAdapter } from '../../src/suppliers/duffel-stays/index.ts';
import { HotelbedsAdapter } from '../../src/suppliers/hotelbeds/index.ts';
import { HotelbedsTransfersAdapter } from '../../src/suppliers/hotelbeds-transfers/index.ts';
import type { HotelSearchQuery, HotelSupplier } from '../../src/suppliers/ports/hotel.ts';
import type { TransferSupplier } from '../../src/suppliers/ports/transfer.ts';
import { INTENDED_CITIES } from './cities.ts';

const now = Date.parse('2026-06-01T08:00:00Z');
const clock = () => now;
const hb = { apiKey: 'hb_test_api_key', secret: 'hb_test_secret', now: clock, timeoutMs: 5_000 };
const HB = 'https://api.test.hotelbeds.test';
const HBT = 'https://api.test.hotelbeds-transfers.test';
const DUFFEL = 'https://api.duffel.test';
const AMADEUS = 'http://amadeus.emulator.test';
const server = setupServer(
  ...hotelbedsHandlers({ baseUrl: HB, clock, latencyMs: 0, seed: 7 }).handlers,
  ...hotelbedsTransfersHandlers({ baseUrl: HBT, clock, latencyMs: 0, seed: 7 }).handlers,
  ...duffelHandlers({ baseUrl: DUFFEL, clock, latencyMs: 0, seed: 7 }).handlers,
  ...amadeusHandlers({
    baseUrl: AMADEUS,
    seed: 7,
    latencyMs: 0,
    clock,
    credentials: [{ clientId: 'dest-id', clientSecret: 'dest-secret' }],
  }).handlers,
);
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterAll(() => server.close());

const fetchFn = (i: Parameters<typeof fetch>[0], init?: RequestInit) => globalThis.fetch(i, init);
const hotels: [string, HotelSupplier][] = [
  ['hotelbeds', new HotelbedsAdapter({ ...hb, baseUrl: HB, fetch: fetchFn })],
  [
    'duffel_stays',
    new DuffelStaysAdapter({ token: 'duffel_test_dest', baseUrl: DUFFEL, now: clock, timeoutMs: 5_000 }),
  ],
];
const transfers: [string, TransferSupplier][] = [
  ['hotelbeds_transfers', new HotelbedsTransfersAdapter({ ...hb, baseUrl: HBT, fetch: fetchFn })],
  [
    'amadeus_transfers',
    new AmadeusTransfersAdapter({
      clientId: 'dest-id',
      clientSecret: 'dest-secret',
      baseUrl: AMADEUS,
      timeoutMs: 5_000,
      now: clock,
    }),
  ],
];

const stay = (destination: string): HotelSearchQuery => ({
  destination,
  check_in: '2026-12-20',
  check_out: '2026-12-23',
  rooms: [{ adults: 2, children: 0, child_ages: [] }],
  nationality: 'GB',
  currency: 'EUR',
  max_results: 50,
});

describe('hotel destinations land in the intended city', () => {
  expect(INTENDED_CITIES.length).toBeGreaterThanOrEqual(50);
  for (const [name, adapter] of hotels) {
    it.each(INTENDED_CITIES)(`${name}: $query`, async (city) => {
      const offers = await adapter.search(stay(city.query));
      expect(offers.length).toBeGreaterThan(0);
      const far = offers
        .map((o) => ({
          hotel: o.hotel.name,
          km: haversineKm(city.lat, city.lon, o.hotel.latitude, o.hotel.longitude),
        }))
        .filter((h) => h.km > 80);
      expect(far).toEqual([]);
    });
  }
});

describe('transfer destinations land in the intended city', () => {
  for (const [name, adapter] of transfers) {
    it.each(INTENDED_CITIES)(`${name}: $query`, async (city) => {
      const offers = await adapter.search({
        pickup_location: city.airport,
        dropoff_location: city.query,
        pickup_datetime: '2026-12-20T10:30:00',
        passengers: 2,
        luggage: 2,
        currency: 'EUR',
      });
      expect(offers.length).toBeGreaterThan(0);
      for (const o of offers)
        expect((o.distance_km ?? Number.POSITIVE_INFINITY) / 1.3).toBeLessThanOrEqual(80);
    });
  }
});

describe("the review's two cases", () => {
  it('London and LON are London GB at every hotel supplier, never London, Ontario', async () => {
    for (const [, adapter] of hotels)
      for (const destination of ['London', 'LON']) {
        const offers = await adapter.search(stay(destination));
        expect(offers.length).toBeGreaterThan(0);
        expect(new Set(offers.map((o) => o.hotel.country))).toEqual(new Set(['GB']));
      }
  });

  it('Birmingham is Birmingham GB at every hotel supplier, never Biratnagar (BIR)', async () => {
    for (const [, adapter] of hotels) {
      const offers = await adapter.search(stay('Birmingham'));
      expect(new Set(offers.map((o) => o.hotel.country))).toEqual(new Set(['GB']));
      expect(offers.every((o) => !/biratnagar/i.test(`${o.hotel.name} ${o.hotel.city}`))).toBe(true);
    }
  });

  it('a city name no data knows is refused, not sent as its first three letters', async () => {
    for (const [, adapter] of hotels)
      await expect(adapter.search(stay('Atlantis-under-the-sea'))).rejects.toMatchObject({
        kind: 'invalid_request',
      });
  });
});
