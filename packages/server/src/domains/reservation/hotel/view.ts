/** A hotel_bookings row as the contract's `HotelBooking`. */
import { type components, HOTEL_SUPPLIERS } from '@travel/contract';
import { oneOf, stringOr } from '../../../internal/narrow.ts';
import { parseJson } from '../tables.ts';
import { reservationFields, rowStatus } from '../view.ts';

type HotelBooking = components['schemas']['HotelBooking'];

/** The jsonb columns (room, guests, cancellation_policies) are read back as the contract's types the booking wrote. */
export function hotelBookingView(r: Record<string, unknown>): HotelBooking {
  const hotel = parseJson<Record<string, unknown>>(r.hotel);
  return {
    booking_id: Number(r.id),
    status: rowStatus(r),
    provider: oneOf(HOTEL_SUPPLIERS, r.provider, 'hotel_bookings.provider'),
    supplier_booking_ref: stringOr(r.supplier_booking_ref, null),
    hotel_confirmation: stringOr(r.hotel_confirmation, null),
    rate_key: String(r.rate_key),
    hotel: {
      hotel_id: String(hotel.hotel_id),
      name: String(hotel.name),
      address: String(hotel.address ?? ''),
      city: String(hotel.city ?? ''),
      country: String(hotel.country ?? ''),
    },
    room: parseJson<HotelBooking['room']>(r.room),
    check_in: String(r.check_in),
    check_out: String(r.check_out),
    nights: Number(r.nights),
    guests: parseJson<HotelBooking['guests']>(r.guests),
    contact_email: String(r.contact_email),
    contact_phone: String(r.contact_phone),
    client_ref: stringOr(r.client_ref, null),
    cancellation_policies: parseJson<HotelBooking['cancellation_policies']>(r.cancellation_policies),
    ...reservationFields(r),
  };
}
