import { wholeUnits } from '../../shared/money.ts';
import { carriersServing, type Flight, journey } from '../../shared/network.ts';
import { hashString, type Rng, rngFor } from '../../shared/random.ts';
import { utcOfLocal } from '../../shared/world.ts';
import { CARRIERS, type CarrierData, carrier as carrierData } from './data.ts';
import { iso, minor, money } from './http.ts';
import type { DuffelState, OfferRecord, ServiceDef, Wire } from './state.ts';
import { HOLD_TTL_MS, OFFER_TTL_MS } from './triggers.ts';
import { distanceKm, isoDuration, stableId, wireAircraft, wireAirline, wireAirport } from './wire-places.ts';

/**
 * Offer generation. The content of an offer (carriers, times, fares) is a pure function of the seed and
 * the search, so the same search returns the same flights; ids come from the instance's counter.
 */

export interface SliceRequest {
  origin: string;
  destination: string;
  departure_date: string;
}

export interface PassengerRequest {
  id: string;
  type: 'adult' | 'child' | 'infant_without_seat';
  age: number | null;
}

const CABIN_FACTOR: Record<string, number> = { economy: 1, premium_economy: 1.7, business: 3.6, first: 6 };
const CABIN_NAME: Record<string, string> = {
  economy: 'Economy',
  premium_economy: 'Premium Economy',
  business: 'Business',
  first: 'First',
};

export interface Brand {
  name: string;
  factor: number;
  checked: number;
  refund: { allowed: boolean; penalty: number };
  change: { allowed: boolean; penalty: number };
}

export function brandsFor(c: CarrierData, cabin: string): Brand[] {
  if (c.lcc) {
    return [
      {
        name: 'Basic',
        factor: 1,
        checked: 0,
        refund: { allowed: false, penalty: 0 },
        change: { allowed: true, penalty: 4500 },
      },
    ];
  }
  const label = CABIN_NAME[cabin] ?? 'Economy';
  return [
    {
      name: `${label} Light`,
      factor: 1,
      checked: 0,
      refund: { allowed: false, penalty: 0 },
      change: { allowed: false, penalty: 0 },
    },
    {
      name: `${label} Standard`,
      factor: 1.25,
      checked: 1,
      refund: { allowed: true, penalty: 7500 },
      change: { allowed: true, penalty: 5000 },
    },
    {
      name: `${label} Flex`,
      factor: 1.7,
      checked: 2,
      refund: { allowed: true, penalty: 0 },
      change: { allowed: true, penalty: 0 },
    },
  ];
}

function passengerShare(p: PassengerRequest): number {
  if (p.type === 'infant_without_seat') return 0.1;
  if (p.type === 'child') return 0.75;
  return 1;
}

/**
 * One slice on the carrier's timetable (`shared/network.ts`): `variant` picks its routing and departure.
 * Undefined when the carrier does not fly the route. Times are local to each airport, as Duffel sends them.
 */
