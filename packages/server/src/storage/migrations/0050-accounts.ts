import { type Kysely, sql } from 'kysely';

/**
 * Admin, company and customer surfaces: a company's clients, staff metadata and extra profile fields,
 * its wallet and ledger, customers' profiles and saved travelers, cancellation requests and the
 * supplier/stage error log. Money is integer minor units with a currency.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table clients (
      id serial primary key,
      company_id integer not null references companies(id),
      email text not null,
      full_name text not null,
      client_type text not null default 'traveler' check (client_type in ('traveler', 'sub_agent', 'corporate')),
      phone text,
      company_name text,
      credit_limit_minor bigint,
      notes text,
      is_active boolean not null default true,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index clients_company_email_key on clients (company_id, lower(email));

    create table company_profiles (
      company_id integer primary key references companies(id),
      logo_url text,
      website text,
      business_registration text,
      iata_number text,
      updated_at timestamptz not null default now()
    );

    -- One row per staff member or pending invitation: gives staff an integer id and holds permissions.
    create table company_staff (
      id serial primary key,
      company_id integer not null references companies(id),
      user_id text unique references users(id),
      email text not null,
      permissions jsonb not null default '[]'::jsonb,
      invited_at timestamptz,
      invited_by text,
      invite_role text,
      invite_full_name text,
      invite_department text,
      invite_phone text,
      created_at timestamptz not null default now()
    );
    create unique index company_staff_email_key on company_staff (company_id, lower(email));

    create table wallets (
      company_id integer primary key references companies(id),
      currency char(3) not null,
      balance_minor bigint not null default 0,
      updated_at timestamptz not null default now()
    );

    create table wallet_transactions (
      id bigserial primary key,
      company_id integer not null references companies(id),
      type text not null check (type in ('credit', 'debit')),
      amount_minor bigint not null check (amount_minor > 0),
      currency char(3) not null,
      balance_after_minor bigint not null,
      reference text,
      booking_id bigint,
      description text not null,
      created_by text,
      created_at timestamptz not null default now()
    );
    create index wallet_transactions_company_idx on wallet_transactions (company_id, id);

    create table customer_profiles (
      user_id text primary key references users(id),
      date_of_birth date,
      nationality text,
      preferred_language text,
      preferred_currency char(3),
      seat_preference text,
      meal_preference text,
      cabin_preference text,
      preferred_airlines jsonb not null default '[]'::jsonb,
      notification_email boolean not null default true,
      notification_sms boolean not null default false,
      updated_at timestamptz not null default now()
    );

    create table saved_travelers (
      id serial primary key,
      user_id text not null references users(id),
      first_name text not null,
      last_name text not null,
      date_of_birth date not null,
      gender text not null check (gender in ('M', 'F', 'O')),
      nationality text,
      email text,
      phone text,
      doc_type text check (doc_type in ('passport', 'id_card', 'visa')),
      doc_number text,
      doc_expiry date,
      doc_issuing_country text,
      is_primary boolean not null default false,
      nickname text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create index saved_travelers_user_idx on saved_travelers (user_id);

    create table cancellation_requests (
      id bigserial primary key,
      booking_id bigint not null,
      booking_type text not null default 'flight',
      user_id text not null,
      company_id integer,
      reason text,
      status text not null default 'requested' check (status in ('requested', 'processing', 'done', 'rejected')),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index cancellation_requests_open_key on cancellation_requests (booking_type, booking_id)
      where status in ('requested', 'processing');

    create table error_logs (
      id bigserial primary key,
      stage text not null,
      provider text,
      code text not null,
      message text not null,
      supplier_code text,
      request_id text,
      operation_id text,
      booking_id bigint,
      created_at timestamptz not null default now()
    );
    create index error_logs_created_idx on error_logs (created_at desc);
    create index error_logs_stage_idx on error_logs (stage, provider);
  `.execute(db);
}
