import { type Kysely, sql } from 'kysely';

/** Kernel tables: tenants and identity, audit, idempotency, rate limits, durable jobs. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table companies (
      id serial primary key,
      company_name text not null,
      company_code text not null unique,
      company_type text not null default 'travel_agency',
      contact_email text not null,
      contact_phone text,
      currency char(3) not null default 'GBP',
      credit_limit_minor bigint not null default 0,
      address jsonb,
      parent_company_id integer references companies(id),
      settings jsonb not null default '{}'::jsonb,
      status text not null default 'active' check (status in ('active', 'suspended', 'deleted')),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );

    create table users (
      id text primary key,
      email text not null,
      password_hash text not null,
      full_name text not null,
      role text not null check (role in ('super_admin', 'company_admin', 'company_staff', 'customer')),
      status text not null default 'active' check (status in ('active', 'pending', 'suspended', 'inactive')),
      company_id integer references companies(id),
      is_active boolean not null default true,
      phone text,
      department text,
      user_code text,
      email_verified_at timestamptz,
      suspended_until timestamptz,
      status_reason text,
      last_login_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index users_email_key on users (lower(email));
    create index users_company_idx on users (company_id);

    create table invitations (
      code text primary key,
      email text not null,
      role text not null,
      company_id integer references companies(id),
      invited_by text references users(id),
      full_name text,
      expires_at timestamptz not null,
      used_at timestamptz,
      used_by text references users(id),
      created_at timestamptz not null default now()
    );

    create table refresh_tokens (
      id text primary key,
      user_id text not null references users(id),
      token_hash text not null unique,
      family_id text not null,
      expires_at timestamptz not null,
      revoked_at timestamptz,
      replaced_by text,
      created_at timestamptz not null default now()
    );
    create index refresh_tokens_family_idx on refresh_tokens (family_id);

    create table audit_log (
      id bigserial primary key,
      at timestamptz not null default now(),
      actor_id text,
      actor_role text,
      impersonator_id text,
      company_id integer,
      entity_type text not null,
      entity_id text not null,
      action text not null,
      reason text,
      changes jsonb,
      request_id text,
      ip text
    );
    create index audit_log_entity_idx on audit_log (entity_type, entity_id, at);
    create index audit_log_actor_idx on audit_log (actor_id, at);

    create table idempotency_keys (
      scope text primary key,
      caller text not null,
      operation_id text not null,
      idem_key text not null,
      request_hash text not null,
      status text not null check (status in ('in_progress', 'completed')),
      response_status integer,
      response_body jsonb,
      response_headers jsonb,
      created_at timestamptz not null,
      locked_until timestamptz not null,
      completed_at timestamptz
    );
    create index idempotency_keys_created_idx on idempotency_keys (created_at);

    create table rate_limit_counters (
      bucket text not null,
      window_start timestamptz not null,
      hits integer not null,
      expires_at timestamptz not null,
      primary key (bucket, window_start)
    );
    create index rate_limit_counters_expires_idx on rate_limit_counters (expires_at);

    create table jobs (
      id text primary key,
      queue text not null,
      payload jsonb not null,
      dedupe_key text unique,
      run_at timestamptz not null,
      attempts integer not null default 0,
      max_attempts integer not null default 5,
      locked_at timestamptz,
      locked_by text,
      last_error text,
      status text not null default 'queued' check (status in ('queued', 'running', 'done', 'failed')),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index jobs_ready_idx on jobs (queue, run_at) where status = 'queued';
  `.execute(db);
}
