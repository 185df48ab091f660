import { type Kysely, sql } from 'kysely';

/**
 * The payment lists (admin and customer, flight-booking/payment/queries.ts `listPaymentRows`) order by one
 * of created_at, updated_at, amount_minor or state, then id: one index per order, so a page near the start
 * reads the index instead of sorting every payment (issue 31). The lists themselves (keyset paging, the
 * bounded total, the company and user filters, which live on flight_bookings) are still to be converted;
 * these indexes are the ones that conversion needs too.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create index if not exists booking_payments_list_created on booking_payments (created_at, id);
    create index if not exists booking_payments_list_updated on booking_payments (updated_at, id);
    create index if not exists booking_payments_list_amount on booking_payments (amount_minor, id);
    create index if not exists booking_payments_list_state on booking_payments (state, id);
    analyze booking_payments;
  `.execute(db);
}
