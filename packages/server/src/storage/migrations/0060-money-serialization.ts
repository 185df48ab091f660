import { type Kysely, sql } from 'kysely';

/**
 * Money moves once per booking (issue 13 part 2, issue 14 write-ahead):
 * - `booking_money_ops`: the intent row every money or ticket-state operation commits before it calls the
 *   payment provider or the supplier (`requested`), settled after (`done` / `failed`), or left `pending`
 *   when the outcome is unknown (a `money.reconcile` job asks the provider by `reference`). At most one
 *   operation per booking is in flight (partial unique index), so a concurrent caller loses with 409.
 * - At most one live payment (PENDING, AUTHORIZED, CAPTURED, SETTLED) per booking.
 * - Never more refunded than captured, never more captured than authorized, nothing negative.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table booking_money_ops (
      id bigserial primary key,
      booking_id bigint not null references flight_bookings(id),
      kind text not null check (kind in ('authorize', 'capture', 'void', 'refund', 'manual_refund', 'ticket',
        'ticket_void', 'ticket_refund', 'seats_issue', 'ancillary_purchase', 'emd', 'cancel')),
      status text not null check (status in ('requested', 'pending', 'done', 'failed')),
      reference text not null,
      payment_id bigint references booking_payments(id),
      detail jsonb not null default '{}'::jsonb,
      request_id text,
      outcome text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    );
    create unique index booking_money_ops_one_in_flight on booking_money_ops (booking_id)
      where status in ('requested', 'pending');
    create index booking_money_ops_booking_idx on booking_money_ops (booking_id, id);
    create index booking_money_ops_reference_idx on booking_money_ops (reference);

    create unique index booking_payments_one_live on booking_payments (booking_id)
      where state in ('PENDING', 'AUTHORIZED', 'CAPTURED', 'SETTLED');
    alter table booking_payments add constraint booking_payments_amounts_check check (
      captured_minor >= 0 and refunded_minor >= 0
      and captured_minor <= amount_minor and refunded_minor <= captured_minor);
  `.execute(db);
}
