import { type Kysely, sql } from 'kysely';

/**
 * Hotel and ground-transfer bookings. A row is written (status `pending`) before the supplier is called,
 * with its own `client_reference`, so a crash or an ambiguous supplier answer always leaves something
 * reconciliation can find at the supplier. Dates stay text (YYYY-MM-DD / local date-time): they are
 * the supplier's local values, not instants.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table hotel_bookings (
      id bigserial primary key,
      status text not null check (status in ('pending', 'confirmed', 'on_request', 'cancelled', 'rejected', 'failed')),
      provider text not null,
      client_reference text not null unique,
      rate_key text not null,
      supplier_booking_ref text,
      hotel_confirmation text,
      hotel jsonb not null,
      room jsonb not null,
      check_in text not null,
      check_out text not null,
      nights integer not null,
      guests jsonb not null,
      contact_email text not null,
      contact_phone text not null,
      special_requests text,
      client_ref text,
      currency text not null,
      total_minor bigint not null,
      cancellation_policies jsonb not null default '[]'::jsonb,
      cancellation_fee jsonb,
      user_id text not null,
      company_id integer,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index hotel_bookings_user_idx on hotel_bookings (user_id, created_at);
    create index hotel_bookings_company_idx on hotel_bookings (company_id, created_at);
    create index hotel_bookings_status_idx on hotel_bookings (status);

    create table transport_bookings (
      id bigserial primary key,
      status text not null check (status in ('pending', 'confirmed', 'on_request', 'cancelled', 'rejected', 'failed')),
      provider text not null,
      client_reference text not null unique,
      quote_id text not null,
      supplier_booking_ref text,
      confirmation_number text,
      transfer_type text not null,
      vehicle jsonb not null,
      pickup jsonb not null,
      dropoff jsonb not null,
      passengers jsonb not null,
      contact jsonb not null,
      flight_number text,
      hotel_name text,
      special_requests text,
      currency text not null,
      total_minor bigint not null,
      cancellation_fee jsonb,
      user_id text not null,
      company_id integer,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index transport_bookings_user_idx on transport_bookings (user_id, created_at);
    create index transport_bookings_company_idx on transport_bookings (company_id, created_at);
    create index transport_bookings_status_idx on transport_bookings (status);
  `.execute(db);
}
