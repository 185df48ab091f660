import { type Kysely, sql } from 'kysely';

/**
 * search_offers is written on the hot path of every search (one statement per supplier answer). A flight
 * offer row with its supplier reference is 2-4 KB (an Amadeus reference alone is about 1.5 KB), over the
 * default TOAST threshold of about 2 KB, so every insert first tried to compress the row's JSON (pglz)
 * before writing it. Rows up to 8 KB now stay in line as they are: the write of a 12-offer Amadeus answer
 * went from 1.3 to 1.0 ms on PGlite and from 1.0 to 0.9 ms on PostgreSQL (prepared, in isolation).
 * Larger rows are still compressed and moved out of line as before; search offers expire with their
 * session, so the extra space is short-lived.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table search_offers set (toast_tuple_target = 8160)`.execute(db);
}
