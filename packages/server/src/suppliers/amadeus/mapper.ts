import { toMinor as moneyToMinor, toAmountText } from '../../internal/money.ts';
import { type Currency, SupplierError } from '../ports/errors.ts';
import type {
  BagOption,
  BagSelection,
  CabinClass,
  ContactInput,
  FareRule,
  FlightSearchQuery,
  FlightSegment,
  FlightSlice,
  PassengerInput,
  SupplierFlightOffer,
  SupplierFlightOrder,
  TicketDocument,
} from '../ports/flight.ts';
import { requirementsFor } from '../requirements.ts';

/** Maps between Amadeus Self-Service wire shapes and the flight port's shapes. */

export type Wire = Record<string, unknown>;
const obj = (v: unknown): Wire => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Wire) : {});
const arr = (v: unknown): Wire[] => (Array.isArray(v) ? (v as Wire[]) : []);
const s = (v: unknown): string =>
  typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v);

/** Decimal text to minor units and back, with the currency's ISO 4217 exponent (the contract's table). */
export const toMinor = (amount: unknown, currency: string): number => {
  const n = Number(amount ?? 0);
  // A free item (a seat at 0) may come without a currency.
  return n === 0 ? 0 : moneyToMinor(n, currency);
};
export const fromMinor = (minor: number, currency: string): string => toAmountText(minor, currency);

const CABIN_TO: Record<CabinClass, string> = {
  Economy: 'ECONOMY',
  Premium: 'PREMIUM_ECONOMY',
  Business: 'BUSINESS',
  First: 'FIRST',
};
const CABIN_FROM: Record<string, CabinClass> = {
  ECONOMY: 'Economy',
  PREMIUM_ECONOMY: 'Premium',
  BUSINESS: 'Business',
  FIRST: 'First',
};

export function searchBody(q: FlightSearchQuery): Wire {
  const travelers: Wire[] = [];
  let id = 0;
  for (let i = 0; i < q.adults; i++) travelers.push({ id: String(++id), travelerType: 'ADULT' });
  for (let i = 0; i < q.children; i++) travelers.push({ id: String(++id), travelerType: 'CHILD' });
  for (let i = 0; i < q.infants; i++)
    travelers.push({ id: String(++id), travelerType: 'HELD_INFANT', associatedAdultId: String(i + 1) });
  const odIds = q.legs.map((_, i) => String(i + 1));
  const filters: Wire = {
    cabinRestrictions: [
      { cabin: CABIN_TO[q.cabinClass], coverage: 'MOST_SEGMENTS', originDestinationIds: odIds },
    ],
  };
  if (q.airline) filters.carrierRestrictions = { includedCarrierCodes: [q.airline] };
  return {
    currencyCode: q.currency,
    originDestinations: q.legs.map((l, i) => ({
      id: String(i + 1),
      originLocationCode: l.origin,
      destinationLocationCode: l.destination,
      departureDateTimeRange: { date: l.departureDate },
    })),
    travelers,
    sources: ['GDS'],
    searchCriteria: { maxFlightOffers: q.maxResults, flightFilters: filters },
  };
}

function minutes(iso: string): number {
  const m = /PT(?:(\d+)H)?(?:(\d+)M)?/.exec(iso);
  return m ? Number(m[1] ?? 0) * 60 + Number(m[2] ?? 0) : 0;
}

