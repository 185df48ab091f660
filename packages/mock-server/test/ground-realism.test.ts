/**
 * Hotel and transfer content matches the place searched (issue #18): hotels sit in the searched city with
 * a street of its country, nightly prices follow the star rating and the local price level, and transfers
 * drive the real distance between their ends, priced by distance and vehicle.
 */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haversineKm, streetsOf } from '../src/shared/destinations.ts';
import { place } from '../src/shared/world.ts';
import { amadeusHandlers } from '../src/suppliers/amadeus/handlers.ts';
import { duffelHandlers } from '../src/suppliers/duffel/index.ts';
import { signature } from '../src/suppliers/hotelbeds/auth.ts';
import { hotelbedsHandlers } from '../src/suppliers/hotelbeds/index.ts';
import { hotelbedsTransfersHandlers } from '../src/suppliers/hotelbeds-transfers/index.ts';

const HB = 'https://hotelbeds.ground.test';
const HBT = 'https://transfers.ground.test';
const DUFFEL = 'https://duffel.ground.test';
const AMADEUS = 'https://amadeus.ground.test';
const server = setupServer(
  ...hotelbedsHandlers({ baseUrl: HB, latencyMs: 0, seed: 3 }).handlers,
  ...hotelbedsTransfersHandlers({ baseUrl: HBT, latencyMs: 0, seed: 3 }).handlers,
  ...duffelHandlers({ baseUrl: DUFFEL, latencyMs: 0, seed: 3 }).handlers,
  ...amadeusHandlers({ baseUrl: AMADEUS, latencyMs: 0, seed: 3 }).handlers,
);
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterAll(() => server.close());

type Body = Record<string, any>;

const hbHeaders = (): Record<string, string> => ({
  'Api-key': 'hb_test_api_key',
  'X-Signature': signature('hb_test_api_key', 'hb_test_secret', Math.floor(Date.now() / 1000)),
  Accept: 'application/json',
  'Content-Type': 'application/json',
});

