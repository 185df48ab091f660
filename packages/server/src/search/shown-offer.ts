/**
 * Hotel check-rate, transfer quote and their bookings take the supplier's rate_key / quote_id, not our
 * offer_id: the search offer stored under that key tells the currency it was shown in and the exchange
 * rate locked with it, so a re-check is shown (and a booking charged) in that currency at that rate.
 */
import { sql } from 'kysely';
import type { Currency } from '../internal/money.ts';
import type { Db } from '../storage/schema.ts';
import type { HotelOffer } from '../suppliers/ports/hotel.ts';
import type { TransferOffer } from '../suppliers/ports/transfer.ts';
import {
  type Exchange,
  lockedExchange,
  type Money,
  priceChangeCause,
  shown,
  shownHotelOffer,
  shownTransferOffer,
} from './exchange.ts';
import { findRateCheck } from './rate-checks.ts';

export interface ShownOffer {
  offer_id: string;
  search_id: string;
  total_minor: number;
  offer: Record<string, unknown>;
}

/**
 * The caller's latest check-rate of that hotel key (`rate-checks.ts`), else their own latest search offer
 * under that key: a rate key is the same for everyone who searched
 * that stay, and another user's search (in another currency) must not decide the currency shown here.
 */
export async function findShownOffer(
  db: Db,
  supplier: string,
  field: 'rate_key' | 'quote_id',
  value: string,
  userId: string | undefined,
): Promise<ShownOffer | undefined> {
  if (field === 'rate_key') {
    const checked = await findRateCheck(db, supplier, value, userId);
    if (checked) return checked;
  }
  const r = await sql<ShownOffer>`
    select o.offer_id, o.search_id, o.total_minor, o.offer
    from search_offers o join search_sessions s on s.id = o.search_id
    where o.supplier = ${supplier} and o.offer->>${field} = ${value}
      and s.user_id = ${userId ?? ''}
    order by s.created_at desc, o.expires_at desc limit 1`.execute(db);
  const row = r.rows[0];
  if (!row) return undefined;
  const offer =
    typeof row.offer === 'string' ? (JSON.parse(row.offer) as Record<string, unknown>) : row.offer;
  return { ...row, offer, total_minor: Number(row.total_minor) };
}

/** The exchange a re-check of `seen` converts at: the rate locked with it (1:1 when nothing is known). */
export function recheckExchange(seen: ShownOffer | undefined, from: Currency): Exchange {
  return (seen && lockedExchange(seen.offer, from)) ?? { currency: from, from, fx_rate: 1 };
}

export interface Rechecked<O> {
  offer: O & { supplier_price: Money; fx_rate: number };
  previous_total_minor: number;
  price_changed: boolean;
  price_change_cause: 'supplier' | 'rate' | 'supplier_and_rate' | null;
}

function recheck<O extends HotelOffer | TransferOffer>(
  seen: ShownOffer | undefined,
  supplierOffer: O,
  supplierPrevious: number | undefined,
  supplierSaysChanged: boolean,
  present: (o: O, ex: Exchange) => O & { supplier_price: Money; fx_rate: number },
): Rechecked<O> {
  const ex = recheckExchange(seen, supplierOffer.price.currency);
  const offer = present(supplierOffer, ex);
  const before = {
    supplier_amount_minor:
      (seen?.offer.supplier_price as Money | undefined)?.amount_minor ??
      supplierPrevious ??
      supplierOffer.price.total_minor,
    fx_rate: typeof seen?.offer.fx_rate === 'number' ? seen.offer.fx_rate : ex.fx_rate,
    total_minor:
      seen?.total_minor ??
      (supplierPrevious === undefined ? offer.price.total_minor : shown(supplierPrevious, ex)),
  };
  let cause = priceChangeCause(before, {
    supplier_amount_minor: supplierOffer.price.total_minor,
    fx_rate: ex.fx_rate,
    total_minor: offer.price.total_minor,
  });
  // The supplier's own word counts even when the shown amount rounds to the same.
  if (supplierSaysChanged && cause === null) cause = 'supplier';
  return {
    offer,
    previous_total_minor: before.total_minor,
    price_changed: cause !== null,
    price_change_cause: cause,
  };
}

export const recheckHotel = (
  seen: ShownOffer | undefined,
  o: HotelOffer,
  supplierPrevious: number,
  supplierSaysChanged: boolean,
): Rechecked<HotelOffer> => recheck(seen, o, supplierPrevious, supplierSaysChanged, shownHotelOffer);

export const recheckTransfer = (
  seen: ShownOffer | undefined,
  o: TransferOffer,
  supplierSaysChanged: boolean,
): Rechecked<TransferOffer> => recheck(seen, o, undefined, supplierSaysChanged, shownTransferOffer);
