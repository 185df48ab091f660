/**
 * `offer_id` -> the stored offer and its opaque supplier reference: the one lookup behind pricing and
 * booking. A malformed id is 400 invalid_offer_id; an offer of another tenant's search (or of another
 * vertical, when one is asked for) is as unknown as a missing one (404 offer_not_found); an offer whose
 * search expired is offer_expired, 410 unless the operation's contract says 400 (the flight booking
 * operations do).
 *
 * Offers derived from a stored one (upsell alternatives, an offer re-priced with bags) are stored beside it
 * in its search, so each can be priced and booked by its own offer_id. A bag re-price keeps the chosen
 * bags with the supplier ref, so booking that offer_id books them.
 */

import { type Clock, systemClock } from '../internal/clock.ts';
import type { FxSource } from '../internal/fx.ts';
import type { Currency } from '../internal/money.ts';
import { badRequest, HttpError, notFound } from '../kernel/errors.ts';
import type { Db } from '../storage/schema.ts';
import type {
  BagSelection,
  FlightOffer,
  FlightPrice,
  SupplierFlightOffer,
} from '../suppliers/ports/flight.ts';
import {
  type Exchange,
  exchangeAt,
  fxFields,
  lockedExchange,
  priceChangeCause,
  shownFlightPrice,
} from './exchange.ts';
import { type Caller, canRead } from './session-store.ts';
import { parseJson, searchDb, type Vertical } from './tables.ts';

/** Bags chosen on a re-price: what booking the derived offer sends the supplier, and what they cost. */
export interface OfferBags {
  selections: BagSelection[];
  /** Supplier price of the bags, included in the offer's total. */
  amount_minor: number;
  /** The offer the bags were chosen on; a new choice starts again from it. */
  base_offer_id: string;
}

export interface ResolvedOffer {
  offer_id: string;
  search_id: string;
  vertical: Vertical;
  supplier: string;
  /** The public offer as the caller saw it (price includes our markup). */
  offer: Record<string, unknown>;
  /** Opaque to everyone but the adapter: Amadeus offer object, Duffel offer id, Mystifly FareSourceCode, rate_key, quote_id. */
  supplier_ref: unknown;
  /** Bags chosen on a re-price (null for an offer as searched). */
  bags: OfferBags | null;
  /** The flight supplier's own price (its currency, no markup), kept server-side beside the ref. */
  supplier_price: FlightPrice | null;
  /** The search request (passenger mix, currency, …). */
  request: Record<string, unknown>;
  user_id: string;
  company_id: number | null;
  expires_at: Date;
}

export interface ResolveOptions {
  /** Only offers of this vertical resolve. */
  vertical?: Vertical;
  /** The status of offer_expired (default 410). */
  expiredStatus?: 400 | 410;
}

const OFFER_ID = /^[A-Za-z0-9_-]{3,128}$/;

/** Key of the stored-ref envelope of a derived offer that carries more than the adapter's ref. */
const DERIVED = '$derived';

interface RefExtras {
  bags?: OfferBags;
  supplier_price?: FlightPrice;
}

/** The stored ref: the adapter's ref alone, or an envelope with what the server keeps beside it. */
export function wrapRef(ref: unknown, extras: RefExtras): unknown {
  const e: RefExtras = {};
  if (extras.bags) e.bags = extras.bags;
  if (extras.supplier_price) e.supplier_price = extras.supplier_price;
  return Object.keys(e).length > 0 ? { [DERIVED]: e, ref: ref ?? null } : (ref ?? null);
}

function unwrapRef(stored: unknown): {
  ref: unknown;
  bags: OfferBags | null;
  supplier_price: FlightPrice | null;
} {
  if (stored && typeof stored === 'object' && DERIVED in stored) {
    const e = stored as { [DERIVED]: RefExtras; ref: unknown };
    return { ref: e.ref, bags: e[DERIVED].bags ?? null, supplier_price: e[DERIVED].supplier_price ?? null };
  }
  return { ref: stored, bags: null, supplier_price: null };
}