/** Our segment ids are "s1", "s2", … in flight order; the Amadeus ids stay inside the offer. */
export function offerFromAmadeus(raw: Wire, expiresAt: string): SupplierFlightOffer {
  const price = obj(raw.price);
  const currency = s(price.currency) as Currency;
  const tps = arr(raw.travelerPricings);
  const fd0 = obj(arr(obj(tps[0]).fareDetailsBySegment)[0]);
  let n = 0;
  const slices: FlightSlice[] = arr(raw.itineraries).map((it) => {
    const segments: FlightSegment[] = arr(it.segments).map((seg) => {
      const fd = obj(arr(obj(tps[0]).fareDetailsBySegment).find((f) => s(f.segmentId) === s(seg.id)));
      return {
        segment_id: `s${++n}`,
        marketing_carrier: s(seg.carrierCode),
        operating_carrier: s(obj(seg.operating).carrierCode) || s(seg.carrierCode),
        flight_number: s(seg.number),
        origin: s(obj(seg.departure).iataCode),
        destination: s(obj(seg.arrival).iataCode),
        departure_at: s(obj(seg.departure).at),
        arrival_at: s(obj(seg.arrival).at),
        duration_minutes: minutes(s(seg.duration)),
        cabin: CABIN_FROM[s(fd.cabin)] ?? 'Economy',
        booking_class: s(fd.class),
        aircraft: s(obj(seg.aircraft).code) || null,
      };
    });
    const first = segments[0] as FlightSegment;
    const last = segments[segments.length - 1] as FlightSegment;
    return {
      origin: first.origin,
      destination: last.destination,
      departure_date: first.departure_at.slice(0, 10),
      duration_minutes: minutes(s(it.duration)),
      stops: segments.length - 1,
      segments,
    };
  });
  const total = toMinor(price.grandTotal ?? price.total, currency);
  // Chargeable bags priced on the offer count in its base fare, as on every flight port (not as taxes).
  const base = toMinor(price.base, currency) + bagChargeMinor(raw);
  const rules = arr(obj(raw.fareRules).rules);
  const rule = (cat: string): Wire | undefined => rules.find((r) => r.category === cat);
  const brand = s(fd0.brandedFare);
  // Pricing returns fareRules; a search offer only has the brand, whose FLEX is the refundable one.
  const refundable = rules.length ? !rule('REFUND')?.notApplicable : brand === 'FLEX';
  const changeable = rules.length ? !rule('EXCHANGE')?.notApplicable : brand !== 'LIGHT';
  const count = (t: string): number => tps.filter((tp) => tp.travelerType === t).length;
  return {
    supplier: 'amadeus',
    supplier_ref: raw,
    slices,
    validating_carrier:
      s(arr(raw.validatingAirlineCodes)[0]) || (slices[0]?.segments[0]?.marketing_carrier ?? ''),
    cabin: CABIN_FROM[s(fd0.cabin)] ?? 'Economy',
    fare_brand: brand || null,
    refundable,
    changeable,
    baggage: {
      cabin_bags: 1,
      checked_bags: Number(obj(fd0.includedCheckedBags).quantity ?? 0),
      checked_bag_weight_kg: (obj(fd0.includedCheckedBags).weight as number | undefined) ?? null,
    },
    price: { currency, base_minor: base, taxes_minor: total - base, markup_minor: 0, total_minor: total },
    passengers: { adults: count('ADULT'), children: count('CHILD'), infants: count('HELD_INFANT') },
    lcc: false,
    expires_at: expiresAt,
    booking_requirements: requirementsFor({
      adults: count('ADULT'),
      children: count('CHILD'),
      infants: count('HELD_INFANT'),
    }),
  };
}

export function fareRulesFrom(included: Wire, offer: Wire): FareRule[] {
  const out: FareRule[] = [];
  for (const r of arr(obj(offer.fareRules).rules))
    out.push({
      category: s(r.category),
      title: s(r.category),
      text: r.notApplicable ? 'NOT PERMITTED' : `PERMITTED, MAX PENALTY ${s(r.maxPenaltyAmount)}`,
    });
  for (const d of Object.values(obj(included['detailed-fare-rules'])))
    for (const desc of arr(obj(obj(d).fareNotes).descriptions))
      out.push({
        category: s(desc.descriptionType),
        title: `${s(obj(d).name)} ${s(obj(d).fareBasis)}`.trim(),
        text: s(desc.text),
      });
  return out;
}

/** Amadeus segment id -> our "sN" id, in offer order. */
export function segmentIdMap(raw: Wire): Map<string, string> {
  const m = new Map<string, string>();
  let n = 0;
  for (const it of arr(raw.itineraries)) for (const seg of arr(it.segments)) m.set(s(seg.id), `s${++n}`);
  return m;
}

