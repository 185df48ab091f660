/**
 * Check-rate and quote take the supplier's rate_key / quote_id directly (spec), while the contract's
 * offer shapes carry the offer_id and search_id it came from: the search engine's stored offer supplies
 * them, and the total the caller saw (the transfer port does not report the previous total itself).
 */
import { sql } from 'kysely';
import type { Db } from '../../../storage/schema.ts';

export interface SeenOffer {
  offer_id: string;
  search_id: string;
  total_minor: number;
}

export async function findSearchOffer(
  db: Db,
  supplier: string,
  field: 'rate_key' | 'quote_id',
  value: string,
): Promise<SeenOffer | undefined> {
  const r = await sql<SeenOffer>`
    select offer_id, search_id, total_minor from search_offers
    where supplier = ${supplier} and offer->>${field} = ${value}
    order by expires_at desc limit 1`.execute(db);
  const row = r.rows[0];
  return row ? { ...row, total_minor: Number(row.total_minor) } : undefined;
}
