/**
 * What differs between flights, hotels and transfers, behind one small interface: how a request becomes
 * a supplier query, and how a supplier offer becomes the public offer (ids, markup) plus the opaque
 * reference kept server-side. Everything else (fan-out, log, streams, batch) is shared.
 */
import type { FxRates } from '../internal/fx.ts';
import type { Currency } from '../suppliers/ports/errors.ts';
import type { CabinClass, FlightSearchQuery, SupplierFlightOffer } from '../suppliers/ports/flight.ts';
import type { HotelOffer, HotelSearchQuery } from '../suppliers/ports/hotel.ts';
import type { TransferOffer, TransferSearchQuery } from '../suppliers/ports/transfer.ts';
import type { SearchableSupplier } from '../suppliers/searchable.ts';
import { exchangeAt, fxFields, shownFlightPrice, shownHotelOffer, shownTransferOffer } from './exchange.ts';
import { wrapRef } from './resolve-offer.ts';
import type { Vertical } from './tables.ts';

export interface Presented {
  /** The public offer as clients see it (openapi FlightOffer / HotelOffer / TransferOffer). */
  offer: Record<string, unknown>;
  /** What the adapter needs later to price or book the offer; never sent to clients. */
  supplierRef: unknown;
  totalMinor: number;
}

/** What a flight offer's markup depends on (the markup domain's rule filters and bases). */
export interface MarkupQuery {
  company_id: number | null;
  base_total_minor: number;
  currency: string;
  origin: string | null;
  destination: string | null;
  cabin_class: string | null;
  airline: string | null;
  gds_provider: string | null;
  pax_count: number;
  segment_count: number;
}

/** The markup of one offer, in minor units of its currency. */
export type Markup = (q: MarkupQuery) => number;

/**
 * The markup that applies to one company's searches (null: a caller without a company), loaded once
 * per search. Injected by the composition root (domains/markup implements it), so the engine never
 * imports a domain.
 */
export type MarkupSource = (companyId: number | null) => Promise<Markup>;

/** No markup: verticals whose offers carry none, and callers that price without it. */
export const noMarkup: Markup = () => 0;

export interface PresentContext {
  offerId: string;
  searchId: string;
  /** Absent: no markup. */
  markup?: Markup;
  companyId: number | null;
  /** The currency the search asked for: every amount of the public offer is in it (absent: the
   * supplier's own, nothing converted). */
  currency?: Currency;
  /** Today's rates for an offer a supplier priced in another currency (null/absent: none available). */
  fx?: FxRates | null;
}

/** The currency a search request asks for (the contract's default USD when it names none). */
export const requestedCurrency = (r: Record<string, unknown>): Currency => (r.currency as Currency) ?? 'USD';

export type { SearchableSupplier };

export interface VerticalSpec<Q = unknown, O = unknown> {
  readonly vertical: Vertical;
  /** Search id prefix, so an id tells its vertical at a glance. */
  readonly idPrefix: string;
  /** Supplier names the request restricts the search to (empty: all enabled). */
  sources(request: Record<string, unknown>): string[];
  query(request: Record<string, unknown>, maxResults: number): Q;
  /** Whether markup rules apply (the public offer has a markup field). */
  readonly marksUp: boolean;
  present(o: O, ctx: PresentContext): Presented;
}

const CABIN_RULE: Record<CabinClass, string> = {
  Economy: 'economy',
  Premium: 'premium_economy',
  Business: 'business',
  First: 'first',
};

const num = (v: unknown, d: number): number => (typeof v === 'number' ? v : d);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