export async function resolveOffer(
  db: Db,
  offerId: string,
  caller: Caller,
  clock: Clock = systemClock,
  opts: ResolveOptions = {},
): Promise<ResolvedOffer> {
  if (!OFFER_ID.test(offerId)) throw badRequest('invalid_offer_id', 'The offer id is malformed.');
  const row = await searchDb(db)
    .selectFrom('search_offers as o')
    .innerJoin('search_sessions as s', 's.id', 'o.search_id')
    .select([
      'o.offer_id',
      'o.search_id',
      'o.supplier',
      'o.offer',
      'o.supplier_ref',
      'o.expires_at',
      's.vertical',
      's.request',
      's.user_id',
      's.company_id',
    ])
    .where('o.offer_id', '=', offerId)
    .executeTakeFirst();
  if (!row || !canRead(caller, row) || (opts.vertical && row.vertical !== opts.vertical))
    throw notFound('offer_not_found', 'Offer not found.');
  const expires = new Date(row.expires_at);
  if (expires.getTime() <= clock.now().getTime()) {
    throw new HttpError(
      opts.expiredStatus ?? 410,
      'offer_expired',
      'The search this offer came from has expired; search again.',
    );
  }
  // Not parseJson: a hotel rate_key or transfer quote id is stored as a JSON string and arrives as a
  // plain string, which must not be parsed a second time.
  const { ref, bags, supplier_price } = unwrapRef(row.supplier_ref);
  return {
    offer_id: row.offer_id,
    search_id: row.search_id,
    vertical: row.vertical,
    supplier: row.supplier,
    offer: parseJson(row.offer),
    supplier_ref: ref,
    bags,
    supplier_price,
    request: parseJson(row.request),
    user_id: row.user_id,
    company_id: row.company_id,
    expires_at: expires,
  };
}

/**
 * The flight offer as its adapter returned it (supplier price, no markup, with `supplier_ref`), to hand
 * back to `FlightSupplier.price/createOrder`.
 */
export function toSupplierFlightOffer(r: ResolvedOffer): SupplierFlightOffer {
  const {
    offer_id: _id,
    search_id: _search,
    supplier_price: _sp,
    fx_rate: _rate,
    price,
    ...rest
  } = r.offer as unknown as Omit<SupplierFlightOffer, 'supplier_ref'> & {
    offer_id: string;
    search_id: string;
    supplier_price?: unknown;
    fx_rate?: unknown;
  };
  // The supplier's own price as its adapter returned it (offers stored before it was kept: the shown
  // price minus our markup, which was the supplier's then).
  const supplierPrice = r.supplier_price ?? {
    ...price,
    markup_minor: 0,
    total_minor: price.total_minor - (price.markup_minor ?? 0),
  };
  return { ...rest, supplier_ref: r.supplier_ref, price: supplierPrice } as SupplierFlightOffer;
}

/** A flight offer resolved for pricing or booking: the public offer, the adapter's offer and our markup. */
export interface ResolvedFlightOffer extends ResolvedOffer {
  offer: FlightOffer & Record<string, unknown>;
  supplierOffer: SupplierFlightOffer;
  markup_minor: number;
}

export async function resolveFlightOffer(
  db: Db,
  offerId: string,
  caller: Caller,
  clock: Clock,
  opts: Omit<ResolveOptions, 'vertical'> = {},
): Promise<ResolvedFlightOffer> {
  const r = await resolveOffer(db, offerId, caller, clock, { ...opts, vertical: 'flight' });
  const offer = r.offer as ResolvedFlightOffer['offer'];
  return {
    ...r,
    offer,
    supplierOffer: toSupplierFlightOffer(r),
    markup_minor: offer.price.markup_minor ?? 0,
  };
}

/**
 * The public offer after a supplier re-priced it, in the currency shown: converted at `ex` (default: the
 * rate locked with the offer), with our markup kept on top.
 */
