import type { makeRouter } from './http.ts';
import {
  ambiguousAfterCreate,
  dataResponse,
  invalid,
  invalidState,
  iso,
  minor,
  money,
  notFound,
  paginate,
  readData,
} from './http.ts';
import type { DuffelState, Wire } from './state.ts';
import { nights, searchResultView, searchStays } from './stays-data.ts';
import { familyNameTrigger, QUOTE_TTL_MS } from './triggers.ts';

/** Duffel Stays: search, all rates, quotes, bookings, cancellation. */

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function parseSearch(data: Wire) {
  for (const f of ['check_in_date', 'check_out_date']) {
    if (typeof data[f] !== 'string' || !DATE.test(data[f])) throw invalid(f, `${f} must be an ISO 8601 date`);
  }
  if (nights(data.check_in_date, data.check_out_date) < 1) {
    throw invalid('check_out_date', 'check_out_date must be after check_in_date');
  }
  if (!Number.isInteger(data.rooms) || data.rooms < 1) throw invalid('rooms', 'rooms must be at least 1');
  if (!Array.isArray(data.guests) || data.guests.length === 0) throw invalid('guests', 'guests is required');
  const coords = data.location?.geographic_coordinates;
  if (typeof coords?.latitude !== 'number' || typeof coords?.longitude !== 'number') {
    throw invalid('location.geographic_coordinates', 'location.geographic_coordinates is required');
  }
  return {
    lat: coords.latitude as number,
    lon: coords.longitude as number,
    radiusKm: Number(data.location.radius ?? 5),
    checkIn: data.check_in_date as string,
    checkOut: data.check_out_date as string,
    rooms: data.rooms as number,
    guests: data.guests as Wire[],
  };
}

function bookingBody(state: DuffelState, quote: Wire, data: Wire): Wire {
  const now = iso(state.now());
  return {
    id: state.nextId('bok'),
    reference: state.nextId('ref').slice(-8).toUpperCase(),
    status: 'confirmed',
    confirmed_at: now,
    cancelled_at: null,
    check_in_date: quote.check_in_date,
    check_out_date: quote.check_out_date,
    accommodation: quote.accommodation,
    rooms: quote.rooms,
    guests: (data.guests as Wire[]).map((g) => ({ given_name: g.given_name, family_name: g.family_name })),
    email: data.email,
    phone_number: data.phone_number,
    accommodation_special_requests: data.accommodation_special_requests ?? null,
    metadata: data.metadata ?? null,
    key_collection: null,
    supported_loyalty_programme: null,
    loyalty_programme_account_number: null,
    estimated_commission_amount: null,
    estimated_commission_currency: null,
    quote_id: quote.id,
  };
}

