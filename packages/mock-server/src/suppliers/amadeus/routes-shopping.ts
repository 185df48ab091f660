import type { HttpHandler } from 'msw';
import {
  bagPriceMinor,
  dictionariesFor,
  offerBrand,
  priceOffer,
  type SearchInput,
  searchOffers,
  type TravelerType,
  upsellOffer,
} from './data.ts';
import type { Router } from './kit.ts';
import type { AmadeusCabin } from './reference.ts';
import { SEAT_DICTIONARY, seatmapWire } from './seatmap.ts';
import type { AmadeusState } from './state.ts';
import { offerDestinations, pricingDrift, ROUTE_TRIGGERS } from './triggers.ts';
import {
  AmadeusError,
  asArray,
  asObject,
  invalid,
  invalidParam,
  json,
  missing,
  money,
  notFound,
  readJson,
  str,
  type Wire,
} from './wire.ts';

/** Shopping: flight offers search (GET + POST), pricing, branded-fare upselling, seat maps. */

const CABINS: AmadeusCabin[] = ['ECONOMY', 'PREMIUM_ECONOMY', 'BUSINESS', 'FIRST'];
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const IATA = /^[A-Z]{3}$/;

export const soldOut = (): AmadeusError =>
  new AmadeusError(
    400,
    39397,
    'NO AVAILABILITY',
    'No seats are available on the requested flights in the requested class',
  );

function travelersFrom(adults: number, children: number, infants: number): SearchInput['travelers'] {
  const out: SearchInput['travelers'] = [];
  let id = 0;
  for (let i = 0; i < adults; i++) out.push({ id: String(++id), type: 'ADULT' });
  for (let i = 0; i < children; i++) out.push({ id: String(++id), type: 'CHILD' });
  for (let i = 0; i < infants; i++)
    out.push({ id: String(++id), type: 'HELD_INFANT', associatedAdultId: String(i + 1) });
  return out;
}

function searchResponse(state: AmadeusState, input: SearchInput, self: string): Response {
  if (input.travelers.filter((t) => t.type !== 'HELD_INFANT').length > 9)
    throw invalid('/travelers', 'Number of seated travelers must not exceed 9');
  const data = searchOffers(state.options.seed, input);
  return json({ meta: { count: data.length, links: { self } }, data, dictionaries: dictionariesFor(data) });
}

function searchFromQuery(state: AmadeusState, url: URL): SearchInput {
  const q = url.searchParams;
  for (const p of ['originLocationCode', 'destinationLocationCode', 'departureDate', 'adults'])
    if (!q.get(p))
      throw new AmadeusError(400, 32171, 'MANDATORY DATA MISSING', `Missing mandatory query parameter ${p}`, {
        parameter: p,
      });
  const origin = q.get('originLocationCode') as string;
  const destination = q.get('destinationLocationCode') as string;
  const date = q.get('departureDate') as string;
  if (!IATA.test(origin)) throw invalidParam('originLocationCode', 'Must be a 3-letter IATA code');
  if (!IATA.test(destination)) throw invalidParam('destinationLocationCode', 'Must be a 3-letter IATA code');
  if (!DATE.test(date)) throw invalidParam('departureDate', 'Must be a date YYYY-MM-DD');
  const legs = [{ origin, destination, date }];
  const ret = q.get('returnDate');
  if (ret) legs.push({ origin: destination, destination: origin, date: ret });
  const cabin = (q.get('travelClass') ?? 'ECONOMY') as AmadeusCabin;
  if (!CABINS.includes(cabin)) throw invalidParam('travelClass', 'Unknown travel class');
  const adults = Number(q.get('adults'));
  if (!Number.isInteger(adults) || adults < 1) throw invalidParam('adults', 'adults must be between 1 and 9');
  return {
    legs,
    travelers: travelersFrom(adults, Number(q.get('children') ?? 0), Number(q.get('infants') ?? 0)),
    cabin,
    currency: q.get('currencyCode') ?? 'EUR',
    carriers: q.get('includedAirlineCodes')?.split(',').filter(Boolean),
    nonStop: q.get('nonStop') === 'true',
    max: Math.min(250, Number(q.get('max') ?? 250) || 250),
    now: state.now(),
  };
}