export const flightVertical: VerticalSpec<FlightSearchQuery, SupplierFlightOffer> = {
  vertical: 'flight',
  idPrefix: 'fs_',
  marksUp: true,
  sources: (r) => (Array.isArray(r.sources) ? (r.sources as string[]) : []),
  query(r, maxResults) {
    const legs = (r.searchAirLegs as FlightSearchQuery['legs']).map((l) => ({
      origin: l.origin.toUpperCase(),
      destination: l.destination.toUpperCase(),
      departureDate: l.departureDate,
    }));
    const q: FlightSearchQuery = {
      legs,
      journeyType: (r.journeyType as FlightSearchQuery['journeyType']) ?? 'OneWay',
      adults: num(r.adults, 1),
      children: num(r.children, 0),
      infants: num(r.infants, 0),
      childAges: Array.isArray(r.childAge) ? (r.childAge as number[]) : [],
      cabinClass: (r.cabinClass as CabinClass) ?? 'Economy',
      currency: (r.currency as Currency) ?? 'USD',
      refundableOnly: r.refundableFare === true,
      maxResults,
    };
    const airline = str(r.airline);
    if (airline) q.airline = airline;
    return q;
  },
  present(o, ctx) {
    const { supplier_ref, ...rest } = o;
    const segments = o.slices.flatMap((s) => s.segments);
    const first = o.slices[0];
    const supplierTotal = o.price.base_minor + o.price.taxes_minor;
    // Converted first: the markup rules see the fare (base + taxes) in the currency shown.
    const ex = exchangeAt(ctx.fx ?? null, o.price.currency, ctx.currency ?? o.price.currency);
    const fare = shownFlightPrice(o.price, ex);
    const markupMinor = (ctx.markup ?? noMarkup)({
      company_id: ctx.companyId,
      base_total_minor: fare.total_minor,
      currency: fare.currency,
      origin: first?.origin ?? null,
      destination: first?.destination ?? null,
      cabin_class: CABIN_RULE[o.cabin] ?? null,
      airline: o.validating_carrier,
      gds_provider: o.supplier,
      pax_count: o.passengers.adults + o.passengers.children + o.passengers.infants,
      segment_count: segments.length,
    });
    const price = { ...fare, markup_minor: markupMinor, total_minor: fare.total_minor + markupMinor };
    return {
      offer: {
        offer_id: ctx.offerId,
        search_id: ctx.searchId,
        ...rest,
        price,
        ...fxFields({ currency: o.price.currency, amount_minor: supplierTotal }, ex),
      },
      // The supplier's own price stays server-side with its ref: pricing and booking hand it back as it was.
      supplierRef: wrapRef(supplier_ref ?? null, { supplier_price: o.price }),
      totalMinor: price.total_minor,
    };
  },
};

export const hotelVertical: VerticalSpec<HotelSearchQuery, HotelOffer> = {
  vertical: 'hotel',
  idPrefix: 'hs_',
  marksUp: false,
  sources: () => [],
  query(r, maxResults) {
    const q: HotelSearchQuery = {
      destination: String(r.destination),
      check_in: String(r.check_in),
      check_out: String(r.check_out),
      rooms: (r.rooms as HotelSearchQuery['rooms']) ?? [{ adults: 2, children: 0, child_ages: [] }],
      nationality: str(r.nationality) ?? 'GB',
      currency: (r.currency as Currency) ?? 'USD',
      max_results: Math.min(maxResults, num(r.max_results, maxResults)),
    };
    if (typeof r.min_star_rating === 'number') q.min_star_rating = r.min_star_rating;
    return q;
  },
  present(o, ctx) {
    const shownOffer = shownHotelOffer(
      o,
      exchangeAt(ctx.fx ?? null, o.price.currency, ctx.currency ?? o.price.currency),
    );
    return {
      offer: { offer_id: ctx.offerId, search_id: ctx.searchId, ...shownOffer },
      supplierRef: o.rate_key,
      totalMinor: shownOffer.price.total_minor,
    };
  },
};

export const transportVertical: VerticalSpec<TransferSearchQuery, TransferOffer> = {
  vertical: 'transport',
  idPrefix: 'ts_',
  marksUp: false,
  sources: () => [],
  query(r) {
    const q: TransferSearchQuery = {
      pickup_location: String(r.pickup_location),
      dropoff_location: String(r.dropoff_location),
      pickup_datetime: String(r.pickup_datetime),
      passengers: num(r.passengers, 1),
      luggage: num(r.luggage, 1),
      currency: (r.currency as Currency) ?? 'USD',
    };
    const ret = str(r.return_datetime);
    if (ret) q.return_datetime = ret;
    const tt = str(r.transfer_type);
    if (tt) q.transfer_type = tt as TransferSearchQuery['transfer_type'];
    return q;
  },
  present(o, ctx) {
    const shownOffer = shownTransferOffer(
      o,
      exchangeAt(ctx.fx ?? null, o.price.currency, ctx.currency ?? o.price.currency),
    );
    return {
      offer: { offer_id: ctx.offerId, search_id: ctx.searchId, ...shownOffer },
      supplierRef: o.quote_id,
      totalMinor: shownOffer.price.total_minor,
    };
  },
};

export const VERTICALS: Record<Vertical, VerticalSpec> = {
  flight: flightVertical as unknown as VerticalSpec,
  hotel: hotelVertical as unknown as VerticalSpec,
  transport: transportVertical as unknown as VerticalSpec,
};
