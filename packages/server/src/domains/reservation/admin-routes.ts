/**
 * /admin/hotel-bookings and /admin/transport-bookings: every company's bookings, stats, audit trail and
 * the audited override.
 *
 * METHOD /path → operationId:
 *   GET  /api/v1/admin/hotel-bookings → adminListHotelBookings
 *   GET  /api/v1/admin/hotel-bookings/stats/summary → adminGetHotelBookingStats
 *   GET  /api/v1/admin/hotel-bookings/{booking_id} → adminGetHotelBooking
 *   POST /api/v1/admin/hotel-bookings/{booking_id}/override-status → adminOverrideHotelBookingStatus
 *   GET  /api/v1/admin/transport-bookings → adminListTransportBookings
 *   GET  /api/v1/admin/transport-bookings/stats/summary → adminGetTransportBookingStats
 *   GET  /api/v1/admin/transport-bookings/{booking_id} → adminGetTransportBooking
 *   POST /api/v1/admin/transport-bookings/{booking_id}/override-status → adminOverrideTransportBookingStatus
 */
import type { Routes } from '../../kernel/types.ts';
import type { ReservationDomainDeps } from './deps.ts';
import { engine } from './engine.ts';
import { hotel } from './hotel/index.ts';
import { transport } from './transport/index.ts';

export function adminReservationRoutes(deps: ReservationDomainDeps): Routes {
  const h = engine(deps, hotel);
  const t = engine(deps, transport);
  return {
    adminListHotelBookings: h.adminList,
    adminGetHotelBookingStats: h.adminStats,
    adminGetHotelBooking: h.adminGet,
    adminOverrideHotelBookingStatus: h.adminOverride,
    adminListTransportBookings: t.adminList,
    adminGetTransportBookingStats: t.adminStats,
    adminGetTransportBooking: t.adminGet,
    adminOverrideTransportBookingStatus: t.adminOverride,
  };
}