function searchFromBody(state: AmadeusState, body: Wire): SearchInput {
  const ods = asArray(body.originDestinations);
  if (ods.length === 0) throw missing('/originDestinations');
  const travelers = asArray(body.travelers);
  if (travelers.length === 0) throw missing('/travelers');
  if (!Array.isArray(body.sources)) throw missing('/sources');
  const legs = ods.map((od, i) => {
    const origin = str(od.originLocationCode);
    const destination = str(od.destinationLocationCode);
    const date = str(asObject(od.departureDateTimeRange)?.date);
    if (!origin) throw missing(`/originDestinations[${i}]/originLocationCode`);
    if (!destination) throw missing(`/originDestinations[${i}]/destinationLocationCode`);
    if (!date || !DATE.test(date)) throw missing(`/originDestinations[${i}]/departureDateTimeRange/date`);
    return { origin, destination, date };
  });
  const criteria = asObject(body.searchCriteria) ?? {};
  const filters = asObject(criteria.flightFilters) ?? {};
  const cabin = (str(asObject(asArray(filters.cabinRestrictions)[0])?.cabin) ?? 'ECONOMY') as AmadeusCabin;
  return {
    legs,
    travelers: travelers.map((t, i) => {
      const type = str(t.travelerType);
      if (!type) throw missing(`/travelers[${i}]/travelerType`);
      const out: SearchInput['travelers'][number] = {
        id: str(t.id) ?? String(i + 1),
        type: (type === 'HELD_INFANT' || type === 'CHILD' ? type : 'ADULT') as TravelerType,
      };
      const assoc = str(t.associatedAdultId);
      if (assoc) out.associatedAdultId = assoc;
      return out;
    }),
    cabin: CABINS.includes(cabin) ? cabin : 'ECONOMY',
    currency: str(body.currencyCode) ?? 'EUR',
    carriers: asArray([asObject(filters.carrierRestrictions)])
      .flatMap((c) => (Array.isArray(c.includedCarrierCodes) ? (c.includedCarrierCodes as string[]) : []))
      .filter(Boolean),
    nonStop: Number(asObject(filters.connectionRestriction)?.maxNumberOfConnections ?? 2) === 0,
    max: Math.min(250, Number(criteria.maxFlightOffers ?? 250) || 250),
    now: state.now(),
  };
}

function offersIn(body: Wire, type: string): Wire[] {
  const data = asObject(body.data);
  if (!data) throw missing('/data');
  if (data.type !== type) throw invalid('/data/type', `type must be ${type}`);
  const offers = asArray(data.flightOffers);
  if (offers.length === 0) throw missing('/data/flightOffers');
  offers.forEach((o, i) => {
    if (!asArray(o.itineraries).length) throw missing(`/data/flightOffers[${i}]/itineraries`);
    if (!asArray(o.travelerPricings).length) throw missing(`/data/flightOffers[${i}]/travelerPricings`);
  });
  return offers;
}

/** Offer-level fare rules (penalties) as pricing returns them, from the brand. */
function fareRulesFor(offer: Wire, nonRefundable: boolean): Wire {
  const brand = offerBrand(offer);
  const currency = str(asObject(offer.price)?.currency) ?? 'EUR';
  const fee = money(bagPriceMinor(currency) * 3);
  const refundable = brand.refundable && !nonRefundable;
  return {
    currency,
    rules: [
      brand.changeable
        ? { category: 'EXCHANGE', maxPenaltyAmount: fee }
        : { category: 'EXCHANGE', notApplicable: true },
      refundable
        ? { category: 'REFUND', maxPenaltyAmount: fee }
        : { category: 'REFUND', notApplicable: true },
      { category: 'REVALIDATION', notApplicable: true },
    ],
  };
}

function includedFor(offer: Wire, include: string[]): Wire | undefined {
  const out: Wire = {};
  const currency = str(asObject(offer.price)?.currency) ?? 'EUR';
  if (include.includes('bags')) {
    const bags: Wire = {};
    let n = 0;
    const travelerIds = asArray(offer.travelerPricings)
      .filter((tp) => tp.travelerType !== 'HELD_INFANT')
      .map((tp) => String(tp.travelerId));
    for (const it of asArray(offer.itineraries)) {
      const segmentIds = asArray(it.segments).map((s) => String(s.id));
      for (const quantity of [1, 2]) {
        bags[String(++n)] = {
          quantity,
          weight: 23,
          weightUnit: 'KG',
          name: 'CHECKED_BAG',
          price: {
            amount: money(bagPriceMinor(currency) * quantity * segmentIds.length),
            currencyCode: currency,
          },
          bookableByItinerary: true,
          segmentIds,
          travelerIds,
        };
      }
    }
    out.bags = bags;
  }
  if (include.includes('detailed-fare-rules')) {
    const rules: Wire = {};
    const brand = offerBrand(offer);
    const tp = asArray(offer.travelerPricings)[0];
    for (const fd of asArray(tp?.fareDetailsBySegment)) {
      rules[String(fd.segmentId)] = {
        fareBasis: fd.fareBasis,
        name: brand.label,
        segmentId: String(fd.segmentId),
        fareNotes: {
          descriptions: [
            {
              descriptionType: 'PENALTIES',
              text: brand.refundable ? 'CANCELLATIONS PERMITTED FOR A FEE' : 'TICKET IS NON-REFUNDABLE',
            },
            {
              descriptionType: 'CHANGES',
              text: brand.changeable ? 'CHANGES PERMITTED FOR A FEE' : 'CHANGES NOT PERMITTED',
            },
          ],
        },
      };
    }
    out['detailed-fare-rules'] = rules;
  }
  return Object.keys(out).length ? out : undefined;
}

