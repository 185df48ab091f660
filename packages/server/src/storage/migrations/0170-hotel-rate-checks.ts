import { type Kysely, sql } from 'kysely';

/**
 * Issue 33: the rate key a hotel check-rate hands out books, like the search's. A check-rate records the
 * offer as it answered it (the key it returned, the price it showed, the exchange locked with the search's
 * offer), so a booking with that key (or with the search's key after the check) is charged what the
 * check-rate showed, in the search's currency. Rows go with their search session (on delete cascade), so
 * the search retention purges them too.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table hotel_rate_checks (
      supplier text not null,
      rate_key text not null,
      user_id text not null,
      offer_id text not null,
      search_id text not null references search_sessions(id) on delete cascade,
      total_minor bigint not null,
      offer jsonb not null,
      checked_at timestamptz not null default now(),
      primary key (supplier, rate_key, user_id)
    );
    create index hotel_rate_checks_search on hotel_rate_checks (search_id);
  `.execute(db);
}
