import { type Kysely, sql } from 'kysely';

/**
 * Crash safety of hotel and transport bookings (domains/reservation/book.ts). A booking remembers
 * the idempotency scope of the request that wrote it ahead of its supplier call, so reconciliation can
 * tell a live request from a dead one. A cancellation is written down before the provider is called
 * (`cancel_requested_at`, and the scope of the request that asked), so a cancel whose answer was lost is
 * settled by asking the provider, never forgotten.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table hotel_bookings add column if not exists idempotency_scope text;
    alter table hotel_bookings add column if not exists cancel_requested_at timestamptz;
    alter table hotel_bookings add column if not exists cancel_scope text;
    alter table transport_bookings add column if not exists idempotency_scope text;
    alter table transport_bookings add column if not exists cancel_requested_at timestamptz;
    alter table transport_bookings add column if not exists cancel_scope text;
  `.execute(db);
}
