/**
 * Search and book a hotel: stream offers as they arrive, check the rate, book (idempotent, 502-aware).
 * Run: `node examples/hotel.ts` (see env.ts). TRAVEL_LAST_NAME=PENDING exercises the pending path.
 */
import { clientFromEnv, inDays } from './env.ts';

const travel = await clientFromEnv();
const me = await travel.auth.me();

const search = await travel.hotels.search({
  destination: 'DXB',
  check_in: inDays(30),
  check_out: inDays(33),
  rooms: [{ adults: 2 }],
  company_code: me.company_code ?? '',
  user_code: me.user_code ?? '',
});
console.log('search', search.searchId);

let first: Awaited<ReturnType<typeof search.offers>>[number] | undefined;
for await (const event of search.stream()) {
  if (event.event === 'hotel_offer') {
    first ??= event.data.offer;
    console.log('offer', event.data.offer.hotel.name, event.data.offer.price.total_minor);
  }
  if (event.event === 'done') console.log('done:', event.data.status);
}
if (!first) throw new Error('no offers');

const rate = await travel.hotels.checkRate({ rate_key: first.rate_key, provider: first.supplier });
console.log('rate available:', rate.available);

const booked = await travel.hotels.book({
  rate_key: first.rate_key,
  provider: first.supplier,
  // One guest per person in the searched occupancy (2 adults in room 1).
  guests: [
    { room: 1, type: 'AD', first_name: 'Ada', last_name: process.env.TRAVEL_LAST_NAME ?? 'Lovelace' },
    { room: 1, type: 'AD', first_name: 'Charles', last_name: 'Babbage' },
  ],
  contact_email: 'ada@example.com',
  contact_phone: '+442071234567',
});
console.log('hotel booking', booked.outcome, booked.booking_id, 'key', booked.idempotencyKey);
