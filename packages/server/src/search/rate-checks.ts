/**
 * Issue 33: the rate key a hotel check-rate answers with books, like the search's key. A check-rate of a
 * rate the caller was shown in a search records the offer as the check showed it, under the key it
 * returned and under the key it was given (table `hotel_rate_checks`, migration 0170). A later check-rate
 * or booking with either key finds that record first (`findShownOffer`), so it is shown, compared and
 * charged in the search's currency at the exchange locked with the search's offer, against the price the
 * check-rate showed: a price change the check-rate reported is not reported again at booking.
 */
import { sql } from 'kysely';
import type { Db } from '../storage/schema.ts';
import type { ShownOffer } from './shown-offer.ts';

export async function recordRateCheck(
  db: Db,
  supplier: string,
  rateKeys: readonly string[],
  userId: string | undefined,
  seen: ShownOffer,
  checked: { price: { total_minor: number } } & object,
): Promise<void> {
  if (!userId) return;
  const offer = JSON.stringify({ ...seen.offer, ...checked });
  for (const key of new Set(rateKeys)) {
    await sql`
      insert into hotel_rate_checks (supplier, rate_key, user_id, offer_id, search_id, total_minor, offer)
      values (${supplier}, ${key}, ${userId}, ${seen.offer_id}, ${seen.search_id},
              ${checked.price.total_minor}, ${offer}::jsonb)
      on conflict (supplier, rate_key, user_id) do update set
        offer_id = excluded.offer_id, search_id = excluded.search_id,
        total_minor = excluded.total_minor, offer = excluded.offer, checked_at = now()`.execute(db);
  }
}

/** The caller's latest check-rate of that key, as a shown offer. */
export async function findRateCheck(
  db: Db,
  supplier: string,
  rateKey: string,
  userId: string | undefined,
): Promise<ShownOffer | undefined> {
  const r = await sql<ShownOffer>`
    select offer_id, search_id, total_minor, offer from hotel_rate_checks
    where supplier = ${supplier} and rate_key = ${rateKey} and user_id = ${userId ?? ''}`.execute(db);
  const row = r.rows[0];
  if (!row) return undefined;
  const offer =
    typeof row.offer === 'string' ? (JSON.parse(row.offer) as Record<string, unknown>) : row.offer;
  return { ...row, offer, total_minor: Number(row.total_minor) };
}
