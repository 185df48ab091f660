import { carriersServing, type Flight, journey } from '../../shared/network.ts';
import { rngFor } from '../../shared/random.ts';
import { place } from '../../shared/world.ts';
import {
  AIRCRAFT,
  AIRPORT_CITY,
  type AmadeusCabin,
  BRANDS,
  type Brand,
  brandByCode,
  CABIN_CLASSES,
  CABIN_FACTOR,
  CARRIERS,
  CURRENCY_NAMES,
  EUR_RATE,
} from './reference.ts';
import { asArray, asObject, isoDuration, money, str, type Wire } from './wire.ts';

/**
 * Deterministic flight-offer generation. An offer's fare is a pure function of (seed, its segments, cabin,
 * brand, traveler types), so pricing and booking can recompute the "true" price of any offer a client
 * sends back and detect drift, just as the GDS re-prices at every step.
 */

export type TravelerType = 'ADULT' | 'CHILD' | 'HELD_INFANT';
export interface SearchInput {
  legs: { origin: string; destination: string; date: string }[];
  travelers: { id: string; type: TravelerType; associatedAdultId?: string }[];
  cabin: AmadeusCabin;
  currency: string;
  carriers?: string[];
  nonStop?: boolean;
  max: number;
  now: number;
}

/** One segment as the timetable gives it (`shared/network.ts`); the wire carries local times. */
interface SegmentDraft {
  flight: Flight;
  aircraft: string;
}

function segmentWire(s: SegmentDraft, id: string): Wire {
  const f = s.flight;
  return {
    // Amadeus writes `at` as the airport's local date-time, without offset.
    departure: { iataCode: f.from, at: f.departureLocal },
    arrival: { iataCode: f.to, at: f.arrivalLocal },
    carrierCode: f.carrier,
    number: f.flightNumber,
    aircraft: { code: s.aircraft },
    operating: { carrierCode: f.carrier },
    duration: isoDuration(f.minutes),
    id,
    numberOfStops: 0,
    blacklistedInEU: false,
  };
}

function aircraftFor(seed: number | undefined, f: Flight): string {
  const rng = rngFor(seed, 'aircraft', f.carrier, f.flightNumber);
  if (f.km > 4_500) return rng.pick(['77W', '388', '359', '789', '333']);
  if (f.km > 2_500) return rng.pick(['789', '333', '321']);
  return rng.pick(['320', '321', '738']);
}

function legDrafts(
  seed: number | undefined,
  leg: SearchInput['legs'][number],
  carrier: string,
  variant: number,
  nonStop: boolean,
): SegmentDraft[] | undefined {
  const flights = journey(carrier, leg.origin, leg.destination, leg.date, variant, nonStop);
  return flights?.map((flight) => ({ flight, aircraft: aircraftFor(seed, flight) }));
}

/** The itinerary signature the fare is keyed on (carrier, flight and date of every segment). */
export function offerKey(offer: Wire): string {
  return asArray(offer.itineraries)
    .flatMap((it) => asArray(it.segments))
    .map((s) => `${s.carrierCode}${s.number}@${String(asObject(s.departure)?.at ?? '')}`)
    .join('|');
}

const TYPE_FACTOR: Record<TravelerType, number> = { ADULT: 1, CHILD: 0.75, HELD_INFANT: 0.1 };

/** Fare of one traveler for an itinerary, in minor units of `currency`. */
export function travelerFare(
  seed: number | undefined,
  key: string,
  cabin: AmadeusCabin,
  brand: Brand,
  type: TravelerType,
  currency: string,
): { base: number; taxes: number } {
  const rng = rngFor(seed, 'fare', key);
  const eur = rng.int(90, 780) * CABIN_FACTOR[cabin] * brand.factor * TYPE_FACTOR[type];
  const rate = EUR_RATE[currency] ?? 1;
  const base = Math.round(eur * rate) * 100;
  const taxes = Math.round(eur * rate * (0.12 + rng.next() * 0.14)) * 100;
  return { base, taxes };
}

/** What one chargeable bag costs per traveler per segment, in minor units. */
export const bagPriceMinor = (currency: string): number => Math.round(25 * (EUR_RATE[currency] ?? 1)) * 100;

export interface Priced {
  offer: Wire;
  totalMinor: number;
}

/**
 * Re-prices an offer as the GDS would: recomputes every traveler's fare from its itinerary, cabin and
 * brand, adds chargeable bags, and applies `driftPercent` (the price-change knob and trigger).
 */
