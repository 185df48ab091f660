/**
 * Server-side offer resolution from `offer_id` (the search engine stores every offer with its opaque
 * supplier_ref). Kept here until the search domain exports `resolveOffer`: the rules are the same
 * (unknown or another tenant's: 404 offer_not_found; malformed: 400 invalid_offer_id; expired: 400
 * offer_expired, the code the bookings contract lists).
 */
import { badRequest, notFound } from '../../kernel/errors.ts';
import type { AuthContext } from '../../kernel/types.ts';
import { parseJson, searchDb } from '../../search/tables.ts';
import type { Db } from '../../storage/schema.ts';
import type { SupplierFlightOffer } from '../../suppliers/ports.ts';

export interface ResolvedOffer {
  offer_id: string;
  search_id: string;
  supplier: string;
  /** The public offer as the client saw it (with markup). */
  offer: Record<string, unknown> & {
    price: {
      currency: string;
      base_minor: number;
      taxes_minor: number;
      markup_minor: number;
      total_minor: number;
    };
  };
  /** What the adapter needs: the supplier offer with its opaque ref and the supplier's own price. */
  supplierOffer: SupplierFlightOffer;
  markup_minor: number;
}

const OFFER_ID = /^[A-Za-z0-9_-]{3,128}$/;

export async function resolveOffer(
  db: Db,
  offerId: string,
  caller: AuthContext,
  now: Date,
): Promise<ResolvedOffer> {
  if (!OFFER_ID.test(offerId)) throw badRequest('invalid_offer_id', 'The offer id is malformed.');
  const row = await searchDb(db)
    .selectFrom('search_offers')
    .innerJoin('search_sessions', 'search_sessions.id', 'search_offers.search_id')
    .select([
      'search_offers.offer_id',
      'search_offers.search_id',
      'search_offers.supplier',
      'search_offers.offer',
      'search_offers.supplier_ref',
      'search_offers.expires_at',
      'search_sessions.user_id',
      'search_sessions.company_id',
      'search_sessions.vertical',
    ])
    .where('search_offers.offer_id', '=', offerId)
    .executeTakeFirst();
  const visible =
    row &&
    row.vertical === 'flight' &&
    (caller.role === 'super_admin' ||
      row.user_id === caller.userId ||
      (caller.companyId !== null && row.company_id === caller.companyId));
  if (!row || !visible) throw notFound('offer_not_found', 'Offer not found.');
  if (new Date(row.expires_at).getTime() <= now.getTime())
    throw badRequest('offer_expired', 'The offer has expired; search again.');
  const offer = parseJson<ResolvedOffer['offer']>(row.offer);
  const markup = offer.price.markup_minor ?? 0;
  const { offer_id: _id, search_id: _sid, ...rest } = offer;
  const supplierOffer = {
    ...(rest as unknown as SupplierFlightOffer),
    supplier_ref: parseJson(row.supplier_ref),
    price: { ...offer.price, markup_minor: 0, total_minor: offer.price.total_minor - markup },
  } as SupplierFlightOffer;
  return {
    offer_id: row.offer_id,
    search_id: row.search_id,
    supplier: row.supplier,
    offer,
    supplierOffer,
    markup_minor: markup,
  };
}

/** The public offer after a supplier re-priced it: our markup is kept on top of the supplier's price. */
export function presentOffer(
  r: ResolvedOffer,
  o: SupplierFlightOffer,
  offerId = r.offer_id,
): Record<string, unknown> {
  const { supplier_ref: _ref, ...rest } = o;
  const supplierTotal = o.price.total_minor - (o.price.markup_minor ?? 0);
  return {
    ...rest,
    offer_id: offerId,
    search_id: r.search_id,
    price: { ...o.price, markup_minor: r.markup_minor, total_minor: supplierTotal + r.markup_minor },
  };
}
