/** A hotel_bookings row as the contract's `HotelBooking`. */
import { parseJson } from '../tables.ts';
import { reservationFields } from '../view.ts';

export function hotelBookingView(r: Record<string, unknown>) {
  const hotel = parseJson<Record<string, unknown>>(r.hotel);
  return {
    booking_id: Number(r.id),
    status: r.status as string,
    provider: r.provider as string,
    supplier_booking_ref: (r.supplier_booking_ref as string | null) ?? null,
    hotel_confirmation: (r.hotel_confirmation as string | null) ?? null,
    rate_key: r.rate_key as string,
    hotel: {
      hotel_id: String(hotel.hotel_id),
      name: String(hotel.name),
      address: String(hotel.address ?? ''),
      city: String(hotel.city ?? ''),
      country: String(hotel.country ?? ''),
    },
    room: parseJson<Record<string, string>>(r.room),
    check_in: r.check_in as string,
    check_out: r.check_out as string,
    nights: Number(r.nights),
    guests: parseJson<Record<string, unknown>[]>(r.guests),
    contact_email: r.contact_email as string,
    contact_phone: r.contact_phone as string,
    client_ref: (r.client_ref as string | null) ?? null,
    cancellation_policies: parseJson<unknown[]>(r.cancellation_policies),
    ...reservationFields(r),
  };
}
