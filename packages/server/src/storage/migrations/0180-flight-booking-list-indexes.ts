import { type Kysely, sql } from 'kysely';

/**
 * Indexes for every filter and sort of the flight booking lists (admin, company, customer), so that a page
 * costs the same at 10k and 1M rows (issue 31, docs in packages/server/bench/README.md "Scaling").
 *
 * - Each sort key ends in `id`, the tie-breaker of the keyset (`starting_after`), once without and once
 *   after `company_id` (the tenant's list). `status` sorts as (status, created_at, id), which also serves
 *   the status filter under the default created_at sort.
 * - `ticketing_deadline` is indexed as `coalesce(…, 'infinity')`: the same order as PostgreSQL's default
 *   null placement, but with no NULL in the row comparison of a keyset.
 * - `search=` runs a LIKE over one trigram-indexed expression (pg_trgm ships with PostgreSQL contrib and
 *   with PGlite). The expression is repeated verbatim in flight-booking/list-query.ts: the planner only
 *   uses the index for the same expression.
 * - The old (company_id, created_at), (user_id, created_at) and (status) indexes are prefixes of the new
 *   ones and only cost writes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create extension if not exists pg_trgm;
    create index if not exists flight_bookings_list_created on flight_bookings (created_at, id);
    create index if not exists flight_bookings_list_co_created on flight_bookings (company_id, created_at, id);
    create index if not exists flight_bookings_list_user_created on flight_bookings (user_id, created_at, id);
    create index if not exists flight_bookings_list_updated on flight_bookings (updated_at, id);
    create index if not exists flight_bookings_list_co_updated on flight_bookings (company_id, updated_at, id);
    create index if not exists flight_bookings_list_status on flight_bookings (status, created_at, id);
    create index if not exists flight_bookings_list_co_status
      on flight_bookings (company_id, status, created_at, id);
    create index if not exists flight_bookings_list_total
      on flight_bookings (((pricing->>'total_minor')::bigint), id);
    create index if not exists flight_bookings_list_co_total
      on flight_bookings (company_id, ((pricing->>'total_minor')::bigint), id);
    create index if not exists flight_bookings_list_deadline
      on flight_bookings ((coalesce(ticketing_deadline, 'infinity'::timestamptz)), id);
    create index if not exists flight_bookings_list_co_deadline
      on flight_bookings (company_id, (coalesce(ticketing_deadline, 'infinity'::timestamptz)), id);
    create index if not exists flight_bookings_list_search on flight_bookings using gin ((
      lower(coalesce(pnr, '') || ' ' || passengers::text || ' ' || coalesce(contact->>'email', '') || ' '
        || coalesce(client_ref, ''))
    ) gin_trgm_ops);
    drop index if exists flight_bookings_company_idx;
    drop index if exists flight_bookings_user_idx;
    drop index if exists flight_bookings_status_idx;
    analyze flight_bookings;
  `.execute(db);
}
