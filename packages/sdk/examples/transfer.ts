/**
 * Search and book a ground transfer: batch-read the results (a timeout is a partial result), quote the
 * cheapest, book it. Run: `node examples/transfer.ts` (see env.ts).
 */
import { clientFromEnv, inDays } from './env.ts';

const travel = await clientFromEnv();

const search = await travel.transfers.search({
  pickup_location: 'DXB',
  dropoff_location: 'Dubai Marina',
  pickup_datetime: `${inDays(30)}T10:00:00`, // local time at the pickup, no offset
  passengers: 2,
});
const offers = await search.offers();
console.log(`${offers.length} transfer offers`);
const cheapest = offers.toSorted((a, b) => a.price.total_minor - b.price.total_minor)[0];
if (!cheapest) throw new Error('no offers');

const quote = await travel.transfers.quote({ quote_id: cheapest.quote_id, provider: cheapest.supplier });
console.log('quote available:', quote.available);

const booked = await travel.transfers.book({
  quote_id: cheapest.quote_id,
  provider: cheapest.supplier,
  passengers: [{ first_name: 'Ada', last_name: process.env.TRAVEL_LAST_NAME ?? 'Lovelace' }],
  contact: { email: 'ada@example.com', phone: '+442071234567' },
});
console.log('transfer booking', booked.outcome, booked.booking_id, 'key', booked.idempotencyKey);
