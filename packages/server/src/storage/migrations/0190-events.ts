import { type Kysely, sql } from 'kysely';

/**
 * The event outbox (issue 30, contracts.md §8): one row per state change, written by the events module
 * (`src/events/`) in the same transaction as the change. `seq` orders rows inserted by one transaction;
 * `txid` (the writing transaction's id) is what the feed orders and pages by: a row is only served once
 * every transaction with a lower id has finished (`pg_snapshot_xmin`), so a cursor never skips an event
 * that commits late. `resource_version` counts the resource's events (1, 2, …), so a receiver of
 * out-of-order deliveries can drop stale ones.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table events (
      seq bigserial primary key,
      id text not null unique,
      txid xid8 not null default pg_current_xact_id(),
      type text not null,
      company_id integer,
      resource_type text not null,
      resource_id text not null,
      resource_version integer not null,
      data jsonb not null,
      request_id text,
      job_id text,
      created_at timestamptz not null default now()
    );
    create index events_feed on events (company_id, txid, seq);
    create index events_order on events (txid, seq);
    create index events_resource on events (resource_type, resource_id, resource_version);
    create index events_created on events (created_at);
  `.execute(db);
}