export function priceOffer(seed: number | undefined, offer: Wire, driftPercent: number): Priced {
  const key = offerKey(offer);
  const currency = str(asObject(offer.price)?.currency) ?? 'EUR';
  const bag = bagPriceMinor(currency);
  let total = 0;
  let base = 0;
  let bagsTotal = 0;
  const travelerPricings = asArray(offer.travelerPricings).map((tp) => {
    const fds = asArray(tp.fareDetailsBySegment);
    const first = fds[0] ?? {};
    const cabin = (str(first.cabin) ?? 'ECONOMY') as AmadeusCabin;
    const brand = brandByCode(str(first.brandedFare));
    const type = (str(tp.travelerType) ?? 'ADULT') as TravelerType;
    const fare = travelerFare(seed, key, cabin in CABIN_FACTOR ? cabin : 'ECONOMY', brand, type, currency);
    const drift = (m: number): number => Math.round((m * (100 + driftPercent)) / 100 / 100) * 100;
    const b = drift(fare.base);
    const t = drift(fare.taxes);
    const bags = fds.reduce(
      (n, fd) =>
        n + Number(asObject(asObject(fd.additionalServices)?.chargeableCheckedBags)?.quantity ?? 0) * bag,
      0,
    );
    total += b + t + bags;
    base += b;
    bagsTotal += bags;
    return {
      ...tp,
      price: {
        currency,
        total: money(b + t + bags),
        base: money(b),
        taxes: [{ amount: money(t), code: 'YQ' }],
      },
    };
  });
  const price: Wire = {
    currency,
    total: money(total),
    base: money(base),
    fees: [
      { amount: '0.00', type: 'SUPPLIER' },
      { amount: '0.00', type: 'TICKETING' },
    ],
    grandTotal: money(total),
  };
  if (bagsTotal > 0) price.additionalServices = [{ amount: money(bagsTotal), type: 'CHECKED_BAGS' }];
  return { offer: { ...offer, price, travelerPricings }, totalMinor: total };
}

function fareDetails(
  segIds: string[],
  cabin: AmadeusCabin,
  brand: Brand,
  cls: string,
  type: TravelerType,
): Wire[] {
  return segIds.map((segmentId) => {
    const fd: Wire = {
      segmentId,
      cabin,
      fareBasis: `${cls}${brand.code.slice(0, 3)}${cabin === 'ECONOMY' ? 'OW' : 'RT'}`,
      brandedFare: brand.code,
      brandedFareLabel: brand.label,
      class: cls,
    };
    if (type !== 'HELD_INFANT') fd.includedCheckedBags = { quantity: brand.bags };
    return fd;
  });
}

/** Builds one offer for the given legs/carrier/brand. Ids of segments are global across itineraries. */
export function buildOffer(
  seed: number | undefined,
  input: SearchInput,
  id: string,
  carrier: string,
  variant: number,
  brand: Brand,
): Wire | undefined {
  let segCounter = 0;
  const segIds: string[] = [];
  const legs = input.legs.map((leg) => legDrafts(seed, leg, carrier, variant, input.nonStop ?? false));
  if (legs.some((l) => l === undefined)) return undefined;
  const itineraries = (legs as SegmentDraft[][]).map((drafts) => {
    const segments = drafts.map((d) => {
      segCounter += 1;
      const sid = String(segCounter);
      segIds.push(sid);
      return segmentWire(d, sid);
    });
    const first = (drafts[0] as SegmentDraft).flight;
    const last = (drafts[drafts.length - 1] as SegmentDraft).flight;
    return { duration: isoDuration(Math.round((last.arrivalUtc - first.departureUtc) / 60_000)), segments };
  });
  const rng = rngFor(seed, 'class', id, carrier, variant);
  const cls = rng.pick(CABIN_CLASSES[input.cabin]);
  const lastTicketing = new Date(input.now + 3 * 86_400_000).toISOString().slice(0, 10);
  const draft: Wire = {
    type: 'flight-offer',
    id,
    source: 'GDS',
    instantTicketingRequired: false,
    nonHomogeneous: false,
    oneWay: false,
    isUpsellOffer: false,
    lastTicketingDate: lastTicketing,
    lastTicketingDateTime: `${lastTicketing}T23:59:00`,
    numberOfBookableSeats: rng.int(1, 9),
    itineraries,
    price: { currency: input.currency },
    pricingOptions: { fareType: ['PUBLISHED'], includedCheckedBagsOnly: brand.bags > 0 },
    validatingAirlineCodes: [carrier],
    travelerPricings: input.travelers.map((t) => {
      const tp: Wire = {
        travelerId: t.id,
        fareOption: 'STANDARD',
        travelerType: t.type,
        fareDetailsBySegment: fareDetails(segIds, input.cabin, brand, cls, t.type),
      };
      if (t.associatedAdultId) tp.associatedAdultId = t.associatedAdultId;
      return tp;
    }),
  };
  return priceOffer(seed, draft, 0).offer;
}

