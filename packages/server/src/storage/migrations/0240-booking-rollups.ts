import { type Kysely, sql } from 'kysely';

/**
 * Daily rollups of flight bookings for the company and admin reports and dashboards (issue 31,
 * docs/decisions/0008-report-rollups.md): a report reads O(days × keys) rows instead of every booking of
 * its window. Four tables, one row per UTC day (of `created_at`), key and writing connection (`slot`, below):
 *
 * - `booking_rollup_status` (company, day, status): bookings in each status (every status);
 * - `booking_rollup_revenue` (company, day, currency): counted bookings (flight-booking/revenue.ts
 *   `COUNTED`), their gross, markup and refunds (the refunded_minor of their payments);
 * - `booking_rollup_clients` (company, day, currency, contact email, user): counted bookings and revenue
 *   of companies' bookings; the client row is joined at read time, as before;
 * - `booking_rollup_routes` (company, day, currency, first origin, last destination): the same for
 *   bookings with flights.
 *
 * Triggers keep them in the writing transaction: statement-level AFTER triggers over transition tables,
 * one upsert per rollup per statement however many rows it wrote (an update subtracts the old rows and adds
 * the new; keys whose net delta is 0, such as an update of a column no rollup reads, write nothing). Every
 * upsert adds the statement's net delta per key in key order, so two transactions meet on a rollup row in
 * one order and serialize on it. A payment's refunded_minor moves its counted booking's refunds; that
 * trigger takes the booking row FOR SHARE (only when the net refund changes), so a concurrent status change
 * and refund of one booking apply one after the other. Rows whose
 * count falls to 0 stay (readers skip them). Keys may be NULL (a booking without a company, a contact
 * without an email): the unique indexes treat NULLs as equal.
 *
 * The tables are created with their triggers (which lock both tables until this migration commits, so no
 * write slips between the backfill and the triggers) and then filled from the existing rows.
 */

const COUNTED = `not in ('initiated', 'pending_pnr', 'pnr_failed', 'expired')`;

/**
 * Each key is spread over up to 16 rows by the writing connection (`slot`), so concurrent bookings of one
 * company on one day do not queue on one row until each commits; readers sum the slots. A booking counted
 * by one connection and uncounted by another leaves +1 and -1 in two slots: only the sums mean anything.
 */
const SLOT = `(pg_backend_pid() % 16)::smallint`;

const hasFlights = (r: string) =>
  `(case when jsonb_typeof(${r}.flights) = 'array' then jsonb_array_length(${r}.flights) else 0 end > 0)`;

/** The fields the rollups key and sum on, of the booking row `r` (a record or a table alias). */
const fields = (r: string) => `${r}.id, ${r}.company_id, (${r}.created_at at time zone 'UTC')::date as day,
  ${r}.status, ${r}.status ${COUNTED} as counted, ${r}.pricing->>'currency' as currency,
  coalesce((${r}.pricing->>'total_minor')::bigint, 0) as total,
  coalesce((${r}.pricing->>'markup_minor')::bigint, 0) as markup,
  ${r}.contact->>'email' as email, ${r}.user_id, ${hasFlights(r)} as routed,
  case when ${hasFlights(r)} then ${r}.flights->0->>'origin' end as origin,
  case when ${hasFlights(r)} then ${r}.flights->(jsonb_array_length(${r}.flights) - 1)->>'destination' end
    as destination`;

