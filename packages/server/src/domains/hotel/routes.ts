/**
 * Hotel operations of the user surface (check-rate, book, the caller's bookings, cancel).
 *
 * METHOD /path → operationId:
 *   POST /api/v1/hotel/book → bookHotel
 *   GET  /api/v1/hotel/bookings → listHotelBookings
 *   GET  /api/v1/hotel/bookings/{booking_id} → getHotelBooking
 *   POST /api/v1/hotel/bookings/{booking_id}/cancel → cancelHotelBooking
 *   GET  /api/v1/hotel/bookings/{booking_id}/cancellation-quote → quoteHotelCancellation
 *   POST /api/v1/hotel/check-rate → checkHotelRate
 */
import type { Routes } from '../../kernel/types.ts';
import { bookHotel } from './book.ts';
import { cancelHotelBooking, quoteHotelCancellation } from './cancel.ts';
import { checkHotelRate } from './check-rate.ts';
import type { HotelDeps } from './deps.ts';
import { hotelSurfaces } from './surfaces.ts';

export function hotelRoutes(deps: HotelDeps): Routes {
  const s = hotelSurfaces(deps);
  return {
    checkHotelRate: (ctx) => checkHotelRate(deps, ctx),
    bookHotel: (ctx) => bookHotel(deps, ctx),
    listHotelBookings: s.listOwn,
    getHotelBooking: s.getOwn,
    cancelHotelBooking: (ctx) => cancelHotelBooking(deps, ctx, 'any'),
    quoteHotelCancellation: (ctx) => quoteHotelCancellation(deps, ctx),
  };
}
