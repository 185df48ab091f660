/**
 * /company/hotel-bookings: the caller's company's hotel bookings (another company's: 404).
 *
 * METHOD /path → operationId:
 *   GET /api/v1/company/hotel-bookings → companyListHotelBookings
 *   GET /api/v1/company/hotel-bookings/pending → companyListPendingHotelBookings
 *   GET /api/v1/company/hotel-bookings/{booking_id} → companyGetHotelBooking
 */
import type { Routes } from '../../kernel/types.ts';
import type { HotelDeps } from './deps.ts';
import { hotelSurfaces } from './surfaces.ts';

export function companyHotelRoutes(deps: HotelDeps): Routes {
  const s = hotelSurfaces(deps);
  return {
    companyListHotelBookings: s.listCompany,
    companyListPendingHotelBookings: s.pendingCompany,
    companyGetHotelBooking: s.getCompany,
  };
}
