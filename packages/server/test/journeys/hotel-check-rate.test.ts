/**
 * Issue 33: every key the API hands out for a hotel rate books. For each hotel provider, through the whole
 * server: search, check-rate, then book with the check-rate's key; and book with the search's key after a
 * check-rate was made. Each key books once (a booking each), in the currency the search showed.
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

// biome-ignore lint/suspicious/noExplicitAny: offers are read as JSON
type Offer = any;

async function searchOffers(provider: string, nth: number): Promise<Offer[]> {
  const r = await w.req('POST', '/api/v1/hotel/search', {
    token: agent.token,
    body: {
      destination: 'DXB',
      check_in: futureDate(70 + nth),
      check_out: futureDate(72 + nth),
      rooms: [{ adults: 2, children: 0, child_ages: [] }],
      currency: 'GBP',
      company_code: companyCode,
      user_code: agent.id,
    },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(202);
  const b = await w.req('GET', `/api/v1/hotel/search/batch/${r.body.search_id}?timeout=30`, {
    token: agent.token,
  });
  const offers = (b.body.results_by_provider[provider] ?? []) as Offer[];
  expect(offers.length, `${provider} offers`).toBeGreaterThan(0);
  return offers;
}

const checkRate = (provider: string, rateKey: string) =>
  w.req('POST', '/api/v1/hotel/check-rate', { token: agent.token, body: { rate_key: rateKey, provider } });

const book = (provider: string, rateKey: string) =>
  w.req('POST', '/api/v1/hotel/book', {
    token: agent.token,
    key: `hcr-${Math.random()}`,
    body: {
      rate_key: rateKey,
      provider,
      guests: [
        { first_name: 'Ada', last_name: 'Lovelace' },
        { first_name: 'Alan', last_name: 'Turing' },
      ],
      contact_email: 'ada@example.com',
      contact_phone: '+447700900123',
    },
  });

describe.each(['hotelbeds', 'duffel_stays'])('search -> check-rate -> book: %s', (provider) => {
  it("books with the check-rate's key, in the currency the search showed", async () => {
    const [offer] = await searchOffers(provider, provider === 'hotelbeds' ? 0 : 1);
    const check = await checkRate(provider, offer.rate_key);
    expect(check.status, JSON.stringify(check.body)).toBe(200);
    expect(check.body.available).toBe(true);
    expect(check.body.offer.price.currency).toBe('GBP');
    expect(check.body.offer.offer_id).toBe(offer.offer_id);
    const booked = await book(provider, check.body.offer.rate_key);
    expect(booked.status, JSON.stringify(booked.body)).toBe(200);
    expect(booked.body).toMatchObject({ provider, status: 'confirmed' });
    expect(booked.body.total).toEqual({
      currency: 'GBP',
      amount_minor: check.body.offer.price.total_minor,
    });
  });

  it("books with the search's key after a check-rate", async () => {
    const [offer] = await searchOffers(provider, provider === 'hotelbeds' ? 2 : 3);
    const check = await checkRate(provider, offer.rate_key);
    expect(check.status, JSON.stringify(check.body)).toBe(200);
    const booked = await book(provider, offer.rate_key);
    expect(booked.status, JSON.stringify(booked.body)).toBe(200);
    expect(booked.body.total.currency).toBe('GBP');
  });

  it('a check-rate key checks again and books once per key', async () => {
    const [offer] = await searchOffers(provider, provider === 'hotelbeds' ? 4 : 5);
    const first = await checkRate(provider, offer.rate_key);
    const second = await checkRate(provider, first.body.offer.rate_key);
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(second.body.offer.price.currency).toBe('GBP');
    expect(second.body.price_changed).toBe(false);
    const booked = await book(provider, second.body.offer.rate_key);
    expect(booked.status, JSON.stringify(booked.body)).toBe(200);
  });
});