export function searchOffers(seed: number | undefined, input: SearchInput): Wire[] {
  const rng = rngFor(seed, 'search', JSON.stringify(input.legs), input.cabin, input.travelers.length);
  const sold = input.carriers?.length ? input.carriers.filter((c) => c in CARRIERS) : Object.keys(CARRIERS);
  // Only carriers that plausibly fly every leg (hub / home-country / alliance-hub rules of the network).
  const pool = carriersServing(
    sold,
    input.legs.map((l) => ({ from: l.origin, to: l.destination })),
  );
  if (pool.length === 0) return [];
  const count = Math.min(input.max, rng.int(6, 14));
  const offers: Wire[] = [];
  const perCarrier = new Map<string, number>();
  for (let i = 0; offers.length < count && i < count * 3; i++) {
    const carrier = rng.pick(pool);
    // Each offer of a carrier is its next routing / departure of the day: distinct, stable flights.
    const variant = perCarrier.get(carrier) ?? 0;
    perCarrier.set(carrier, variant + 1);
    const brand = input.cabin === 'ECONOMY' ? rng.pick(BRANDS) : (BRANDS[2] as Brand);
    const offer = buildOffer(seed, input, String(offers.length + 1), carrier, variant, brand);
    if (offer) offers.push(offer);
  }
  return offers
    .sort((a, b) => Number(asObject(a.price)?.grandTotal) - Number(asObject(b.price)?.grandTotal))
    .map((o, i) => ({ ...o, id: String(i + 1) }));
}

/** Upsell: the same itinerary in every brand of its cabin (Amadeus returns the original among them). */
export function upsellOffer(seed: number | undefined, offer: Wire): Wire[] {
  return BRANDS.map((brand, i) => {
    const travelerPricings = asArray(offer.travelerPricings).map((tp) => ({
      ...tp,
      fareDetailsBySegment: asArray(tp.fareDetailsBySegment).map((fd) => {
        const next: Wire = { ...fd, brandedFare: brand.code, brandedFareLabel: brand.label };
        delete next.additionalServices;
        if (str(tp.travelerType) !== 'HELD_INFANT') next.includedCheckedBags = { quantity: brand.bags };
        return next;
      }),
    }));
    const priced = priceOffer(seed, { ...offer, id: String(i + 1), travelerPricings }, 0).offer;
    return { ...priced, isUpsellOffer: true };
  });
}

export function dictionariesFor(offers: Wire[]): Wire {
  const locations: Wire = {};
  const aircraft: Wire = {};
  const carriers: Wire = {};
  const currencies: Wire = {};
  for (const o of offers) {
    const cur = str(asObject(o.price)?.currency);
    if (cur) currencies[cur] = CURRENCY_NAMES[cur] ?? cur;
    for (const s of asArray(o.itineraries).flatMap((it) => asArray(it.segments))) {
      for (const end of [asObject(s.departure), asObject(s.arrival)]) {
        const code = str(end?.iataCode);
        if (code) {
          locations[code] = { cityCode: AIRPORT_CITY[code] ?? code, countryCode: place(code).country };
        }
      }
      const ac = str(asObject(s.aircraft)?.code);
      if (ac) aircraft[ac] = AIRCRAFT[ac] ?? ac;
      const cc = str(s.carrierCode);
      if (cc) carriers[cc] = CARRIERS[cc]?.name ?? cc;
    }
  }
  return { locations, aircraft, currencies, carriers };
}

/** Refundability of an offer, as its brand says. */
export function offerBrand(offer: Wire): Brand {
  const fd = asArray(asArray(offer.travelerPricings)[0]?.fareDetailsBySegment)[0];
  return brandByCode(str(fd?.brandedFare));
}
