/**
 * Issue 18, what a booking needs is known before it fails (through the whole server): offers and their
 * revalidation carry `booking_requirements`; createPnr answers 422 naming each missing field before it
 * calls the supplier or writes anything; the saved-traveler record is a valid passenger as it is, and
 * `traveler_id` books a saved traveler the caller may use; GET /api/v1/flight/offers/{id} tells a client
 * an offer's currency and requirements; currency_mismatch names the offer's currency.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingDb } from '../../src/domains/flight-booking/tables.ts';
import { futureDate, type Journeys, journeys, key } from './world.ts';

let w: Journeys;
let agency: { id: number; code: string };
let agent: { id: string; email: string; token: string };

// biome-ignore lint/suspicious/noExplicitAny: offers are read as JSON
type Offer = Record<string, any>;

beforeAll(async () => {
  w = await journeys();
  agency = await w.company();
  agent = await w.user('company_staff', agency.id);
}, 60_000);
afterAll(async () => {
  await w?.close();
  expect(w?.violations ?? []).toEqual([]);
});

/** Offers of one supplier from a real search (LHR-DXB: over 3,500 km, Duffel wants documents). */
async function search(
  caller: { id: string; token: string },
  companyCode: string,
  supplier: string,
  currency: string,
): Promise<Offer[]> {
  const r = await w.req('POST', '/api/v1/flight/getFare', {
    token: caller.token,
    body: {
      companyCode,
      userCode: caller.id,
      currency,
      sources: [supplier],
      searchAirLegs: [{ origin: 'LHR', destination: 'DXB', departureDate: futureDate(45) }],
    },
  });
  expect(r.status, JSON.stringify(r.body)).toBe(202);
  const b = await w.req('GET', `/api/v1/flight/getFare/batch/${r.body.searchId}?timeout=30`, {
    token: caller.token,
  });
  expect(b.status).toBe(200);
  return b.body.results_by_gds[supplier] as Offer[];
}

const holdable = (offers: Offer[]) =>
  offers.find((o) => !o.lcc && o.validating_carrier !== 'W6') ?? (offers[0] as Offer);

const contact = { email: 'ayesha@example.test', phone: '+447700900123' };
const savedRecord = {
  first_name: 'Ayesha',
  last_name: 'Rahman',
  date_of_birth: '1990-04-02',
  gender: 'F',
  nationality: 'GB',
  doc_type: 'passport',
  doc_number: 'A1234567',
  doc_expiry: '2033-01-01',
  doc_issuing_country: 'GB',
};

