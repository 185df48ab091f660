/**
 * /company/transport-bookings: the caller's company's transport bookings (another company's: 404).
 *
 * METHOD /path → operationId:
 *   GET /api/v1/company/transport-bookings → companyListTransportBookings
 *   GET /api/v1/company/transport-bookings/pending → companyListPendingTransportBookings
 *   GET /api/v1/company/transport-bookings/{booking_id} → companyGetTransportBooking
 */
import type { Routes } from '../../kernel/types.ts';
import type { TransportDeps } from './deps.ts';
import { transportSurfaces } from './surfaces.ts';

export function companyTransportRoutes(deps: TransportDeps): Routes {
  const s = transportSurfaces(deps);
  return {
    companyListTransportBookings: s.listCompany,
    companyListPendingTransportBookings: s.pendingCompany,
    companyGetTransportBooking: s.getCompany,
  };
}
