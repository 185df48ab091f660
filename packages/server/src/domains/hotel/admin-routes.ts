/**
 * /admin/hotel-bookings: every company's hotel bookings, stats, audit trail and the audited override.
 *
 * METHOD /path → operationId:
 *   GET  /api/v1/admin/hotel-bookings → adminListHotelBookings
 *   GET  /api/v1/admin/hotel-bookings/stats/summary → adminGetHotelBookingStats
 *   GET  /api/v1/admin/hotel-bookings/{booking_id} → adminGetHotelBooking
 *   POST /api/v1/admin/hotel-bookings/{booking_id}/override-status → adminOverrideHotelBookingStatus
 */
import type { Routes } from '../../kernel/types.ts';
import type { HotelDeps } from './deps.ts';
import { hotelSurfaces } from './surfaces.ts';

export function adminHotelRoutes(deps: HotelDeps): Routes {
  const s = hotelSurfaces(deps);
  return {
    adminListHotelBookings: s.adminList,
    adminGetHotelBookingStats: s.adminStats,
    adminGetHotelBooking: s.adminGet,
    adminOverrideHotelBookingStatus: s.adminOverride,
  };
}