async function hotels(where: Body, checkIn = '2026-12-20', checkOut = '2026-12-23'): Promise<Body[]> {
  const res = await fetch(`${HB}/hotel-api/1.0/hotels`, {
    method: 'POST',
    headers: hbHeaders(),
    body: JSON.stringify({
      stay: { checkIn, checkOut },
      occupancies: [{ rooms: 1, adults: 2, children: 0 }],
      ...where,
    }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as Body).hotels.hotels as Body[];
}

/** Cheapest room-only net per night (EUR) of a hotel. */
const nightly = (h: Body, nights = 3): number =>
  Math.min(
    ...(h.rooms as Body[]).flatMap((r) =>
      (r.rates as Body[]).filter((x) => x.boardCode === 'RO').map((x) => Number(x.net) / nights),
    ),
  );
const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
const starsOf = (h: Body): number => Number(String(h.categoryCode).slice(0, 1));

describe('hotels are in the searched city', () => {
  it('Hotelbeds: a destination outside its own table (FCO) is Rome, Italy, on Italian streets, near the city', async () => {
    const list = await hotels({ destination: { code: 'FCO' } });
    expect(list.length).toBeGreaterThan(5);
    const fco = place('FCO');
    for (const h of list) {
      expect(h.destinationName).toBe('Rome');
      expect(h.countryCode).toBe('IT');
      expect(h.name).toContain('Rome');
      expect(streetsOf('IT').some((s) => String(h.address).endsWith(s))).toBe(true);
      expect(haversineKm(fco, { lat: Number(h.latitude), lon: Number(h.longitude) })).toBeLessThan(10);
    }
  });

  it('Hotelbeds: London hotels are on British streets (no Sheikh Zayed Road in London)', async () => {
    for (const h of await hotels({ destination: { code: 'LON' } })) {
      expect(h.countryCode).toBe('GB');
      expect(streetsOf('GB').some((s) => String(h.address).endsWith(s))).toBe(true);
      expect(String(h.address)).not.toMatch(/Sheikh Zayed|Gulshan|Avenida/);
    }
  });

  it('Hotelbeds: a geolocation search is named by the nearest city, and its rateKey rebuilds the same hotel', async () => {
    const list = await hotels({ geolocation: { latitude: 41.9, longitude: 12.49, radius: 20, unit: 'km' } });
    expect(list.length).toBeGreaterThan(0);
    for (const h of list) expect([h.destinationName, h.countryCode]).toEqual(['Rome', 'IT']);
    const first = list[0] as Body;
    const rateKey = first.rooms[0].rates[0].rateKey as string;
    const res = await fetch(`${HB}/hotel-api/1.0/checkrates`, {
      method: 'POST',
      headers: hbHeaders(),
      body: JSON.stringify({ rooms: [{ rateKey }] }),
    });
    const checked = ((await res.json()) as Body).hotel;
    expect([checked.name, checked.destinationName, checked.latitude]).toEqual([
      first.name,
      'Rome',
      first.latitude,
    ]);
  });

  it('Hotelbeds: nightly prices rise with the stars and with the local price level, within plausible bands', async () => {
    const byStars = async (code: string) => {
      const out = new Map<number, number[]>();
      for (const date of ['2026-12-20', '2027-01-10', '2027-02-14']) {
        const checkOut = new Date(Date.parse(date) + 3 * 86_400_000).toISOString().slice(0, 10);
        for (const h of await hotels({ destination: { code } }, date, checkOut)) {
          const n = nightly(h);
          // A room-night in EUR: never a hostel price for a 5-star, never a palace price for a 2-star.
          expect(n).toBeGreaterThanOrEqual(25);
          expect(n).toBeLessThanOrEqual(700);
          out.set(starsOf(h), [...(out.get(starsOf(h)) ?? []), n]);
        }
      }
      return out;
    };
    const london = await byStars('LON');
    const dhaka = await byStars('DAC');
    for (const city of [london, dhaka]) {
      const stars = [...city.keys()].sort();
      for (let i = 1; i < stars.length; i++) {
        expect(mean(city.get(stars[i] as number) ?? [])).toBeGreaterThan(
          mean(city.get(stars[i - 1] as number) ?? []),
        );
      }
    }
    const all = (m: Map<number, number[]>) => [...m.values()].flat();
    expect(mean(all(london))).toBeGreaterThan(mean(all(dhaka)) * 1.8);
    // The supplier's market currency, as before: EUR.
    expect((await hotels({ destination: { code: 'DXB' } }))[0]?.currency).toBe('EUR');
  });

  it('Duffel Stays: coordinates in Rome (not in its own city list) give Rome, IT, Italian streets, prices by stars', async () => {
    const res = await fetch(`${DUFFEL}/stays/search`, {
      method: 'POST',
      headers: {
        Authorization: 'Bearer duffel_test_ground',
        'Duffel-Version': 'v2',
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({
        data: {
          location: { radius: 5, geographic_coordinates: { latitude: 41.9, longitude: 12.49 } },
          check_in_date: '2026-12-20',
          check_out_date: '2026-12-22',
          rooms: 1,
          guests: [{ type: 'adult' }, { type: 'adult' }],
        },
      }),
    });
    const results = ((await res.json()) as Body).data.results as Body[];
    expect(results.length).toBeGreaterThan(3);
    const perStar = new Map<number, number[]>();
    for (const r of results) {
      const a = r.accommodation.location.address;
      expect([a.city_name, a.country_code]).toEqual(['Rome', 'IT']);
      expect(streetsOf('IT').some((s) => String(a.line_one).endsWith(s))).toBe(true);
      expect(r.cheapest_rate_currency).toBe('GBP');
      const perNight = Number(r.cheapest_rate_total_amount) / 2;
      expect(perNight).toBeGreaterThan(25);
      expect(perNight).toBeLessThan(600);
      const s = r.accommodation.rating as number;
      perStar.set(s, [...(perStar.get(s) ?? []), perNight]);
    }
    const stars = [...perStar.keys()].sort();
    expect(mean(perStar.get(stars.at(-1) as number) ?? [])).toBeGreaterThan(
      mean(perStar.get(stars[0] as number) ?? []),
    );
  });
});

async function hbTransfers(from: string, to: string, fromType = 'IATA', toType = 'GPS', pax = 2) {
  const res = await fetch(
    `${HBT}/transfer-api/1.0/availability/en/from/${fromType}/${encodeURIComponent(from)}/to/${toType}/${encodeURIComponent(to)}/2026-12-20T10:00:00/${pax}/0/0`,
    { headers: hbHeaders() },
  );
  expect(res.status).toBe(200);
  return ((await res.json()) as Body).services as Body[];
}
const priceOf = (services: Body[], vehicle: string, category = 'STND'): number =>
  Number(services.find((s) => s.vehicle.code === vehicle && s.category.code === category)?.price.totalAmount);

describe('transfers drive the real distance, priced by distance and vehicle', () => {
  it('Hotelbeds Transfers: Heathrow to central London is about 30 road km and 50-80 minutes', async () => {
    const services = await hbTransfers('LHR', '51.5074,-0.1278');
    const straight = haversineKm(place('LHR'), { lat: 51.5074, lon: -0.1278 });
    for (const s of services) {
      expect(s.distanceKm).toBeGreaterThan(straight);
      expect(s.distanceKm).toBeLessThan(straight * 1.5);
      const minutes = s.content.customerTransferTimeInfo[0].value as number;
      expect(minutes).toBeGreaterThanOrEqual(40);
      expect(minutes).toBeLessThanOrEqual(90);
      expect(s.pickupInformation.from.description).toBe(place('LHR').name);
      expect(s.pickupInformation.to.description).toContain('London');
    }
    // Vehicles: premium car and minibus dearer than a standard car; a shared seat far cheaper.
    const car = priceOf(services, 'CR');
    expect(priceOf(services, 'CR', 'PRM')).toBeGreaterThan(car);
    const group = await hbTransfers('LHR', '51.5074,-0.1278', 'IATA', 'GPS', 5);
    expect(priceOf(group, 'MNB')).toBeGreaterThan(priceOf(group, 'MNV'));
    expect(priceOf(services, 'MNV')).toBeGreaterThan(car);
    expect(priceOf(services, 'BS') / 2).toBeLessThan(car / 3);
    // A standard car into London: 60-140 EUR, not 20, not 400.
    expect(car).toBeGreaterThan(60);
    expect(car).toBeLessThan(140);
  });

  it('Hotelbeds Transfers: farther costs more, and the same drive costs less where prices are lower', async () => {
    const london = priceOf(await hbTransfers('LHR', '51.5074,-0.1278'), 'CR');
    const oxford = priceOf(await hbTransfers('LHR', '51.752,-1.258'), 'CR');
    expect(oxford).toBeGreaterThan(london);
    // Dhaka airport to Gulshan (about 8 km) against Heathrow to Hounslow (about 5 km): London still dearer.
    const dhaka = priceOf(await hbTransfers('DAC', '23.7925,90.4078'), 'CR');
    const hounslow = priceOf(await hbTransfers('LHR', '51.4746,-0.368'), 'CR');
    expect(hounslow).toBeGreaterThan(dhaka);
  });

  it('Amadeus transfers: LHR to a London geo code drives the real distance; a van costs more than a car', async () => {
    const t = await fetch(`${AMADEUS}/v1/security/oauth2/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials&client_id=ground&client_secret=ground',
    });
    const token = ((await t.json()) as Body).access_token as string;
    const res = await fetch(`${AMADEUS}/v1/shopping/transfer-offers`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        startLocationCode: 'LHR',
        endGeoCode: '51.5074,-0.1278',
        endAddressLine: 'Trafalgar Square',
        endCityName: 'London',
        endCountryCode: 'GB',
        startDateTime: '2026-12-20T10:30:00',
        passengers: 2,
        currency: 'GBP',
      }),
    });
    const offers = ((await res.json()) as Body).data as Body[];
    const straight = haversineKm(place('LHR'), { lat: 51.5074, lon: -0.1278 });
    for (const o of offers) {
      expect(o.distance.value).toBeGreaterThan(straight);
      expect(o.distance.value).toBeLessThan(straight * 1.5);
    }
    const price = (code: string, cat: string) =>
      Number(
        offers.find((o) => o.vehicle.code === code && o.vehicle.category === cat)?.quotation.monetaryAmount,
      );
    expect(price('VAN', 'ST')).toBeGreaterThan(price('CAR', 'ST'));
    expect(price('CAR', 'BU')).toBeGreaterThan(price('CAR', 'ST'));
    expect(price('CAR', 'ST')).toBeGreaterThan(50);
    expect(price('CAR', 'ST')).toBeLessThan(140);
  });
});
