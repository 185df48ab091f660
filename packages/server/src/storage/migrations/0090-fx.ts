import { type Kysely, sql } from 'kysely';

/**
 * Foreign exchange on bookings (issue 17): a booking charges the price shown, in the currency the caller
 * asked for; what the supplier itself charges, in its own currency, is recorded beside it for
 * reconciliation, with the rate that converted one into the other (1 when nothing was converted).
 * flight_bookings already had supplier_total_minor (the supplier order's total); it gains its currency.
 * Rows written before this migration read as "not converted" (null supplier currency, rate 1).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table flight_bookings add column supplier_currency text;
    alter table flight_bookings add column fx_rate numeric;
    alter table hotel_bookings add column supplier_currency text;
    alter table hotel_bookings add column supplier_total_minor bigint;
    alter table hotel_bookings add column fx_rate numeric;
    alter table transport_bookings add column supplier_currency text;
    alter table transport_bookings add column supplier_total_minor bigint;
    alter table transport_bookings add column fx_rate numeric;
  `.execute(db);
}
