/**
 * Search and book a flight: stream offers, revalidate the cheapest, book it (idempotent, 502-aware),
 * authorize with the sandbox token, issue tickets. Run: `node examples/flight.ts` (see env.ts).
 * TRAVEL_LAST_NAME=PENDING exercises the pending-confirmation path.
 */
import { clientFromEnv, inDays } from './env.ts';

const travel = await clientFromEnv();
const me = await travel.auth.me();

const search = await travel.flights.search({
  companyCode: me.company_code ?? '',
  userCode: me.user_code ?? '',
  searchAirLegs: [{ origin: 'LHR', destination: 'DXB', departureDate: inDays(30) }],
  adults: 1,
});
console.log('search', search.searchId);

const offers = await search.offers();
console.log(`${offers.length} offers`);
const cheapest = offers.toSorted((a, b) => a.price.total_minor - b.price.total_minor)[0];
if (!cheapest) throw new Error('no offers');

// Book in the offer's own currency (a sandbox supplier may price in USD).
const currency = cheapest.price.currency;
const check = await travel.bookings.revalidate({ offer_id: cheapest.offer_id, currency });
console.log('revalidated; price changed:', check.price_changed);

const booked = await travel.bookings.create({
  offer_id: cheapest.offer_id,
  currency,
  passengers: [
    {
      type: 'ADT',
      first_name: 'Ada',
      last_name: process.env.TRAVEL_LAST_NAME ?? 'Lovelace',
      gender: 'F',
      date_of_birth: '1985-12-10',
    },
  ],
  contact: { email: 'ada@example.com', phone: '+442071234567' },
});
console.log(
  'booking',
  booked.outcome,
  booked.booking_id,
  'key',
  booked.idempotencyKey,
  'request',
  booked.requestId,
);
if (booked.outcome !== 'confirmed' || !booked.booking) process.exit(booked.outcome === 'pending' ? 0 : 1);

const total = booked.booking.pricing.total_minor;
const auth = await travel.payments.authorize(booked.booking_id, {
  token: 'tok_sandbox_ok',
  currency: booked.booking.pricing.currency,
  amount_minor: total,
});
console.log('authorized', auth.data.state ?? auth.data, 'key', auth.idempotencyKey);

const tickets = await travel.tickets.issue(booked.booking_id, { capture: true });
console.log('ticketed', tickets.data.issued, 'key', tickets.idempotencyKey);
