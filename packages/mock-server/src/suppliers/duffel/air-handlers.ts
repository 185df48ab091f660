import type { makeRouter } from './http.ts';
import { DuffelHttpError, dataResponse, invalid, notFound, paginate, readData } from './http.ts';
import { generateOffers, offerView, type PassengerRequest, type SliceRequest } from './offers.ts';
import { seatMapsForOffer } from './seatmaps.ts';
import type { DuffelState, OfferRecord, Wire } from './state.ts';

/** Shopping: offer requests, offers, seat maps. */

const CABINS = ['economy', 'premium_economy', 'business', 'first'];

export function offerExpired(state: DuffelState, rec: OfferRecord): boolean {
  return state.now() >= Date.parse(rec.offer.expires_at as string);
}

export const offerExpiredError = (): DuffelHttpError =>
  new DuffelHttpError(
    422,
    'invalid_state_error',
    'offer_expired',
    'Offer expired',
    'The offer has expired; create a new offer request to get fresh offers',
  );

function parseSlices(raw: unknown): SliceRequest[] {
  if (!Array.isArray(raw) || raw.length === 0) throw invalid('slices', 'At least one slice is required');
  return raw.map((s: Wire, i) => {
    for (const f of ['origin', 'destination', 'departure_date']) {
      if (typeof s?.[f] !== 'string' || !s[f])
        throw invalid(`slices.${i}.${f}`, `slices[${i}].${f} is required`);
    }
    if (!/^[A-Z]{3}$/.test(s.origin) || !/^[A-Z]{3}$/.test(s.destination)) {
      throw invalid(`slices.${i}.origin`, 'origin and destination must be IATA codes');
    }
    if (!/^\d{4}-\d{2}-\d{2}$/.test(s.departure_date)) {
      throw invalid(`slices.${i}.departure_date`, 'departure_date must be an ISO 8601 date');
    }
    return { origin: s.origin, destination: s.destination, departure_date: s.departure_date };
  });
}

function parsePassengers(state: DuffelState, raw: unknown): PassengerRequest[] {
  if (!Array.isArray(raw) || raw.length === 0)
    throw invalid('passengers', 'At least one passenger is required');
  return raw.map((p: Wire, i) => {
    if (p?.type === 'adult') return { id: state.nextId('pas'), type: 'adult', age: null };
    if (typeof p?.age !== 'number')
      throw invalid(`passengers.${i}.age`, 'A passenger needs a type of adult or an age');
    const type = p.age < 2 ? 'infant_without_seat' : p.age < 12 ? 'child' : 'adult';
    return { id: state.nextId('pas'), type, age: p.age };
  });
}

export function airRoutes(state: DuffelState, r: ReturnType<typeof makeRouter>) {
  return [
    ...r.post('/air/offer_requests', async ({ request, url }) => {
      const data = await readData(request);
      const slices = parseSlices(data.slices);
      const pax = parsePassengers(state, data.passengers);
      const cabin = (data.cabin_class as string | undefined) ?? 'economy';
      if (!CABINS.includes(cabin))
        throw invalid('cabin_class', `cabin_class must be one of ${CABINS.join(', ')}`);
      const maxConnections = typeof data.max_connections === 'number' ? data.max_connections : 1;
      const id = state.nextId('orq');
      const offers = generateOffers(state, id, slices, pax, cabin, maxConnections);
      const now = new Date(state.now()).toISOString();
      const offerRequest: Wire = {
        id,
        live_mode: false,
        created_at: now,
        cabin_class: cabin,
        slices: slices.map((s) => ({ ...s, origin_type: 'airport', destination_type: 'airport' })),
        passengers: pax.map((p) => ({
          id: p.id,
          type: p.type === 'adult' ? 'adult' : undefined,
          age: p.age ?? undefined,
        })),
        offers,
      };
      state.offerRequests.set(id, offerRequest);
      const returnOffers = url.searchParams.get('return_offers') !== 'false';
      return dataResponse(state, returnOffers ? offerRequest : { ...offerRequest, offers: [] }, 201);
    }),
    ...r.get('/air/offer_requests/:id', ({ params }) => {
      const req = state.offerRequests.get(params.id as string);
      if (!req) throw notFound('offer request');
      return dataResponse(state, req);
    }),
    ...r.get('/air/offers', ({ url }) => {
      const reqId = url.searchParams.get('offer_request_id');
      if (!reqId) throw invalid('offer_request_id', 'offer_request_id is required');
      const req = state.offerRequests.get(reqId);
      if (!req) throw notFound('offer request');
      const maxConn = url.searchParams.get('max_connections');
      let offers = (req.offers as Wire[]).map((o) =>
        offerView(state, state.offers.get(o.id) as OfferRecord, false),
      );
      if (maxConn !== null) {
        offers = offers.filter((o) =>
          (o.slices as Wire[]).every((s) => (s.segments as Wire[]).length - 1 <= Number(maxConn)),
        );
      }
      if (url.searchParams.get('sort') === 'total_amount') {
        offers.sort((a, b) => Number(a.total_amount) - Number(b.total_amount));
      }
      return paginate(state, offers, url);
    }),
    ...r.get('/air/offers/:id', ({ params, url }) => {
      const rec = state.offers.get(params.id as string);
      if (!rec) throw notFound('offer');
      if (offerExpired(state, rec)) throw offerExpiredError();
      return dataResponse(
        state,
        offerView(state, rec, url.searchParams.get('return_available_services') === 'true'),
      );
    }),
    ...r.get('/air/seat_maps', ({ url }) => {
      const offerId = url.searchParams.get('offer_id');
      if (!offerId) throw invalid('offer_id', 'offer_id is required');
      const rec = state.offers.get(offerId);
      if (!rec) throw notFound('offer');
      return dataResponse(state, seatMapsForOffer(state, rec));
    }),
  ];
}
