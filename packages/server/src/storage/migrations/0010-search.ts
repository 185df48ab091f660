import { type Kysely, sql } from 'kysely';

/**
 * Search sessions, their append-only event log, the offers they produced (with the opaque supplier_ref
 * pricing and booking need later) and the per-supplier GDS config admins change at run time.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table search_sessions (
      id text primary key,
      vertical text not null check (vertical in ('flight', 'hotel', 'transport')),
      status text not null default 'initiated'
        check (status in ('initiated', 'in_progress', 'completed', 'partial', 'failed')),
      user_id text not null,
      company_id integer,
      request jsonb not null,
      suppliers jsonb not null default '[]'::jsonb,
      total_suppliers integer not null default 0,
      completed_suppliers integer not null default 0,
      total_offers integer not null default 0,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      finished_at timestamptz
    );
    create index search_sessions_expires_idx on search_sessions (expires_at);

    create table search_events (
      search_id text not null references search_sessions(id) on delete cascade,
      seq integer not null,
      event text not null,
      data jsonb not null,
      created_at timestamptz not null default now(),
      primary key (search_id, seq)
    );

    create table search_offers (
      offer_id text primary key,
      search_id text not null references search_sessions(id) on delete cascade,
      supplier text not null,
      position integer not null,
      offer jsonb not null,
      supplier_ref jsonb,
      total_minor bigint not null,
      expires_at timestamptz not null
    );
    create index search_offers_search_idx on search_offers (search_id, position);

    create table gds_config (
      provider text primary key,
      enabled boolean not null,
      timeout_ms integer not null,
      max_results integer not null,
      priority integer not null,
      updated_at timestamptz not null default now()
    );
  `.execute(db);
}
