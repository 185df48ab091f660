import { type Kysely, sql } from 'kysely';

/**
 * Schedule changes (issue 30): what the airline changed on a booked flight, as the order-refresh job
 * found it (`domains/flight-booking/schedule-changes/`). `old_segments` are the booking's flights when the
 * change was found, `new_segments` the airline's; accepting the change makes them the booking's flights.
 * `fingerprint` names the new itinerary, so the same change found twice (two processes, a retried job) is
 * one row. At most one change per booking is pending: a newer one supersedes it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table schedule_changes (
      id text primary key,
      seq bigint generated always as identity,
      booking_id bigint not null references flight_bookings (id) on delete cascade,
      company_id integer,
      supplier text not null,
      supplier_change_id text,
      status text not null check (status in ('pending', 'accepted', 'superseded')),
      fingerprint text not null,
      old_segments jsonb not null,
      new_segments jsonb not null,
      detected_at timestamptz not null,
      accepted_at timestamptz,
      accepted_by_user_id text,
      updated_at timestamptz not null,
      unique (booking_id, fingerprint)
    );
    create unique index schedule_changes_one_pending on schedule_changes (booking_id) where status = 'pending';
    create index schedule_changes_booking on schedule_changes (booking_id, seq);
  `.execute(db);
}
