/**
 * /customer/hotel-bookings and /customer/transport-bookings: only the customer's own bookings.
 *
 * METHOD /path → operationId:
 *   GET  /api/v1/customer/hotel-bookings → customerListHotelBookings
 *   GET  /api/v1/customer/hotel-bookings/{booking_id} → customerGetHotelBooking
 *   POST /api/v1/customer/hotel-bookings/{booking_id}/cancel → customerCancelHotelBooking
 *   GET  /api/v1/customer/transport-bookings → customerListTransportBookings
 *   GET  /api/v1/customer/transport-bookings/{booking_id} → customerGetTransportBooking
 *   POST /api/v1/customer/transport-bookings/{booking_id}/cancel → customerCancelTransportBooking
 */
import type { Routes } from '../../kernel/types.ts';
import type { ReservationDomainDeps } from './deps.ts';
import { engine } from './engine.ts';
import { hotel } from './hotel/index.ts';
import { transport } from './transport/index.ts';

export function customerReservationRoutes(deps: ReservationDomainDeps): Routes {
  const h = engine(deps, hotel);
  const t = engine(deps, transport);
  return {
    customerListHotelBookings: h.listOwn,
    customerGetHotelBooking: h.getCustomer,
    customerCancelHotelBooking: h.cancelOwn,
    customerListTransportBookings: t.listOwn,
    customerGetTransportBooking: t.getCustomer,
    customerCancelTransportBooking: t.cancelOwn,
  };
}
