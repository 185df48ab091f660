/**
 * `offer_id` -> the stored offer and its opaque supplier reference, for pricing and booking. An offer of
 * another tenant's search is as unknown as a missing one (404); an offer whose search expired is 410.
 */

import { type Clock, systemClock } from '../internal/clock.ts';
import { gone, notFound } from '../kernel/errors.ts';
import type { Db } from '../storage/schema.ts';
import type { SupplierFlightOffer } from '../suppliers/ports.ts';
import { type Caller, canRead } from './session-store.ts';
import { parseJson, searchDb, type Vertical } from './tables.ts';

export interface ResolvedOffer {
  offer_id: string;
  search_id: string;
  vertical: Vertical;
  supplier: string;
  /** The public offer as the caller saw it (price includes our markup). */
  offer: Record<string, unknown>;
  /** Opaque to everyone but the adapter: Amadeus offer object, Duffel offer id, Mystifly FareSourceCode, rate_key, quote_id. */
  supplier_ref: unknown;
  /** The search request (passenger mix, currency, …). */
  request: Record<string, unknown>;
  user_id: string;
  company_id: number | null;
  expires_at: Date;
}

export async function resolveOffer(
  db: Db,
  offerId: string,
  caller: Caller,
  clock: Clock = systemClock,
): Promise<ResolvedOffer> {
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
  if (!row || !canRead(caller, row)) throw notFound('offer_not_found', 'Offer not found.');
  const expires = new Date(row.expires_at);
  if (expires.getTime() <= clock.now().getTime()) {
    throw gone('offer_expired', 'The search this offer came from has expired; search again.');
  }
  return {
    offer_id: row.offer_id,
    search_id: row.search_id,
    vertical: row.vertical,
    supplier: row.supplier,
    offer: parseJson(row.offer),
    supplier_ref: parseJson(row.supplier_ref),
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
  const supplierTotal = price.total_minor - price.markup_minor;
  return {
    ...rest,
    supplier_ref: r.supplier_ref,
    price: { ...price, markup_minor: 0, total_minor: supplierTotal },
  } as SupplierFlightOffer;
}