export function bagOptionsFrom(included: Wire, raw: Wire): BagOption[] {
  const ids = segmentIdMap(raw);
  return Object.entries(obj(included.bags)).map(([key, b]) => {
    const bag = obj(b);
    const price = obj(bag.price);
    const currency = s(price.currencyCode) as Currency;
    return {
      bag_option_id: key,
      segment_ids: arr(bag.segmentIds).map((x) => ids.get(s(x)) ?? s(x)),
      passenger_type: null,
      weight_kg: (bag.weight as number | undefined) ?? null,
      quantity_max: Number(bag.quantity ?? 1),
      price: { currency, amount_minor: toMinor(price.amount, currency) },
    };
  });
}

/** What the chargeable bags on a priced offer cost (its `price.additionalServices` of type CHECKED_BAGS). */
export function bagChargeMinor(raw: Wire): number {
  const price = obj(raw.price);
  const currency = s(price.currency);
  return arr(price.additionalServices)
    .filter((x) => x.type === 'CHECKED_BAGS')
    .reduce((n, x) => n + toMinor(x.amount, currency), 0);
}

/** The chargeable bags on an offer, traveler by segment, as a comparable string. */
export function chosenBags(raw: Wire): string {
  const out: string[] = [];
  for (const tp of arr(raw.travelerPricings))
    for (const fd of arr(tp.fareDetailsBySegment)) {
      const n = Number(obj(obj(fd.additionalServices).chargeableCheckedBags).quantity ?? 0);
      if (n > 0) out.push(`${s(tp.travelerId)}/${s(fd.segmentId)}=${n}`);
    }
  return out.sort().join(',');
}

const badBags = (message: string) => new SupplierError('amadeus', 'invalid_request', message);

/**
 * The offer with the selected chargeable bags on its fare details (`additionalServices.chargeableCheckedBags`),
 * replacing any chosen before; the GDS prices them when the offer is priced. A selection naming a bag option
 * (`bagOptions`: pricing's `included.bags`) buys that option's bags on every segment it covers (Amadeus sells
 * them by itinerary) for the traveler named, else the option's first traveler, so it costs the option's
 * price times `quantity`. A selection without an option adds `quantity` bags on each matching segment for
 * each matching traveler.
 */
export function applyBags(raw: Wire, selections: BagSelection[], bagOptions: Wire): Wire {
  const ref = structuredClone(raw);
  const toAmadeus = new Map([...segmentIdMap(ref)].map(([a, ours]) => [ours, a]));
  const counts = new Map<string, number>();
  const add = (traveler: string, segment: string, n: number) => {
    const key = `${traveler}/${segment}`;
    counts.set(key, (counts.get(key) ?? 0) + n);
  };
  for (const sel of selections) {
    const segment = sel.segment_id === undefined ? undefined : toAmadeus.get(sel.segment_id);
    if (sel.segment_id !== undefined && segment === undefined)
      throw badBags(`Segment ${sel.segment_id} is not on the offer`);
    if (sel.bag_option_id !== undefined) {
      const opt = obj(bagOptions[sel.bag_option_id]);
      if (Object.keys(opt).length === 0) throw badBags(`Unknown bag option ${sel.bag_option_id}`);
      const travelers = arr(opt.travelerIds).map(s);
      const segments = arr(opt.segmentIds).map(s);
      const traveler = sel.traveler_id ?? travelers[0];
      if (traveler === undefined || !travelers.includes(traveler))
        throw badBags(`Bag option ${sel.bag_option_id} is not sold to traveler ${traveler ?? '?'}`);
      if (segment !== undefined && !segments.includes(segment))
        throw badBags(`Bag option ${sel.bag_option_id} does not cover segment ${sel.segment_id}`);
      for (const seg of segments) add(traveler, seg, Number(opt.quantity ?? 1) * sel.quantity);
      continue;
    }
    for (const tp of arr(ref.travelerPricings)) {
      if (tp.travelerType === 'HELD_INFANT') continue;
      if (sel.traveler_id !== undefined && sel.traveler_id !== s(tp.travelerId)) continue;
      for (const fd of arr(tp.fareDetailsBySegment))
        if (segment === undefined || segment === s(fd.segmentId))
          add(s(tp.travelerId), s(fd.segmentId), sel.quantity);
    }
  }
  for (const tp of arr(ref.travelerPricings))
    for (const fd of arr(tp.fareDetailsBySegment)) {
      const { chargeableCheckedBags: _old, ...services } = obj(fd.additionalServices);
      const n = counts.get(`${s(tp.travelerId)}/${s(fd.segmentId)}`) ?? 0;
      if (n > 0) services.chargeableCheckedBags = { quantity: n };
      if (Object.keys(services).length > 0) fd.additionalServices = services;
      else delete fd.additionalServices;
    }
  return ref;
}

