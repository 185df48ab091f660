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

import { randomBytes } from 'node:crypto';
import { type Clock, systemClock } from '../internal/clock.ts';
import { badRequest, HttpError, notFound } from '../kernel/errors.ts';
import type { Db } from '../storage/schema.ts';
import type { BagSelection, FlightOffer, SupplierFlightOffer } from '../suppliers/ports.ts';
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

function unwrapRef(stored: unknown): { ref: unknown; bags: OfferBags | null } {
  if (stored && typeof stored === 'object' && DERIVED in stored) {
    const e = stored as { [DERIVED]: { bags?: OfferBags }; ref: unknown };
    return { ref: e.ref, bags: e[DERIVED].bags ?? null };
  }
  return { ref: stored, bags: null };
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
  const { ref, bags } = unwrapRef(row.supplier_ref);
  return {
    offer_id: row.offer_id,
    search_id: row.search_id,
    vertical: row.vertical,
    supplier: row.supplier,
    offer: parseJson(row.offer),
    supplier_ref: ref,
    bags,
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
    price,
    ...rest
  } = r.offer as unknown as Omit<SupplierFlightOffer, 'supplier_ref'> & {
    offer_id: string;
    search_id: string;
  };
  const supplierTotal = price.total_minor - (price.markup_minor ?? 0);
  return {
    ...rest,
    supplier_ref: r.supplier_ref,
    price: { ...price, markup_minor: 0, total_minor: supplierTotal },
  } as SupplierFlightOffer;
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

/** The public offer after a supplier re-priced it: our markup is kept on top of the supplier's price. */
export function presentFlightOffer(
  r: ResolvedFlightOffer,
  o: SupplierFlightOffer,
  offerId = r.offer_id,
): FlightOffer {
  const { supplier_ref: _ref, ...rest } = o;
  const supplierTotal = o.price.total_minor - (o.price.markup_minor ?? 0);
  return {
    ...rest,
    offer_id: offerId,
    search_id: r.search_id,
    price: { ...o.price, markup_minor: r.markup_minor, total_minor: supplierTotal + r.markup_minor },
  };
}

export const newOfferId = (): string => `of_${randomBytes(12).toString('base64url')}`;

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
        d.bags ? { [DERIVED]: { bags: d.bags }, ref: d.supplier_ref ?? null } : (d.supplier_ref ?? null),
      ),
      total_minor: d.offer.price.total_minor,
      expires_at: expires,
    })
    .execute();
}
