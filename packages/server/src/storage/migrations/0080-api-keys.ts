import { type Kysely, sql } from 'kysely';

/**
 * API keys for machines (issue 16): created by a company admin, shown once, stored only as the SHA-256
 * of the whole key (`key_hash`, unique: the lookup), with a short public `prefix` to recognise it by.
 * A key acts for its company as its creator with `role` (never above `company_admin`); `revoked_at` and
 * `expires_at` end it, checked on every request (no cache), so a revocation holds across processes at once.
 * `audit_log.api_key_id` names the key behind an audited change made with one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table api_keys (
      id bigserial primary key,
      company_id integer not null references companies(id),
      created_by text not null references users(id),
      name text not null,
      prefix text not null,
      key_hash text not null unique,
      role text not null check (role in ('company_admin', 'company_staff')),
      mode text not null check (mode in ('test', 'live')),
      created_at timestamptz not null default now(),
      expires_at timestamptz,
      last_used_at timestamptz,
      revoked_at timestamptz,
      revoked_by text
    );
    create index api_keys_company_idx on api_keys (company_id, id);

    alter table audit_log add column api_key_id bigint;
    create index audit_log_api_key_idx on audit_log (api_key_id, at) where api_key_id is not null;
  `.execute(db);
}