const bookingRows = async () =>
  Number(
    (
      await bookingDb(w.database.db)
        .selectFrom('flight_bookings')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('a Duffel offer that requires identity documents', () => {
  let offer: Offer;
  beforeAll(async () => {
    offer = holdable(await search(agent, agency.code, 'duffel', 'GBP'));
  });

  it('says so in the offer, in its revalidation and in GET /flight/offers/{id}', async () => {
    expect(offer.booking_requirements).toEqual({
      passengers: [
        {
          passenger_type: 'ADT',
          identity_document: true,
          document_types: ['passport'],
          date_of_birth: true,
          nationality: false,
          phone: false,
        },
      ],
    });
    const re = await w.req('POST', '/api/v1/bookings/revalidation', {
      token: agent.token,
      body: { offer_id: offer.offer_id, currency: offer.price.currency },
    });
    expect(re.status).toBe(200);
    expect(re.body.offer.booking_requirements).toEqual(offer.booking_requirements);
    const got = await w.req('GET', `/api/v1/flight/offers/${offer.offer_id}`, { token: agent.token });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({
      offer_id: offer.offer_id,
      price: { currency: offer.price.currency, total_minor: offer.price.total_minor },
      booking_requirements: offer.booking_requirements,
    });
  });

  it('without a document: 422 naming the field, no supplier request, no booking row', async () => {
    const before = w.served();
    const rows = await bookingRows();
    const r = await w.req('POST', '/api/v1/bookings/createPnr', {
      token: agent.token,
      key: key(),
      body: {
        offer_id: offer.offer_id,
        currency: offer.price.currency,
        passengers: [{ first_name: 'Ayesha', last_name: 'Rahman', gender: 'F', date_of_birth: '1990-04-02' }],
        contact,
      },
    });
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('passenger_details_required');
    expect(r.body.detail).toEqual([
      {
        loc: ['body', 'passengers', 0, 'document'],
        msg: expect.stringContaining('passport'),
        type: 'missing',
      },
    ]);
    expect(w.served().duffel).toBe(before.duffel);
    expect(await bookingRows()).toBe(rows);
  });

  it('a partial flat document names each missing doc_* field', async () => {
    const r = await w.req('POST', '/api/v1/bookings/createPnr', {
      token: agent.token,
      key: key(),
      body: {
        offer_id: offer.offer_id,
        currency: offer.price.currency,
        passengers: [{ ...savedRecord, doc_expiry: null, doc_issuing_country: undefined }],
        contact,
      },
    });
    expect(r.status).toBe(422);
    expect(r.body.detail.map((d: { loc: unknown[] }) => d.loc)).toEqual([
      ['body', 'passengers', 0, 'doc_expiry'],
      ['body', 'passengers', 0, 'doc_issuing_country'],
      ['body', 'passengers', 0, 'document'],
    ]);
  });

  it('with the saved-traveler record as it is (flat doc_* fields, no type): books', async () => {
    const r = await w.req('POST', '/api/v1/bookings/createPnr', {
      token: agent.token,
      key: key(),
      body: {
        offer_id: offer.offer_id,
        currency: offer.price.currency,
        passengers: [savedRecord],
        contact,
      },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.pnr).toMatch(/^[A-Z0-9]{6}$/);
    expect(r.body.passengers[0]).toMatchObject({
      passenger_id: '1',
      type: 'ADT',
      document: { type: 'passport', number: 'A1234567', expiry: '2033-01-01', issuing_country: 'GB' },
    });
    expect(r.body.passengers[0]).not.toHaveProperty('doc_number');
  });

  it('currency_mismatch names the offer currency in offer_currency', async () => {
    const r = await w.req('POST', '/api/v1/bookings/createPnr', {
      token: agent.token,
      key: key(),
      body: { offer_id: offer.offer_id, currency: 'USD', passengers: [savedRecord], contact },
    });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'currency_mismatch', offer_currency: offer.price.currency });
    const re = await w.req('POST', '/api/v1/bookings/revalidation', {
      token: agent.token,
      body: { offer_id: offer.offer_id, currency: 'USD' },
    });
    expect(re.body).toMatchObject({ code: 'currency_mismatch', offer_currency: offer.price.currency });
  });
});

describe('GET /api/v1/flight/offers/{offer_id} is caller-scoped', () => {
  it('another company’s staff and a customer get 404, as for a missing offer', async () => {
    const offer = holdable(await search(agent, agency.code, 'amadeus', 'EUR'));
    const other = await w.company();
    const stranger = await w.user('company_staff', other.id);
    const customer = await w.user('customer', agency.id);
    for (const who of [stranger, customer]) {
      const r = await w.req('GET', `/api/v1/flight/offers/${offer.offer_id}`, { token: who.token });
      expect(r.status).toBe(404);
      expect(r.body.code).toBe('offer_not_found');
    }
    const missing = await w.req('GET', '/api/v1/flight/offers/of_doesnotexist', { token: agent.token });
    expect(missing.status).toBe(404);
    const colleague = await w.user('company_admin', agency.id);
    const mine = await w.req('GET', `/api/v1/flight/offers/${offer.offer_id}`, { token: colleague.token });
    expect(mine.status).toBe(200);
    expect(mine.body.price.currency).toBe('EUR');
  });
});

describe('traveler_id books a saved traveler without retyping', () => {
  let customer: { id: string; email: string; token: string };
  let travelerId: number;
  beforeAll(async () => {
    customer = await w.user('customer', agency.id);
    const t = await w.req('POST', '/api/v1/customer/travelers', {
      token: customer.token,
      body: { ...savedRecord, first_name: 'Zara', nickname: 'me' },
    });
    expect(t.status).toBe(201);
    travelerId = t.body.traveler_id;
  });

  const book = async (caller: { token: string }, offer: Offer, passenger: Record<string, unknown>) =>
    w.req('POST', '/api/v1/bookings/createPnr', {
      token: caller.token,
      key: key(),
      body: { offer_id: offer.offer_id, currency: offer.price.currency, passengers: [passenger], contact },
    });

  it('the customer books their own traveler by id alone', async () => {
    const offer = holdable(await search(customer, agency.code, 'amadeus', 'EUR'));
    const r = await book(customer, offer, { traveler_id: travelerId });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.passengers[0]).toMatchObject({
      traveler_id: travelerId,
      first_name: 'Zara',
      last_name: 'Rahman',
      date_of_birth: '1990-04-02',
      gender: 'F',
      document: { number: 'A1234567' },
    });
  });

  it('staff book a client’s traveler; fields sent win over the stored ones', async () => {
    const client = await w.req('POST', '/api/v1/company/clients', {
      token: (await w.user('company_admin', agency.id)).token,
      body: { email: customer.email.toUpperCase(), full_name: 'Zara Rahman' },
    });
    expect(client.status).toBe(201);
    const offer = holdable(await search(agent, agency.code, 'amadeus', 'EUR'));
    const r = await book(agent, offer, { traveler_id: travelerId, first_name: 'Zarah' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.passengers[0]).toMatchObject({ traveler_id: travelerId, first_name: 'Zarah' });
  });

  it('another company’s staff, or another customer, get 404 traveler_not_found before anything happens', async () => {
    const other = await w.company();
    const stranger = await w.user('company_staff', other.id);
    const otherCustomer = await w.user('customer', agency.id);
    for (const who of [stranger, otherCustomer]) {
      const code = who === stranger ? other.code : agency.code;
      const offer = holdable(await search(who, code, 'amadeus', 'EUR'));
      const before = w.served().amadeus;
      const rows = await bookingRows();
      const r = await book(who, offer, { traveler_id: travelerId });
      expect(r.status).toBe(404);
      expect(r.body.code).toBe('traveler_not_found');
      expect(w.served().amadeus).toBe(before);
      expect(await bookingRows()).toBe(rows);
    }
  });

  it('without traveler_id, each missing name field is a 422 with its loc', async () => {
    const offer = holdable(await search(agent, agency.code, 'amadeus', 'EUR'));
    const r = await book(agent, offer, { first_name: 'Ayesha', date_of_birth: '1990-04-02' });
    expect(r.status).toBe(422);
    expect(r.body.detail.map((d: { loc: unknown[] }) => d.loc)).toEqual([
      ['body', 'passengers', 0, 'last_name'],
      ['body', 'passengers', 0, 'gender'],
    ]);
  });
});
