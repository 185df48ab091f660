import { type Kysely, sql } from 'kysely';

/**
 * Hotel and transport booking lists as the flight lists (0180): every sort ends in `id` (the keyset
 * tie-breaker), once without and once after `company_id`; `status` sorts as (status, created_at, id);
 * `search=` is a LIKE over one trigram-indexed expression per table, repeated verbatim in
 * domains/reservation/kind.ts. The old (user_id, created_at), (company_id, created_at) and (status)
 * indexes are prefixes of the new ones. pg_trgm exists since 0180.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const schema = (
    await sql<{ nspname: string }>`
      select n.nspname from pg_extension e join pg_namespace n on n.oid = e.extnamespace
      where e.extname = 'pg_trgm'`.execute(db)
  ).rows[0]?.nspname;
  if (!schema) throw new Error('pg_trgm is missing (migration 0180 creates it)');
  const ops = sql`${sql.id(schema)}.gin_trgm_ops`;
  for (const [t, people, email] of [
    ['hotel_bookings', 'guests', sql`contact_email`],
    ['transport_bookings', 'passengers', sql`(contact->>'email')`],
  ] as const) {
    const table = sql.id(t);
    const name = (s: string) => sql.id(`${t}_list_${s}`);
    await sql`
      create index if not exists ${name('created')} on ${table} (created_at, id);
      create index if not exists ${name('co_created')} on ${table} (company_id, created_at, id);
      create index if not exists ${name('user_created')} on ${table} (user_id, created_at, id);
      create index if not exists ${name('updated')} on ${table} (updated_at, id);
      create index if not exists ${name('co_updated')} on ${table} (company_id, updated_at, id);
      create index if not exists ${name('status')} on ${table} (status, created_at, id);
      create index if not exists ${name('co_status')} on ${table} (company_id, status, created_at, id);
      create index if not exists ${name('total')} on ${table} (total_minor, id);
      create index if not exists ${name('co_total')} on ${table} (company_id, total_minor, id);
      create index if not exists ${name('search')} on ${table} using gin ((
        lower(coalesce(supplier_booking_ref, '') || ' ' || ${sql.id(people)}::text || ' ' || coalesce(${email}, ''))
      ) ${ops});
      drop index if exists ${sql.id(`${t}_user_idx`)};
      drop index if exists ${sql.id(`${t}_company_idx`)};
      drop index if exists ${sql.id(`${t}_status_idx`)};
      analyze ${table};
    `.execute(db);
  }
}