export function buildSlice(
  rng: Rng,
  c: CarrierData,
  s: SliceRequest,
  cabin: string,
  brand: Brand,
  pax: PassengerRequest[],
  variant: number,
) {
  const flights = journey(c.iata, s.origin, s.destination, s.departure_date, variant);
  if (!flights) return undefined;
  const segments = flights.map((f) => {
    const minutes = f.minutes;
    const legDist = f.km;
    const dep = f.departureLocal;
    const arr = f.arrivalLocal;
    const flight = f.flightNumber;
    const rbd = rng.pick(
      cabin === 'economy'
        ? ['Y', 'B', 'M', 'K', 'Q']
        : cabin === 'business'
          ? ['J', 'C', 'D']
          : ['W', 'P', 'F'],
    );
    return {
      id: stableId('seg', `${rng.next()}`),
      aircraft: wireAircraft(legDist, hashString(`${c.iata}${flight}`)),
      origin: wireAirport(f.from),
      destination: wireAirport(f.to),
      origin_terminal: String(rng.int(1, 5)),
      destination_terminal: String(rng.int(1, 5)),
      departing_at: dep,
      arriving_at: arr,
      duration: isoDuration(minutes),
      distance: String(legDist),
      marketing_carrier: wireAirline(c),
      marketing_carrier_flight_number: flight,
      operating_carrier: wireAirline(c),
      operating_carrier_flight_number: flight,
      stops: [],
      passengers: pax.map((p) => ({
        passenger_id: p.id,
        cabin_class: cabin,
        cabin_class_marketing_name: CABIN_NAME[cabin] ?? 'Economy',
        fare_basis_code: `${rbd}${c.lcc ? 'LCC' : 'OWGB'}${brand.checked}`,
        baggages: [
          { type: 'carry_on', quantity: 1 },
          ...(brand.checked > 0 && p.type !== 'infant_without_seat'
            ? [{ type: 'checked', quantity: brand.checked }]
            : []),
        ],
        cabin: null,
      })),
    };
  });
  const first = segments[0] as (typeof segments)[number];
  const total = Math.round(
    ((flights[flights.length - 1] as Flight).arrivalUtc - (flights[0] as Flight).departureUtc) / 60_000,
  );
  return {
    id: stableId('sli', `${rng.next()}`),
    origin_type: 'airport',
    destination_type: 'airport',
    origin: wireAirport(s.origin),
    destination: wireAirport(s.destination),
    duration: isoDuration(total),
    fare_brand_name: brand.name,
    segments,
    conditions: {
      change_before_departure: brand.change.allowed
        ? { allowed: true, penalty_amount: null, penalty_currency: null }
        : { allowed: false, penalty_amount: null, penalty_currency: null },
      priority_seating: null,
      priority_check_in: null,
      advance_seat_selection: null,
    },
    comparison_key: stableId('cmp', `${s.origin}${s.destination}${first.departing_at}`),
    ngs_shelf: null,
  };
}

/** Minutes after midnight of a `YYYY-MM-DDTHH:MM:SS` local time. */
const minutesOfDay = (local: string): number =>
  Number(local.slice(11, 13)) * 60 + Number(local.slice(14, 16));

/** Generates and stores the offers for one offer request. */
export function generateOffers(
  state: DuffelState,
  requestId: string,
  slices: SliceRequest[],
  pax: PassengerRequest[],
  cabin: string,
  maxConnections: number,
): Wire[] {
  const key = JSON.stringify({ slices, pax: pax.map((p) => [p.type, p.age]), cabin });
  const rng = rngFor(state.seed, 'duffel-offers', key);
  const longest = Math.max(...slices.map((s) => distanceKm(s.origin, s.destination)));
  // Airlines that plausibly fly every slice (hub / home-country / alliance-hub rules); LCCs sell economy only.
  const serving = new Set(
    carriersServing(
      CARRIERS.map((c) => c.iata),
      slices.map((s) => ({ from: s.origin, to: s.destination })),
    ),
  );
  const eligible = CARRIERS.filter((c) => serving.has(c.iata) && !(c.lcc && cabin !== 'economy'));
  const count = rng.int(7, 12);
  const now = state.now();
  const offers: Wire[] = [];
  const perCarrier = new Map<string, number>();
  for (let i = 0; i < count; i++) {
    // Duffel Airways first so every search has full-service, hold-able content.
    const c = i === 0 || eligible.length === 0 ? carrierData('ZZ') : rng.pick(eligible);
    const variant = perCarrier.get(c.iata) ?? 0;
    perCarrier.set(c.iata, variant + 1);
    const brand = rng.pick(brandsFor(c, cabin));
    const built = slices.map((s) => buildSlice(rng, c, s, cabin, brand, pax, variant));
    if (built.some((s) => s === undefined)) continue;
    const offerSlices = built as NonNullable<(typeof built)[number]>[];
    if (offerSlices.some((s) => s.segments.length - 1 > maxConnections)) continue;
    const perPax = slices.reduce(
      (sum, s) => sum + (3500 + distanceKm(s.origin, s.destination) * 7) * (CABIN_FACTOR[cabin] ?? 1),
      0,
    );
    const variance = 0.85 + rng.next() * 0.45;
    const baseMinor = Math.round(
      pax.reduce((sum, p) => sum + perPax * brand.factor * variance * passengerShare(p), 0) *
        (c.lcc ? 0.45 : 1),
    );
    const taxMinor = Math.round(baseMinor * (c.lcc ? 0.12 : 0.18 + rng.next() * 0.08));
    const cur = state.currency;
    // `departing_at` is local to the origin airport: the hold ends 24 h before the real departure instant.
    const dep = offerSlices[0]?.segments[0];
    const firstDeparture = dep
      ? utcOfLocal(dep.departing_at.slice(0, 10), minutesOfDay(dep.departing_at), dep.origin.time_zone)
      : now;
    const holdDeadline = Math.min(now + HOLD_TTL_MS, firstDeparture - 24 * 3600_000);
    const offer: Wire = {
      id: state.nextId('off'),
      live_mode: false,
      created_at: iso(now),
      updated_at: iso(now),
      expires_at: iso(now + OFFER_TTL_MS),
      owner: wireAirline(c),
      slices: offerSlices,
      passengers: pax.map((p) => ({
        id: p.id,
        type: p.type === 'adult' ? 'adult' : null,
        age: p.age,
        fare_type: null,
        loyalty_programme_accounts: [],
      })),
      base_amount: money(baseMinor, cur),
      base_currency: cur,
      tax_amount: money(taxMinor, cur),
      tax_currency: cur,
      total_amount: money(baseMinor + taxMinor, cur),
      total_currency: cur,
      total_emissions_kg: String(Math.round(longest * 0.09 * pax.length)),
      conditions: {
        refund_before_departure: {
          allowed: brand.refund.allowed,
          penalty_amount: brand.refund.allowed ? money(brand.refund.penalty, cur) : null,
          penalty_currency: brand.refund.allowed ? cur : null,
        },
        change_before_departure: {
          allowed: brand.change.allowed,
          penalty_amount: brand.change.allowed ? money(brand.change.penalty, cur) : null,
          penalty_currency: brand.change.allowed ? cur : null,
        },
      },
      payment_requirements: c.lcc
        ? { requires_instant_payment: true, payment_required_by: null, price_guarantee_expires_at: null }
        : {
            requires_instant_payment: false,
            payment_required_by: iso(holdDeadline),
            price_guarantee_expires_at: iso(Math.min(holdDeadline, now + 24 * 3600_000)),
          },
      passenger_identity_documents_required: longest > 3500,
      supported_passenger_identity_document_types: ['passport'],
      supported_loyalty_programmes: [],
      private_fares: [],
      partial: false,
      available_services: [],
    };
    const record: OfferRecord = { offer, requestId, driftMinor: 0, services: [], carrier: c.iata };
    record.services = c.services ? bagServices(state, offer, pax, c, rng) : [];
    for (const svc of record.services) state.services.set(svc.id, svc);
    state.offers.set(offer.id, record);
    offers.push(offer);
  }
  return offers;
}

