/**
 * /company/hotel-bookings and /company/transport-bookings: the caller's company's bookings (another
 * company's: 404).
 *
 * METHOD /path → operationId:
 *   GET /api/v1/company/hotel-bookings → companyListHotelBookings
 *   GET /api/v1/company/hotel-bookings/pending → companyListPendingHotelBookings
 *   GET /api/v1/company/hotel-bookings/{booking_id} → companyGetHotelBooking
 *   GET /api/v1/company/transport-bookings → companyListTransportBookings
 *   GET /api/v1/company/transport-bookings/pending → companyListPendingTransportBookings
 *   GET /api/v1/company/transport-bookings/{booking_id} → companyGetTransportBooking
 */
import type { Routes } from '../../kernel/types.ts';
import type { ReservationDomainDeps } from './deps.ts';
import { engine } from './engine.ts';
import { hotel } from './hotel/index.ts';
import { transport } from './transport/index.ts';

export function companyReservationRoutes(deps: ReservationDomainDeps): Routes {
  const h = engine(deps, hotel);
  const t = engine(deps, transport);
  return {
    companyListHotelBookings: h.listCompany,
    companyListPendingHotelBookings: h.pendingCompany,
    companyGetHotelBooking: h.getCompany,
    companyListTransportBookings: t.listCompany,
    companyListPendingTransportBookings: t.pendingCompany,
    companyGetTransportBooking: t.getCompany,
  };
}
