import { type Kysely, sql } from 'kysely';

/**
 * Money moves once per booking (issue 13 part 2, issue 14 write-ahead):
 * - `booking_money_ops`: the intent row every money or ticket-state operation commits before it calls the
 *   payment provider or the supplier (`requested`), settled after (`done` / `failed`), or left `pending`
 *   when the outcome is unknown (a `money.reconcile` job asks the provider by `reference`). At most one
 *   operation per booking is in flight (partial unique index), so a concurrent caller loses with 409.
 *   (0062 adds the op's owner lease and its look counter.)
 * - At most one live payment (PENDING, AUTHORIZED, CAPTURED, SETTLED) per booking.
 * - Never more refunded than captured, never more captured than authorized, nothing negative.
 *
 * A database written before this migration may hold several live payments for one booking (the old
 * authorize race). They are retired first, so the unique index can be built: per booking the payment that
 * moved the most money (captured, then authorized) stays live, the newest on a tie; the others become
 * FAILED (a PENDING one: nothing was confirmed) or VOIDED, their amounts left as they were (the
 * settlement report still counts what was captured), each with an audit entry naming the provider
 * reference to release or refund. Rows that already break the amount rules are audited and the check is
 * added NOT VALID: enforced on every new write, the old rows kept as evidence.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await retireDuplicateLivePayments(db);
  const broken = await sql<{ id: number; booking_id: number }>`
    select id, booking_id from booking_payments
    where not (captured_minor >= 0 and refunded_minor >= 0
      and captured_minor <= amount_minor and refunded_minor <= captured_minor)`.execute(db);
  for (const r of broken.rows)
    await sql`
      insert into audit_log (actor_role, entity_type, entity_id, action, reason, changes)
      select 'system', 'payment', ${String(r.id)}, 'payment_amounts_inconsistent',
        'found by migration 0060: amounts break captured <= authorized / refunded <= captured; kept as they are',
        jsonb_build_object('booking_id', booking_id, 'amount_minor', amount_minor,
          'captured_minor', captured_minor, 'refunded_minor', refunded_minor, 'state', state)
      from booking_payments where id = ${r.id}`.execute(db);

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
  `.execute(db);
  await sql
    .raw(
      `alter table booking_payments add constraint booking_payments_amounts_check check (
        captured_minor >= 0 and refunded_minor >= 0
        and captured_minor <= amount_minor and refunded_minor <= captured_minor)${broken.rows.length > 0 ? ' not valid' : ''}`,
    )
    .execute(db);
}

async function retireDuplicateLivePayments(db: Kysely<unknown>): Promise<void> {
  const retired = await sql<{ id: number }>`
    with ranked as (
      select id, row_number() over (
        partition by booking_id
        order by captured_minor desc, (state <> 'PENDING') desc, created_at desc, id desc) as n
      from booking_payments
      where state in ('PENDING', 'AUTHORIZED', 'CAPTURED', 'SETTLED')
    )
    select id from ranked where n > 1 order by id`.execute(db);
  for (const { id } of retired.rows) {
    await sql`
      insert into audit_log (actor_role, company_id, entity_type, entity_id, action, reason, changes)
      select 'system', b.company_id, 'payment', ${String(id)}, 'duplicate_payment_retired',
        'migration 0060: a second live payment of booking ' || p.booking_id || ' (left by the old authorize race); '
          || case when p.state = 'PENDING' then 'never confirmed: FAILED'
             when p.captured_minor > 0 then 'VOIDED here; ' || p.captured_minor || ' ' || p.currency
               || ' captured at the provider must be refunded there (' || coalesce(p.provider_payment_ref, 'no reference') || ')'
             else 'VOIDED here; release the hold at the provider (' || coalesce(p.provider_payment_ref, 'no reference') || ')' end,
        jsonb_build_object('booking_id', p.booking_id, 'from', p.state,
          'to', case when p.state = 'PENDING' then 'FAILED' else 'VOIDED' end,
          'amount_minor', p.amount_minor, 'captured_minor', p.captured_minor,
          'refunded_minor', p.refunded_minor, 'provider_payment_ref', p.provider_payment_ref)
      from booking_payments p join flight_bookings b on b.id = p.booking_id
      where p.id = ${id}`.execute(db);
    await sql`
      update booking_payments
      set state = case when state = 'PENDING' then 'FAILED' else 'VOIDED' end, updated_at = now()
      where id = ${id}`.execute(db);
  }
}