export const CLIENT_REF_PREFIX = 'CLIENT-REF';

export function travelersFrom(passengers: PassengerInput[], contact: ContactInput): Wire[] {
  return passengers.map((p) => {
    const phone = (p.phone ?? contact.phone).replace(/\D/g, '');
    const t: Wire = {
      id: p.passenger_id,
      dateOfBirth: p.date_of_birth,
      gender: p.gender === 'F' ? 'FEMALE' : 'MALE',
      name: { firstName: p.first_name.toUpperCase(), lastName: p.last_name.toUpperCase() },
      contact: {
        emailAddress: p.email ?? contact.email,
        phones: [
          {
            deviceType: 'MOBILE',
            countryCallingCode: phone.slice(0, 2) || '44',
            number: phone.slice(2) || '0',
          },
        ],
      },
    };
    if (p.document)
      t.documents = [
        {
          documentType:
            p.document.type === 'passport'
              ? 'PASSPORT'
              : p.document.type === 'visa'
                ? 'VISA'
                : 'IDENTITY_CARD',
          number: p.document.number,
          expiryDate: p.document.expiry,
          issuanceCountry: p.document.issuing_country,
          nationality: p.nationality ?? p.document.issuing_country,
          holder: true,
        },
      ];
    return t;
  });
}

export function orderFromAmadeus(data: Wire, ticketed: boolean): SupplierFlightOrder {
  const offer = obj(arr(data.flightOffers)[0]);
  const price = obj(offer.price);
  const currency = s(price.currency) as Currency;
  const agreement = obj(data.ticketingAgreement);
  const last = s(offer.lastTicketingDateTime) || s(offer.lastTicketingDate);
  return {
    supplier: 'amadeus',
    order_ref: s(data.id),
    pnr: s(obj(arr(data.associatedRecords)[0]).reference),
    status: ticketed ? 'ticketed' : 'on_hold',
    ticketing_deadline:
      agreement.option === 'DELAY_TO_CANCEL' && last ? `${last.slice(0, 10)}T23:59:00Z` : null,
    total: { currency, amount_minor: toMinor(price.grandTotal ?? price.total, currency) },
    raw: data,
  };
}

export function ticketFromAmadeus(t: Wire, segIds: Map<string, string>): TicketDocument {
  return {
    ticket_number: s(t.documentNumber),
    passenger_id: s(t.travelerId),
    passenger_name: s(t.travelerName),
    issuing_iata_number: s(t.issuingIataNumber),
    fare_calculation: s(t.fareCalculation),
    endorsements: s(t.endorsements),
    form_of_payment: s(t.formOfPayment),
    issued_at: s(t.issuedAt),
    allow_void: t.allowVoid === true,
    allow_refund: t.allowRefund === true,
    allow_reissue: t.allowReissue === true,
    coupons: arr(t.coupons).map((c) => ({
      coupon_number: Number(c.couponNumber),
      segment_id: segIds.get(s(c.segmentId)) ?? s(c.segmentId),
      origin: s(c.origin),
      destination: s(c.destination),
      flight: s(c.flight),
      status: s(c.status) as TicketDocument['coupons'][number]['status'],
    })),
  };
}

export { arr, obj, s };
