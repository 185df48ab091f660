import { type Kysely, sql } from 'kysely';

/**
 * Webhooks (issue 30): a company's endpoints and the deliveries of its events to them. A delivery row is
 * written with its event (the outbox), each attempt is a job of the durable runner (queue
 * `webhook.deliver`). `secret` signs; during a roll `previous_secret` signs too until
 * `previous_secret_expires_at`. `failing_since` is the first failure after the last success: an endpoint
 * failing for 3 days is disabled (`disabled_reason`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table webhook_endpoints (
      id bigserial primary key,
      company_id integer not null references companies(id),
      url text not null,
      description text,
      event_types text[] not null default '{}',
      enabled boolean not null default true,
      secret text not null,
      previous_secret text,
      previous_secret_expires_at timestamptz,
      failing_since timestamptz,
      disabled_reason text,
      created_by text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index webhook_endpoints_company on webhook_endpoints (company_id, id);
    create table webhook_deliveries (
      id bigserial primary key,
      endpoint_id bigint not null references webhook_endpoints(id) on delete cascade,
      event_id text not null,
      status text not null default 'pending' check (status in ('pending', 'succeeded', 'dead')),
      attempts integer not null default 0,
      next_attempt_at timestamptz,
      first_attempt_at timestamptz,
      last_attempt_at timestamptz,
      last_status integer,
      last_error text,
      response_excerpt text,
      delivered_at timestamptz,
      created_at timestamptz not null default now()
    );
    create index webhook_deliveries_endpoint on webhook_deliveries (endpoint_id, id);
    create index webhook_deliveries_created on webhook_deliveries (created_at);
  `.execute(db);
}
