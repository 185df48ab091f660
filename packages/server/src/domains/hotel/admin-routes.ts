/** /admin/hotel-bookings: every company's hotel bookings, stats, audit trail and the audited override. */
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
