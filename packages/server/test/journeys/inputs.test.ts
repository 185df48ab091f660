/**
 * Issue 18, inputs a careful integrator sends (through the whole server): RFC 3339 pickup times with
 * `Z` or an offset, converted to the pickup point's local time before the transfer suppliers see them;
 * unknown airport, city and transfer-point codes refused at search (422 `unknown_location` naming the
 * field) before any supplier is asked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { futureDate, type Journeys, journeys } from './world.ts';

let w: Journeys;
let agent: { id: string; token: string };
let companyCode: string;

beforeAll(async () => {
  w = await journeys();
  const c = await w.company();
  companyCode = c.code;
  agent = await w.user('company_staff', c.id);
}, 60_000);
afterAll(async () => {
  await w?.close();
  expect(w?.violations ?? []).toEqual([]);
});

const day = futureDate(50);

async function transferOffers(body: Record<string, unknown>) {
  const start = await w.req('POST', '/api/v1/transport/search', { token: agent.token, body });
  expect(start.status, JSON.stringify(start.body)).toBe(202);
  const batch = await w.req<{ results_by_provider: Record<string, { pickup: { datetime: string } }[]> }>(
    'GET',
    `/api/v1/transport/search/batch/${start.body.search_id}?timeout=30`,
    { token: agent.token },
  );
  expect(batch.status).toBe(200);
  return Object.values(batch.body.results_by_provider).flat();
}

describe('transfer pickup times (spec convention 3)', () => {
  const base = {
    pickup_location: 'DXB',
    dropoff_location: 'Atlantis The Palm, Dubai',
    passengers: 2,
    currency: 'AED',
  };

  it('takes `Z` and converts it to Dubai local time (UTC+4) before the suppliers see it', async () => {
    const offers = await transferOffers({ ...base, pickup_datetime: `${day}T10:00:00Z` });
    expect(offers.length).toBeGreaterThan(0);
    for (const o of offers) expect(o.pickup.datetime.slice(0, 19)).toBe(`${day}T14:00:00`);
  });

  it('takes an offset (+01:00 is 13:00 in Dubai) and a local time as it is', async () => {
    const zoned = await transferOffers({ ...base, pickup_datetime: `${day}T09:00+01:00` });
    expect(zoned.length).toBeGreaterThan(0);
    for (const o of zoned) expect(o.pickup.datetime.slice(0, 19)).toBe(`${day}T12:00:00`);
    const local = await transferOffers({ ...base, pickup_datetime: `${day}T14:30` });
    expect(local.length).toBeGreaterThan(0);
    for (const o of local) expect(o.pickup.datetime.slice(0, 19)).toBe(`${day}T14:30:00`);
  });

  it('uses the nearest airport’s zone for coordinates (Palma: UTC+1 in winter)', async () => {
    const offers = await transferOffers({
      pickup_location: '39.5696,2.6502',
      dropoff_location: 'PMI',
      pickup_datetime: `2026-12-20T09:15:00Z`,
      passengers: 1,
      currency: 'EUR',
    });
    expect(offers.length).toBeGreaterThan(0);
    for (const o of offers) expect(o.pickup.datetime.slice(0, 19)).toBe('2026-12-20T10:15:00');
  });

  it('refuses a zoned time when neither point has a known zone, and a zoned time in the past', async () => {
    const before = w.served();
    const free = await w.req('POST', '/api/v1/transport/search', {
      token: agent.token,
      body: {
        pickup_location: 'Burj Al Arab, Dubai',
        dropoff_location: 'Dubai Mall',
        pickup_datetime: `${day}T10:00:00Z`,
      },
    });
    expect(free.status).toBe(422);
    expect(free.body.detail[0].loc).toEqual(['body', 'pickup_datetime']);
    const past = await w.req('POST', '/api/v1/transport/search', {
      token: agent.token,
      body: { ...base, pickup_datetime: new Date(w.clock.now().getTime() - 3_600_000).toISOString() },
    });
    expect(past.status).toBe(400);
    expect(past.body.code).toBe('invalid_date');
    expect(w.served()).toEqual(before);
  });
});

describe('unknown locations (422 unknown_location, nothing searched)', () => {
  const flight = (legs: { origin: string; destination: string }[]) => ({
    companyCode,
    userCode: agent.id,
    journeyType: legs.length === 1 ? 'OneWay' : 'MultiCity',
    searchAirLegs: legs.map((l, i) => ({ ...l, departureDate: futureDate(30 + i) })),
  });

  it('a flight leg names the unknown code by leg and side', async () => {
    const before = w.served();
    const r = await w.req('POST', '/api/v1/flight/getFare', {
      token: agent.token,
      body: flight([
        { origin: 'LHR', destination: 'DXB' },
        { origin: 'XXX', destination: 'LHR' },
      ]),
    });
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('unknown_location');
    expect(r.body.detail).toEqual([
      {
        loc: ['body', 'searchAirLegs', 1, 'origin'],
        msg: expect.stringContaining('XXX'),
        type: 'unknown_location',
      },
    ]);
    expect(w.served()).toEqual(before);
  });

  it('large airports newer than the OpenFlights snapshot (Doha DOH, Berlin BER) are known places', async () => {
    for (const [origin, destination] of [
      ['LHR', 'DOH'],
      ['BER', 'DXB'],
    ] as const) {
      const r = await w.req('POST', '/api/v1/flight/getFare', {
        token: agent.token,
        body: flight([{ origin, destination }]),
      });
      expect(r.status, JSON.stringify(r.body)).toBe(202);
      const done = await w.req('GET', `/api/v1/flight/getFare/batch/${r.body.searchId}?timeout=30`, {
        token: agent.token,
      });
      expect(done.status).toBe(200);
    }
  });

  it('known airport and city codes (LON, NYC) still search', async () => {
    const r = await w.req('POST', '/api/v1/flight/getFare', {
      token: agent.token,
      body: flight([{ origin: 'LON', destination: 'JFK' }]),
    });
    expect(r.status).toBe(202);
    // Finished before the next test counts supplier requests.
    const done = await w.req('GET', `/api/v1/flight/getFare/batch/${r.body.searchId}?timeout=30`, {
      token: agent.token,
    });
    expect(done.status).toBe(200);
    expect(done.body.total_offers).toBeGreaterThan(0);
  });

  it('hotel destinations: unknown code, unknown city and off-globe coordinates', async () => {
    const before = w.served();
    for (const destination of ['QQX', 'Atlantis-under-the-sea', '123.5,10']) {
      const r = await w.req('POST', '/api/v1/hotel/search', {
        token: agent.token,
        body: {
          destination,
          check_in: futureDate(40),
          check_out: futureDate(42),
          company_code: companyCode,
          user_code: agent.id,
        },
      });
      expect(r.status, destination).toBe(422);
      expect(r.body.code).toBe('unknown_location');
      expect(r.body.detail[0].loc).toEqual(['body', 'destination']);
    }
    expect(w.served()).toEqual(before);
    for (const destination of ['Paris', 'DXB', 'LON', 'Majorca', 'Dubai Marina, Dubai', '25.2,55.27']) {
      const r = await w.req('POST', '/api/v1/hotel/search', {
        token: agent.token,
        body: {
          destination,
          check_in: futureDate(40),
          check_out: futureDate(42),
          company_code: companyCode,
          user_code: agent.id,
        },
      });
      expect(r.status, destination).toBe(202);
      const done = await w.req('GET', `/api/v1/hotel/search/batch/${r.body.search_id}?timeout=30`, {
        token: agent.token,
      });
      expect(done.status).toBe(200);
    }
  });

  it('transfer points: an unknown code on either side is named', async () => {
    const before = w.served();
    const r = await w.req('POST', '/api/v1/transport/search', {
      token: agent.token,
      body: { pickup_location: 'QQX', dropoff_location: '91,0', pickup_datetime: `${day}T10:00` },
    });
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('unknown_location');
    expect(r.body.detail.map((d: { loc: unknown[] }) => d.loc)).toEqual([
      ['body', 'pickup_location'],
      ['body', 'dropoff_location'],
    ]);
    expect(w.served()).toEqual(before);
  });
});

describe('hotel guests: names are enough', () => {
  async function rate(rooms: { adults: number; children: number; child_ages: number[] }[]) {
    const r = await w.req('POST', '/api/v1/hotel/search', {
      token: agent.token,
      body: {
        destination: 'DXB',
        check_in: futureDate(61),
        check_out: futureDate(63),
        rooms,
        currency: 'AED',
        company_code: companyCode,
        user_code: agent.id,
      },
    });
    expect(r.status).toBe(202);
    const b = await w.req('GET', `/api/v1/hotel/search/batch/${r.body.search_id}?timeout=30`, {
      token: agent.token,
    });
    // biome-ignore lint/suspicious/noExplicitAny: offers are read as JSON
    const offers = (b.body.results_by_provider.hotelbeds ?? []) as any[];
    const offer = offers.find((o) => o.rate_type === 'BOOKABLE' && o.price.currency === 'AED');
    expect(offer).toBeDefined();
    return offer;
  }
  const book = (offer: { rate_key: string; supplier: string }, guests: unknown[]) =>
    w.req('POST', '/api/v1/hotel/book', {
      token: agent.token,
      key: `hg-${Math.random()}`,
      body: {
        rate_key: offer.rate_key,
        provider: offer.supplier,
        guests,
        contact_email: 'ada@example.com',
        contact_phone: '+447700900123',
      },
    });

  it('one room of adults: room 1 and type AD filled in', async () => {
    const offer = await rate([{ adults: 2, children: 0, child_ages: [] }]);
    const r = await book(offer, [
      { first_name: 'Ada', last_name: 'Lovelace' },
      { first_name: 'Alan', last_name: 'Turing' },
    ]);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.guests).toEqual([
      { first_name: 'Ada', last_name: 'Lovelace', room: 1, type: 'AD' },
      { first_name: 'Alan', last_name: 'Turing', room: 1, type: 'AD' },
    ]);
  });

  it('an age under 18 makes a child', async () => {
    const offer = await rate([{ adults: 1, children: 1, child_ages: [8] }]);
    const r = await book(offer, [
      { first_name: 'Ada', last_name: 'Lovelace' },
      { first_name: 'Byron', last_name: 'Lovelace', age: 8 },
    ]);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.guests[1]).toMatchObject({ room: 1, type: 'CH', age: 8 });
  });

  it('two rooms: a guest without a room is a 422 naming it', async () => {
    const offer = await rate([
      { adults: 1, children: 0, child_ages: [] },
      { adults: 1, children: 0, child_ages: [] },
    ]);
    expect(offer.rooms).toBe(2);
    const r = await book(offer, [
      { first_name: 'Ada', last_name: 'Lovelace', room: 1 },
      { first_name: 'Alan', last_name: 'Turing' },
    ]);
    expect(r.status).toBe(422);
    expect(r.body.detail).toEqual([
      { loc: ['body', 'guests', 1, 'room'], msg: expect.stringContaining('2 rooms'), type: 'missing' },
    ]);
  });
});
