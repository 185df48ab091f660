/** Request helpers shared by the hotel and transport booking tests. */
import { expect } from 'vitest';
import { expectMatchesContract } from '../helpers/contract.ts';
import { futureDate, idem, type World } from './setup.ts';

export const hotelQuery = (destination = 'LON') => ({
  destination,
  check_in: futureDate(60),
  check_out: futureDate(63),
  rooms: [{ adults: 2, children: 0, child_ages: [] }],
  nationality: 'GB',
  currency: 'GBP' as const,
  max_results: 10,
});

export const transferQuery = (pickup = 'DXB') => ({
  pickup_location: pickup,
  dropoff_location: 'Atlantis The Palm, Dubai',
  pickup_datetime: `${futureDate(60)}T14:30:00`,
  passengers: 2,
  luggage: 2,
  currency: 'GBP' as const,
});

/** A request whose answer is checked against the contract for its operation. */
export async function call(
  w: World,
  op: string,
  method: string,
  path: string,
  o: { token: string; body?: unknown; headers?: Record<string, string> },
) {
  const res = await w.t.request(method, path, o);
  expectMatchesContract(op, res.status, res.body);
  return res;
}

/** A refundable rate of `provider` (the adapter's search stands in for the search engine's routes). */
export async function hotelRate(w: World, provider: string, destination = 'LON') {
  const supplier = w.registry.hotel(provider);
  if (!supplier) throw new Error(`${provider} is not configured`);
  const offers = await supplier.search(hotelQuery(destination));
  const offer = offers.find((o) => o.refundable) ?? offers[0];
  if (!offer) throw new Error(`no ${provider} offers`);
  return offer;
}

export const hotelBook = (rateKey: string, provider: string, lastName = 'Lovelace') => ({
  rate_key: rateKey,
  provider,
  guests: [
    { room: 1, type: 'AD', first_name: 'Ada', last_name: lastName },
    { room: 1, type: 'AD', first_name: 'Alan', last_name: lastName },
  ],
  contact_email: 'ada@example.com',
  contact_phone: '+447700900123',
  client_ref: 'my-ref-1',
});

export async function transferQuote(w: World, provider: string, pickup = 'DXB') {
  const supplier = w.registry.transfer(provider);
  if (!supplier) throw new Error(`${provider} is not configured`);
  const offers = await supplier.search(transferQuery(pickup));
  const offer = offers[0];
  if (!offer) throw new Error(`no ${provider} offers`);
  return offer;
}

export const transportBook = (quoteId: string, provider: string, lastName = 'Lovelace') => ({
  quote_id: quoteId,
  provider,
  passengers: [{ first_name: 'Ada', last_name: lastName }],
  contact: { email: 'ada@example.com', phone: '+447700900123' },
});

export async function bookHotelOk(w: World, token: string, provider: string) {
  const offer = await hotelRate(w, provider);
  const res = await call(w, 'bookHotel', 'POST', '/api/v1/hotel/book', {
    token,
    headers: idem(),
    body: hotelBook(offer.rate_key, provider),
  });
  expect(res.status).toBe(200);
  return res.body as { booking_id: number; status: string };
}

export async function bookTransportOk(w: World, token: string, provider: string) {
  const offer = await transferQuote(w, provider);
  const res = await call(w, 'bookTransport', 'POST', '/api/v1/transport/book', {
    token,
    headers: idem(),
    body: transportBook(offer.quote_id, provider),
  });
  expect(res.status).toBe(200);
  return res.body as { booking_id: number; status: string };
}