export function staysRoutes(state: DuffelState, r: ReturnType<typeof makeRouter>) {
  return [
    ...r.post('/stays/search', async ({ request }) => {
      const q = parseSearch(await readData(request));
      const results = searchStays(state, q).map((x) => searchResultView(x, false));
      return dataResponse(state, { results, created_at: iso(state.now()) });
    }),
    ...r.post('/stays/search_results/:id/actions/fetch_all_rates', ({ params }) => {
      const result = state.staysSearchResults.get(params.id as string);
      if (!result) throw notFound('search result');
      if (state.now() > Date.parse(result.expires_at)) {
        throw invalidState(
          'search_result_expired',
          'Search result expired',
          'Search again to get fresh rates',
        );
      }
      return dataResponse(state, searchResultView(result, true));
    }),
    ...r.post('/stays/quotes', async ({ request }) => {
      const data = await readData(request);
      if (typeof data.rate_id !== 'string') throw invalid('rate_id', 'rate_id is required');
      const rec = state.staysRates.get(data.rate_id);
      if (!rec) throw notFound('rate');
      if (state.now() > Date.parse(rec.rate.expires_at)) {
        throw invalidState('rate_expired', 'Rate expired', 'The rate has expired; search again');
      }
      if (rec.rate.quantity_available === 0) {
        throw invalidState('rate_unavailable', 'Rate unavailable', 'The rate is no longer available');
      }
      const result = state.staysSearchResults.get(rec.searchResultId) as Wire;
      const cur = rec.rate.total_currency as string;
      const total = minor(rec.rate.total_amount, cur) + rec.driftMinor;
      const rate: Wire = { ...rec.rate, total_amount: money(total, cur) };
      const now = state.now();
      const quote: Wire = {
        id: state.nextId('quo'),
        check_in_date: result.check_in_date,
        check_out_date: result.check_out_date,
        rooms: result.rooms,
        guests: result.guests,
        accommodation: {
          ...rec.accommodation,
          rooms: [{ name: rec.roomName, beds: [], photos: [], rates: [rate] }],
        },
        total_amount: rate.total_amount,
        total_currency: cur,
        base_amount: money(total - minor(rate.tax_amount, cur), cur),
        base_currency: cur,
        tax_amount: rate.tax_amount,
        tax_currency: cur,
        fee_amount: '0.00',
        fee_currency: cur,
        due_at_accommodation_amount: null,
        due_at_accommodation_currency: cur,
        deposit_amount: null,
        deposit_currency: cur,
        supported_loyalty_programme: null,
        expires_at: iso(now + QUOTE_TTL_MS),
        _rateId: rec.rate.id,
      };
      state.staysQuotes.set(quote.id, quote);
      const { _rateId, ...wire } = quote;
      return dataResponse(state, wire, 201);
    }),
    ...r.get('/stays/quotes/:id', ({ params }) => {
      const quote = state.staysQuotes.get(params.id as string);
      if (!quote) throw notFound('quote');
      if (state.now() > Date.parse(quote.expires_at)) {
        throw invalidState('quote_expired', 'Quote expired', 'The quote has expired; create a new quote');
      }
      if (quote._booked)
        throw invalidState('quote_already_booked', 'Quote already booked', 'This quote has been booked');
      const { _rateId, _booked, ...wire } = quote;
      return dataResponse(state, wire);
    }),
    ...r.post('/stays/bookings', async ({ request }) => {
      const data = await readData(request);
      const quote = state.staysQuotes.get(String(data.quote_id));
      if (!quote) throw notFound('quote');
      if (!Array.isArray(data.guests) || data.guests.length === 0)
        throw invalid('guests', 'guests is required');
      data.guests.forEach((g: Wire, i: number) => {
        if (!g?.given_name || !g?.family_name)
          throw invalid(`guests.${i}`, 'given_name and family_name are required');
      });
      if (typeof data.email !== 'string' || !data.email.includes('@'))
        throw invalid('email', 'email is required');
      if (typeof data.phone_number !== 'string') throw invalid('phone_number', 'phone_number is required');
      if (state.now() > Date.parse(quote.expires_at)) {
        throw invalidState('quote_expired', 'Quote expired', 'The quote has expired; create a new quote');
      }
      if (quote._booked)
        throw invalidState('quote_already_booked', 'Quote already booked', 'This quote has been booked');
      const trigger = familyNameTrigger(data.guests);
      const rate = state.staysRates.get(quote._rateId as string);
      if (trigger === 'SOLDOUT' || rate?.rate.quantity_available === 0) {
        if (rate) rate.rate.quantity_available = 0;
        throw invalidState('rate_unavailable', 'Rate unavailable', 'The rate is no longer available');
      }
      if (trigger === 'REJECT') {
        throw invalidState(
          'booking_rejected',
          'Booking rejected',
          'The accommodation was unable to confirm the booking',
        );
      }
      quote._booked = true;
      if (rate) rate.rate.quantity_available = Math.max(0, (rate.rate.quantity_available as number) - 1);
      const booking = bookingBody(state, quote, data);
      state.staysBookings.set(booking.id, booking);
      const created = (): Response => dataResponse(state, booking, 201);
      if (trigger === 'PENDING' || trigger === 'TIMEOUT')
        return ambiguousAfterCreate(state, trigger, request, created);
      return created();
    }),
    ...r.get('/stays/bookings', ({ url }) => {
      let all = [...state.staysBookings.values()];
      // Emulator extension: `metadata[key]=value` filters on booking metadata (see README).
      for (const [k, v] of url.searchParams) {
        const m = /^metadata\[(.+)\]$/.exec(k);
        if (m) all = all.filter((b) => b.metadata?.[m[1] as string] === v);
      }
      return paginate(state, all, url);
    }),
    ...r.get('/stays/bookings/:id', ({ params }) => {
      const b = state.staysBookings.get(params.id as string);
      if (!b) throw notFound('booking');
      return dataResponse(state, b);
    }),
    ...r.post('/stays/bookings/:id/actions/cancel', ({ params }) => {
      const b = state.staysBookings.get(params.id as string);
      if (!b) throw notFound('booking');
      if (b.status === 'cancelled')
        throw invalidState('already_cancelled', 'Already cancelled', 'The booking is cancelled');
      b.status = 'cancelled';
      b.cancelled_at = iso(state.now());
      return dataResponse(state, b);
    }),
  ];
}
