/** Hotel bookings: what differs from transport, given to the reservation engine (../engine.ts). */
import type { components } from '@travel/contract';
import type { SupplierHotelBooking } from '../../../suppliers/ports/hotel.ts';
import type { Vertical } from '../engine.ts';
import { bookHotel, hotelReservations } from './book.ts';
import { hotelCancellations } from './cancel.ts';
import { checkHotelRate } from './check-rate.ts';

export const hotel = {
  reservations: hotelReservations,
  cancellations: hotelCancellations,
  check: checkHotelRate,
  book: bookHotel,
} satisfies Vertical<
  SupplierHotelBooking,
  components['schemas']['HotelBooking'],
  Awaited<ReturnType<typeof checkHotelRate>>
>;
