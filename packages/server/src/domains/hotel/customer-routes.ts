/**
 * /customer/hotel-bookings: only the customer's own hotel bookings.
 *
 * METHOD /path → operationId:
 *   GET  /api/v1/customer/hotel-bookings → customerListHotelBookings
 *   GET  /api/v1/customer/hotel-bookings/{booking_id} → customerGetHotelBooking
 *   POST /api/v1/customer/hotel-bookings/{booking_id}/cancel → customerCancelHotelBooking
 */
import type { Routes } from '../../kernel/types.ts';
import { cancelHotelBooking } from './cancel.ts';
import type { HotelDeps } from './deps.ts';
import { hotelSurfaces } from './surfaces.ts';

export function customerHotelRoutes(deps: HotelDeps): Routes {
  const s = hotelSurfaces(deps);
  return {
    customerListHotelBookings: s.listOwn,
    customerGetHotelBooking: s.getCustomer,
    customerCancelHotelBooking: (ctx) => cancelHotelBooking(deps, ctx, 'user'),
  };
}
