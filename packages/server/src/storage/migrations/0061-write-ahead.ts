import { type Kysely, sql } from 'kysely';

/**
 * Crash safety. An idempotency claim becomes a lease owned by one request (renewed by its heartbeat,
 * taken over once it lapses). A flight booking is written ahead of its supplier call (`initiated`) and
 * remembers the idempotency scope that wrote it, so reconciliation can tell a live request from a dead one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table idempotency_keys add column lease_owner text;
    alter table flight_bookings add column idempotency_scope text;
    create index if not exists flight_bookings_initiated_idx on flight_bookings (created_at)
      where status = 'initiated';
  `.execute(db);
}