export function shoppingRoutes(r: Router, state: AmadeusState): HttpHandler[] {
  const seed = state.options.seed;
  return [
    r.get('/v2/shopping/flight-offers', ({ url }) =>
      searchResponse(state, searchFromQuery(state, url), url.href),
    ),
    r.post('/v2/shopping/flight-offers', async ({ request, url }) =>
      searchResponse(state, searchFromBody(state, await readJson(request)), url.href),
    ),
    r.post('/v1/shopping/flight-offers/pricing', async ({ request, url }) => {
      const offers = offersIn(await readJson(request), 'flight-offers-pricing');
      const include = (url.searchParams.get('include') ?? '').split(',').filter(Boolean);
      for (const inc of include)
        if (!['credit-card-fees', 'bags', 'other-services', 'detailed-fare-rules'].includes(inc))
          throw invalidParam('include', `Unknown include value ${inc}`);
      if (offers.some((o) => offerDestinations(o).includes(ROUTE_TRIGGERS.SOLD_OUT))) throw soldOut();
      const priced = offers.map((o) => {
        const p = priceOffer(seed, o, pricingDrift(o, state.knobs.priceDriftPercent)).offer;
        return { ...p, fareRules: fareRulesFor(p, false) };
      });
      const body: Wire = {
        data: {
          type: 'flight-offers-pricing',
          flightOffers: priced,
          bookingRequirements: { emailAddressRequired: true, mobilePhoneNumberRequired: true },
        },
        dictionaries: { locations: (dictionariesFor(priced).locations as Wire) ?? {} },
      };
      const included = includedFor(priced[0] as Wire, include);
      if (included) body.included = included;
      return json(body);
    }),
    r.post('/v1/shopping/flight-offers/upselling', async ({ request }) => {
      const offers = offersIn(await readJson(request), 'flight-offers-upselling');
      const data = upsellOffer(seed, offers[0] as Wire);
      return json({ meta: { count: data.length }, data, dictionaries: dictionariesFor(data) });
    }),
    r.post('/v1/shopping/seatmaps', async ({ request }) => {
      const body = await readJson(request);
      const offers = asArray(body.data);
      if (offers.length === 0) throw missing('/data');
      const data = offers.flatMap((o) => {
        const ids = asArray(o.travelerPricings).map((tp) => String(tp.travelerId));
        return asArray(o.itineraries).flatMap((it) =>
          asArray(it.segments).map((s) => seatmapWire(state, o, s, ids, new Set())),
        );
      });
      return json({
        meta: { count: data.length },
        data,
        dictionaries: { seatCharacteristic: SEAT_DICTIONARY },
      });
    }),
    r.get('/v1/shopping/seatmaps', ({ url }) => {
      const id = url.searchParams.get('flightOrderId') ?? url.searchParams.get('flight-orderId');
      if (!id)
        throw new AmadeusError(400, 32171, 'MANDATORY DATA MISSING', 'flightOrderId is mandatory', {
          parameter: 'flightOrderId',
        });
      const order = state.orders.get(id);
      if (!order || order.status === 'CANCELLED') throw notFound('flightOrderId', 'Flight order not found');
      const offer = asArray(order.data.flightOffers)[0] as Wire;
      const ids = asArray(order.data.travelers).map((t) => String(t.id));
      const data = asArray(offer.itineraries).flatMap((it) =>
        asArray(it.segments).map((s) => {
          const taken = new Set(
            order.seats
              .filter((x) => x.segmentId === s.id && x.status !== 'REFUSED')
              .map((x) => x.seatNumber),
          );
          return seatmapWire(state, offer, s, ids, taken);
        }),
      );
      return json({
        meta: { count: data.length },
        data,
        dictionaries: { seatCharacteristic: SEAT_DICTIONARY },
      });
    }),
  ];
}
