import { type Kysely, sql } from 'kysely';

/**
 * Indexes for the remaining lists (issue 31; the booking lists are 0180/0181, the audit log 0182): every
 * sort key ends in `id`, the keyset tie-breaker of `starting_after` (storage/keyset-list.ts), once per
 * sort and, for the tenant lists, after `company_id`. `search=` is a LIKE over one trigram-indexed
 * expression per table, repeated verbatim in the handler (the planner only uses the index for the same
 * expression). pg_trgm exists since 0180.
 *
 * - company clients (company/clients.ts): newest first, optionally one client_type; search over name,
 *   email and company name.
 * - wallet transactions (company/wallet.ts): newest first by id, optionally one type.
 * - error logs (admin/system.ts): newest first, optionally one stage or provider.
 * - users (admin/users.ts): created_at, email, full_name or last_login_at (never-logged-in users sort as
 *   the oldest login), optionally one company; search over email and name.
 * - companies (admin/companies.ts): created_at, company_name, company_code or status; search over name,
 *   code and contact email.
 * - markup rules (markup/rules-crud.ts, admin and company) and company staff: configuration, tens of rows
 *   per company, so they keep `page` and an exact total; the indexes only spare the sort.
 * The older single-column indexes these replace are prefixes of the new ones and only cost writes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const schema = (
    await sql<{ nspname: string }>`
      select n.nspname from pg_extension e join pg_namespace n on n.oid = e.extnamespace
      where e.extname = 'pg_trgm'`.execute(db)
  ).rows[0]?.nspname;
  if (!schema) throw new Error('pg_trgm is missing (migration 0180 creates it)');
  const ops = sql`${sql.id(schema)}.gin_trgm_ops`;
  await sql`
    create index if not exists clients_list_co_created on clients (company_id, created_at, id);
    create index if not exists clients_list_co_type on clients (company_id, client_type, created_at, id);
    create index if not exists clients_list_search on clients using gin ((
      lower(full_name || ' ' || email || ' ' || coalesce(company_name, ''))
    ) ${ops});
    create index if not exists wallet_transactions_list_co_type on wallet_transactions (company_id, type, id);
    create index if not exists error_logs_list_created on error_logs (created_at, id);
    create index if not exists error_logs_list_stage on error_logs (stage, created_at, id);
    create index if not exists error_logs_list_provider on error_logs (provider, created_at, id);
    drop index if exists error_logs_created_idx;
    drop index if exists error_logs_stage_idx;
    create index if not exists users_list_created on users (created_at, id);
    create index if not exists users_list_email on users (email, id);
    create index if not exists users_list_name on users (full_name, id);
    create index if not exists users_list_login
      on users ((coalesce(last_login_at, '-infinity'::timestamptz)), id);
    create index if not exists users_list_co_created on users (company_id, created_at, id);
    create index if not exists users_list_search on users using gin ((lower(email || ' ' || full_name)) ${ops});
    drop index if exists users_company_idx;
    create index if not exists companies_list_created on companies (created_at, id);
    create index if not exists companies_list_name on companies (company_name, id);
    create index if not exists companies_list_code on companies (company_code, id);
    create index if not exists companies_list_status on companies (status, created_at, id);
    create index if not exists companies_list_search on companies using gin ((
      lower(company_name || ' ' || company_code || ' ' || contact_email)
    ) ${ops});
    create index if not exists markup_rules_list on markup_rules (priority desc, id) where deleted_at is null;
    create index if not exists markup_rules_list_co
      on markup_rules (company_id, priority desc, id) where deleted_at is null;
    create index if not exists company_staff_list_co on company_staff (company_id, id);
    analyze clients;
    analyze wallet_transactions;
    analyze error_logs;
    analyze users;
    analyze companies;
  `.execute(db);
}
