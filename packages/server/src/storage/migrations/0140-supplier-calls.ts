import { type Kysely, sql } from 'kysely';

/**
 * Supplier and payment-provider calls made for a booking (issue 32: a booking's story). One row per port
 * call (`createOrder`, `authorize`, `voidTickets`…), written after the call and outside the caller's
 * transaction, with bounded and redacted excerpts of what was sent and answered. Calls that belong to no
 * booking (searches) are logged and measured but not stored. Retention: rows older than
 * SUPPLIER_CALL_RETENTION_DAYS (default 400, so a year's disputes and chargebacks can still be read) are
 * deleted by the maintenance pass; the index on `started_at` serves that purge.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table supplier_calls (
      id bigserial primary key,
      booking_id bigint not null,
      booking_kind text not null default 'flight',
      supplier text not null,
      operation text not null,
      outcome text not null,
      http_status integer,
      attempts integer not null default 1,
      duration_ms integer not null,
      started_at timestamptz not null,
      request_id text,
      job_id text,
      trace_id text,
      request_excerpt text,
      response_excerpt text
    );
    create index supplier_calls_booking on supplier_calls (booking_kind, booking_id, started_at, id);
    create index supplier_calls_started on supplier_calls (started_at);
  `.execute(db);
}
