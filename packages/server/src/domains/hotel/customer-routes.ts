/** /customer/hotel-bookings: only the customer's own hotel bookings. */
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