export function presentFlightOffer(
  r: ResolvedFlightOffer,
  o: SupplierFlightOffer,
  offerId = r.offer_id,
  ex: Exchange | null = lockedExchange(r.offer, o.price.currency),
): FlightOffer {
  const { supplier_ref: _ref, ...rest } = o;
  const supplierPrice = {
    ...o.price,
    markup_minor: 0,
    total_minor: o.price.total_minor - (o.price.markup_minor ?? 0),
  };
  if (!ex)
    throw new Error(
      `no exchange from ${o.price.currency} to ${r.offer.price.currency} locked with ${r.offer_id}`,
    );
  const fare = shownFlightPrice(supplierPrice, ex);
  return {
    ...rest,
    offer_id: offerId,
    search_id: r.search_id,
    price: { ...fare, markup_minor: r.markup_minor, total_minor: fare.total_minor + r.markup_minor },
    ...fxFields({ currency: o.price.currency, amount_minor: supplierPrice.total_minor }, ex),
  };
}

/**
 * Stores an offer derived from `from` in the same search (after the search's own offers, at `position`).
 * It lives as long as the supplier honours it, and never longer than the offer it came from.
 */
export async function saveDerivedOffer(
  db: Db,
  from: ResolvedOffer,
  d: {
    offer: FlightOffer;
    supplier_ref: unknown;
    bags?: OfferBags;
    /** The supplier's own price of the derived offer (its currency), when it differs from the shown one. */
    supplier_price?: FlightPrice;
    position: number;
  },
): Promise<void> {
  const supplierExpiry = new Date(d.offer.expires_at).getTime();
  const expires = new Date(
    Number.isNaN(supplierExpiry)
      ? from.expires_at.getTime()
      : Math.min(supplierExpiry, from.expires_at.getTime()),
  );
  await searchDb(db)
    .insertInto('search_offers')
    .values({
      offer_id: d.offer.offer_id,
      search_id: from.search_id,
      supplier: from.supplier,
      position: d.position,
      offer: JSON.stringify(d.offer),
      supplier_ref: JSON.stringify(
        wrapRef(d.supplier_ref, {
          ...(d.bags ? { bags: d.bags } : {}),
          ...(d.supplier_price ? { supplier_price: d.supplier_price } : {}),
        }),
      ),
      total_minor: d.offer.price.total_minor,
      expires_at: expires,
    })
    .execute();
}

/**
 * Today's exchange from the supplier's currency `from` to the offer's shown currency (revalidation), or
 * the rate locked with the offer when there is no rates table to ask.
 */
export async function currentExchange(
  fx: FxSource | undefined,
  r: ResolvedOffer,
  from: Currency,
): Promise<Exchange | null> {
  const to = (r.offer.price as { currency: Currency }).currency;
  if (from === to) return { currency: to, from, fx_rate: 1 };
  if (fx) {
    try {
      return exchangeAt(await fx.rates(), from, to);
    } catch {
      // No rate today: the offer keeps the one it was shown at.
    }
  }
  return lockedExchange(r.offer, from);
}

/** price_changed / previous_total_minor / price_change_cause of a re-priced flight offer. */
export function flightPriceChange(r: ResolvedFlightOffer, offer: FlightOffer) {
  const before = {
    supplier_amount_minor: r.offer.supplier_price?.amount_minor ?? r.supplierOffer.price.total_minor,
    fx_rate: r.offer.fx_rate ?? 1,
    total_minor: r.offer.price.total_minor,
  };
  const after = {
    supplier_amount_minor: offer.supplier_price?.amount_minor ?? before.supplier_amount_minor,
    fx_rate: offer.fx_rate ?? 1,
    total_minor: offer.price.total_minor,
  };
  const cause = priceChangeCause(before, after);
  return {
    price_changed: cause !== null,
    previous_total_minor: before.total_minor,
    price_change_cause: cause,
  };
}

/**
 * When only the exchange rate moved, the stored offer takes the re-priced amounts and the new rate: from
 * then on it is what the offer shows and what booking it charges (the supplier's own price is unchanged).
 */
export async function relockOffer(db: Db, offerId: string, offer: object, totalMinor: number) {
  await searchDb(db)
    .updateTable('search_offers')
    .set({ offer: JSON.stringify(offer), total_minor: totalMinor })
    .where('offer_id', '=', offerId)
    .execute();
}