function bagServices(
  state: DuffelState,
  offer: Wire,
  pax: PassengerRequest[],
  c: CarrierData,
  rng: Rng,
): ServiceDef[] {
  const out: ServiceDef[] = [];
  for (const slice of offer.slices as Wire[]) {
    for (const p of pax) {
      if (p.type === 'infant_without_seat') continue;
      out.push({
        id: state.nextId('ase'),
        type: 'baggage',
        offerId: offer.id,
        passengerIds: [p.id],
        segmentIds: (slice.segments as Wire[]).map((s) => s.id as string),
        amountMinor: wholeUnits(c.lcc ? rng.int(20, 35) : rng.int(25, 45), String(offer.total_currency)),
        maxQuantity: c.lcc ? 1 : 2,
        metadata: {
          type: 'checked',
          maximum_weight_kg: c.lcc ? 20 : 23,
          maximum_height_cm: null,
          maximum_length_cm: null,
          maximum_depth_cm: null,
        },
      });
    }
  }
  return out;
}

/** The offer as `GET /air/offers/{id}` shows it: drifted price, services only when asked for. */
export function offerView(_state: DuffelState, rec: OfferRecord, withServices: boolean): Wire {
  const o = rec.offer;
  const cur = o.total_currency as string;
  const total = minor(o.total_amount, cur) + rec.driftMinor;
  const tax = minor(o.tax_amount, cur);
  return {
    ...o,
    total_amount: money(total, cur),
    base_amount: money(total - tax, cur),
    available_services: withServices
      ? rec.services.map((s) => ({
          id: s.id,
          type: s.type,
          passenger_ids: s.passengerIds,
          segment_ids: s.segmentIds,
          maximum_quantity: s.maxQuantity,
          total_amount: money(s.amountMinor, cur),
          total_currency: cur,
          metadata: s.metadata,
        }))
      : [],
  };
}
