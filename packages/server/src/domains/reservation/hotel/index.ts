/** Hotel bookings: what differs from transport, given to the reservation engine (../engine.ts). */
import type { SupplierHotelBooking } from '../../../suppliers/ports.ts';
import type { Vertical } from '../engine.ts';
import { bookHotel, hotelReservations } from './book.ts';
import { hotelCancellations } from './cancel.ts';
import { checkHotelRate } from './check-rate.ts';

export const hotel: Vertical<SupplierHotelBooking> = {
  reservations: hotelReservations,
  cancellations: hotelCancellations,
  check: checkHotelRate,
  book: bookHotel,
};
