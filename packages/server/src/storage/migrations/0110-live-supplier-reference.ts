import { type Kysely, sql } from 'kysely';

/**
 * One live booking per supplier reference: a supplier that hands out a PNR (or a hotel or transfer
 * reference) already held by a live booking of ours is refused by the database (unique violation of a
 * `*_live_supplier_ref` index, answered 409 `duplicate_supplier_reference`), instead of two bookings
 * sharing it (`GET /bookings/{pnr}` then finds only one of them).
 *
 * Databases written before this migration may already hold such pairs: the sandbox emulators forgot their
 * orders on restart and handed the same PNRs out again (issue 27). The migration must open them, so it
 * marks every live row but the oldest of a pair with `supplier_ref_duplicate_of` (the id of that oldest
 * row) and leaves them out of the index; an operator finds them with
 * `select * from flight_bookings where supplier_ref_duplicate_of is not null` (and the same on
 * hotel_bookings and transport_bookings). Nothing is deleted or changed otherwise.
 *
 * Live: a booking still holding its supplier order. Cancelled, expired, failed, rejected and refunded
 * bookings do not hold it; a supplier may reissue their reference.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table flight_bookings add column if not exists supplier_ref_duplicate_of bigint;
    alter table hotel_bookings add column if not exists supplier_ref_duplicate_of bigint;
    alter table transport_bookings add column if not exists supplier_ref_duplicate_of bigint;

    update flight_bookings b set supplier_ref_duplicate_of = d.first_id
      from (
        select id, min(id) over (partition by supplier, pnr) as first_id from flight_bookings
        where pnr is not null and status not in ('cancelled', 'expired', 'pnr_failed', 'refunded')
      ) d
      where b.id = d.id and d.id <> d.first_id;
    update hotel_bookings b set supplier_ref_duplicate_of = d.first_id
      from (
        select id, min(id) over (partition by provider, supplier_booking_ref) as first_id from hotel_bookings
        where supplier_booking_ref is not null and status in ('pending', 'confirmed', 'on_request')
      ) d
      where b.id = d.id and d.id <> d.first_id;
    update transport_bookings b set supplier_ref_duplicate_of = d.first_id
      from (
        select id, min(id) over (partition by provider, supplier_booking_ref) as first_id from transport_bookings
        where supplier_booking_ref is not null and status in ('pending', 'confirmed', 'on_request')
      ) d
      where b.id = d.id and d.id <> d.first_id;

    create unique index flight_bookings_live_supplier_ref on flight_bookings (supplier, pnr)
      where pnr is not null and supplier_ref_duplicate_of is null
        and status not in ('cancelled', 'expired', 'pnr_failed', 'refunded');
    create unique index hotel_bookings_live_supplier_ref on hotel_bookings (provider, supplier_booking_ref)
      where supplier_booking_ref is not null and supplier_ref_duplicate_of is null
        and status in ('pending', 'confirmed', 'on_request');
    create unique index transport_bookings_live_supplier_ref on transport_bookings (provider, supplier_booking_ref)
      where supplier_booking_ref is not null and supplier_ref_duplicate_of is null
        and status in ('pending', 'confirmed', 'on_request');
  `.execute(db);
}
