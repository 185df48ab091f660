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
  const ops = sql`${sql.id(await trigramSchema(db))}.gin_trgm_ops`;
  await sql`
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
    create index if not exists flight_bookings_list_co_email
      on flight_bookings (company_id, (lower(contact->>'email')), created_at, id);
    create index if not exists flight_bookings_list_search on flight_bookings using gin ((
      lower(coalesce(pnr, '') || ' ' || passengers::text || ' ' || coalesce(contact->>'email', '') || ' '
        || coalesce(client_ref, ''))
    ) ${ops});
    drop index if exists flight_bookings_company_idx;
    drop index if exists flight_bookings_user_idx;
    drop index if exists flight_bookings_status_idx;
    analyze flight_bookings;
  `.execute(db);
}

/**
 * The schema holding pg_trgm (an extension exists once per database): where it already is, else `public`
 * when there is one, else the current schema. The index names its operator class with that schema, so it
 * works whatever the search_path (the tests pin it to a private schema).
 */
async function trigramSchema(db: Kysely<unknown>): Promise<string> {
  const where = async () =>
    (
      await sql<{ nspname: string }>`
        select n.nspname from pg_extension e join pg_namespace n on n.oid = e.extnamespace
        where e.extname = 'pg_trgm'`.execute(db)
    ).rows[0]?.nspname;
  // Migrators of several schemas of one database (the tests) would race to create it: one at a time.
  await sql`select pg_advisory_xact_lock(hashtext('travel.pg_trgm'))`.execute(db);
  const found = await where();
  if (found) return found;
  const pub = await sql<{
    n: number;
  }>`select count(*)::int as n from pg_namespace where nspname = 'public'`.execute(db);
  await (pub.rows[0]?.n
    ? sql`create extension if not exists pg_trgm schema public`
    : sql`create extension if not exists pg_trgm`
  ).execute(db);
  return (await where()) ?? 'public';
}
