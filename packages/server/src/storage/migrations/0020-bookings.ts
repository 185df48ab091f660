import { type Kysely, sql } from 'kysely';

/**
 * Flight bookings and everything hanging off them: payments with one row per money movement, tickets
 * (snapshots of the supplier's e-ticket documents), ancillaries (one row per TSM), seat selections and
 * notes. Passengers and flights are jsonb: they are written once at booking time and read whole.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table flight_bookings (
      id bigserial primary key,
      pnr text,
      status text not null,
      payment_mode text not null,
      supplier text not null,
      supplier_order_ref text,
      client_reference text not null unique,
      offer_id text not null,
      offer jsonb not null,
      supplier_ref jsonb,
      passengers jsonb not null,
      contact jsonb not null,
      flights jsonb not null,
      pricing jsonb not null,
      supplier_total_minor bigint,
      client_ref text,
      snapshot_id text,
      search_id text,
      order_remarks jsonb not null default '[]'::jsonb,
      commission jsonb,
      foid jsonb,
      ticketing_deadline timestamptz,
      ticket_raw_status text,
      assigned_to_user_id text,
      user_id text not null,
      company_id integer,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index flight_bookings_pnr_idx on flight_bookings (pnr);
    create index flight_bookings_company_idx on flight_bookings (company_id, created_at);
    create index flight_bookings_user_idx on flight_bookings (user_id, created_at);
    create index flight_bookings_status_idx on flight_bookings (status);

    create table booking_payments (
      id bigserial primary key,
      booking_id bigint not null references flight_bookings(id),
      state text not null,
      amount_minor bigint not null,
      captured_minor bigint not null default 0,
      refunded_minor bigint not null default 0,
      currency text not null,
      provider text not null,
      provider_payment_ref text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index booking_payments_booking_idx on booking_payments (booking_id, id);

    create table booking_payment_transactions (
      id bigserial primary key,
      payment_id bigint not null references booking_payments(id),
      booking_id bigint not null references flight_bookings(id),
      type text not null check (type in ('authorization', 'capture', 'void', 'refund')),
      status text not null check (status in ('succeeded', 'failed', 'pending')),
      amount_minor bigint not null,
      currency text not null,
      provider_ref text,
      failure_code text,
      reason text,
      idempotency_key text,
      created_at timestamptz not null default now()
    );
    create index booking_payment_tx_booking_idx on booking_payment_transactions (booking_id, id);

    create table booking_tickets (
      booking_id bigint not null references flight_bookings(id),
      ticket_number text not null,
      document jsonb not null,
      updated_at timestamptz not null default now(),
      primary key (booking_id, ticket_number)
    );

    create table booking_ancillaries (
      id bigserial primary key,
      booking_id bigint not null references flight_bookings(id),
      kind text not null default 'service',
      code text not null,
      rfic text not null,
      rfisc text not null,
      booking_method text not null,
      provider text not null,
      tsm_reference text not null,
      emd_number text,
      status text not null,
      passenger_ids jsonb not null,
      segment_ids jsonb not null,
      price jsonb not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index booking_ancillaries_booking_idx on booking_ancillaries (booking_id, id);

    create table booking_seat_selections (
      booking_id bigint not null references flight_bookings(id),
      segment_id text not null,
      passenger_id text not null,
      seat_number text not null,
      status text not null,
      price jsonb,
      updated_at timestamptz not null default now(),
      primary key (booking_id, segment_id, passenger_id)
    );

    create table booking_notes (
      id bigserial primary key,
      booking_id bigint not null references flight_bookings(id),
      note text not null,
      attached boolean not null,
      user_id text,
      created_at timestamptz not null default now()
    );
  `.execute(db);
}