/** The four upserts of the net deltas of `source`: rows of `sign` (+1 or -1) and `fields`. */
function applyBookings(source: string): string {
  const d = `with d as (${source})`;
  return `
    ${d} insert into booking_rollup_status as t (company_id, day, status, slot, bookings)
      select company_id, day, status, ${SLOT}, sum(sign) from d group by 1, 2, 3
      having sum(sign) <> 0 order by 1, 2, 3
      on conflict (company_id, day, status, slot) do update set bookings = t.bookings + excluded.bookings;
    ${d}, r as (
      select d.*, d.sign * coalesce((select sum(p.refunded_minor) from booking_payments p
        where p.booking_id = d.id), 0) as refunds
      from d where d.counted)
    insert into booking_rollup_revenue as t
        (company_id, day, currency, slot, bookings, gross_minor, markup_minor, refunds_minor)
      select company_id, day, currency, ${SLOT}, sum(sign), sum(sign * total), sum(sign * markup), sum(refunds)
      from r group by 1, 2, 3
      having (sum(sign), sum(sign * total), sum(sign * markup), sum(refunds)) <> (0, 0, 0, 0)
      order by 1, 2, 3
      on conflict (company_id, day, currency, slot) do update set bookings = t.bookings + excluded.bookings,
        gross_minor = t.gross_minor + excluded.gross_minor,
        markup_minor = t.markup_minor + excluded.markup_minor,
        refunds_minor = t.refunds_minor + excluded.refunds_minor;
    ${d} insert into booking_rollup_clients as t
        (company_id, day, currency, email, user_id, slot, bookings, revenue_minor)
      select company_id, day, currency, email, user_id, ${SLOT}, sum(sign), sum(sign * total)
      from d where counted and company_id is not null group by 1, 2, 3, 4, 5
      having (sum(sign), sum(sign * total)) <> (0, 0) order by 1, 2, 3, 4, 5
      on conflict (company_id, day, currency, email, user_id, slot) do update
        set bookings = t.bookings + excluded.bookings, revenue_minor = t.revenue_minor + excluded.revenue_minor;
    ${d} insert into booking_rollup_routes as t
        (company_id, day, currency, origin, destination, slot, bookings, revenue_minor)
      select company_id, day, currency, origin, destination, ${SLOT}, sum(sign), sum(sign * total)
      from d where counted and routed and company_id is not null group by 1, 2, 3, 4, 5
      having (sum(sign), sum(sign * total)) <> (0, 0) order by 1, 2, 3, 4, 5
      on conflict (company_id, day, currency, origin, destination, slot) do update
        set bookings = t.bookings + excluded.bookings, revenue_minor = t.revenue_minor + excluded.revenue_minor;`;
}

/** Adds `source`'s refund deltas (booking_id, delta) to the revenue rows of their counted bookings. */
function applyRefunds(source: string): string {
  return `
    with s as (${source}),
    d as (select booking_id, sum(delta) as delta from s group by booking_id having sum(delta) <> 0),
    b as (
      select b.company_id, (b.created_at at time zone 'UTC')::date as day, b.pricing->>'currency' as currency,
             d.delta
      from d join flight_bookings b on b.id = d.booking_id
      where b.status ${COUNTED} order by b.id for share of b)
    insert into booking_rollup_revenue as t
        (company_id, day, currency, slot, bookings, gross_minor, markup_minor, refunds_minor)
      select company_id, day, currency, ${SLOT}, 0, 0, 0, sum(delta) from b group by 1, 2, 3
      having sum(delta) <> 0 order by 1, 2, 3
      on conflict (company_id, day, currency, slot) do update set refunds_minor = t.refunds_minor + excluded.refunds_minor;`;
}

const fn = (name: string, body: string) => `
  create or replace function ${name}() returns trigger language plpgsql set search_path from current as $fn$
  begin
    ${body}
    return null;
  end $fn$;`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table booking_rollup_status (
      company_id integer, day date not null, status text not null, slot smallint not null,
      bookings bigint not null
    );
    create unique index booking_rollup_status_key on booking_rollup_status (company_id, day, status, slot)
      nulls not distinct;
    create index booking_rollup_status_day on booking_rollup_status (day);
    create table booking_rollup_revenue (
      company_id integer, day date not null, currency text, slot smallint not null, bookings bigint not null,
      gross_minor bigint not null, markup_minor bigint not null, refunds_minor bigint not null
    );
    create unique index booking_rollup_revenue_key on booking_rollup_revenue (company_id, day, currency, slot)
      nulls not distinct;
    create index booking_rollup_revenue_day on booking_rollup_revenue (day);
    create table booking_rollup_clients (
      company_id integer not null, day date not null, currency text, email text, user_id text not null,
      slot smallint not null, bookings bigint not null, revenue_minor bigint not null
    );
    create unique index booking_rollup_clients_key
      on booking_rollup_clients (company_id, day, currency, email, user_id, slot) nulls not distinct;
    create table booking_rollup_routes (
      company_id integer not null, day date not null, currency text, origin text, destination text,
      slot smallint not null, bookings bigint not null, revenue_minor bigint not null
    );
    create unique index booking_rollup_routes_key
      on booking_rollup_routes (company_id, day, currency, origin, destination, slot) nulls not distinct;
    -- The company dashboard's "on hold, deadline within 24 h": a range of on-hold bookings only.
    create index if not exists flight_bookings_on_hold_deadline on flight_bookings (company_id, ticketing_deadline)
      where status = 'on_hold';
  `.execute(db);

  await sql
    .raw(
      [
        fn(
          'booking_rollups_insert',
          applyBookings(`select 1 as sign, ${fields('n')} from booking_rollup_new n`),
        ),
        fn(
          'booking_rollups_delete',
          applyBookings(`select -1 as sign, ${fields('o')} from booking_rollup_old o`),
        ),
        fn(
          'booking_rollups_update',
          applyBookings(
            `select -1 as sign, ${fields('o')} from booking_rollup_old o
             union all select 1, ${fields('n')} from booking_rollup_new n`,
          ),
        ),
        fn(
          'booking_refunds_insert',
          applyRefunds(
            `select booking_id, refunded_minor as delta from booking_rollup_new where refunded_minor <> 0`,
          ),
        ),
        fn(
          'booking_refunds_delete',
          applyRefunds(
            `select booking_id, -refunded_minor as delta from booking_rollup_old where refunded_minor <> 0`,
          ),
        ),
        fn(
          'booking_refunds_update',
          applyRefunds(
            `select booking_id, -refunded_minor as delta from booking_rollup_old
             union all select booking_id, refunded_minor from booking_rollup_new`,
          ),
        ),
        `create trigger booking_rollups_insert after insert on flight_bookings
           referencing new table as booking_rollup_new for each statement execute function booking_rollups_insert();
         create trigger booking_rollups_delete after delete on flight_bookings
           referencing old table as booking_rollup_old for each statement execute function booking_rollups_delete();
         create trigger booking_rollups_update after update on flight_bookings
           referencing old table as booking_rollup_old new table as booking_rollup_new
           for each statement execute function booking_rollups_update();
         create trigger booking_refunds_insert after insert on booking_payments
           referencing new table as booking_rollup_new for each statement execute function booking_refunds_insert();
         create trigger booking_refunds_delete after delete on booking_payments
           referencing old table as booking_rollup_old for each statement execute function booking_refunds_delete();
         create trigger booking_refunds_update after update on booking_payments
           referencing old table as booking_rollup_old new table as booking_rollup_new
           for each statement execute function booking_refunds_update();`,
      ].join('\n'),
    )
    .execute(db);

  await backfill(db);
  await sql`
    analyze booking_rollup_status;
    analyze booking_rollup_revenue;
    analyze booking_rollup_clients;
    analyze booking_rollup_routes;
  `.execute(db);
}

/**
 * The rollups of every existing booking and payment: the triggers' upserts over the whole table (on empty
 * rollups they insert). Refunds come with their bookings (applyBookings reads booking_payments).
 */
export async function backfill(db: Kysely<unknown>): Promise<void> {
  await sql.raw(applyBookings(`select 1 as sign, ${fields('b')} from flight_bookings b`)).execute(db);
}
