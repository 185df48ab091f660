/**
 * /admin/transport-bookings: every company's transport bookings, stats, audit trail and the audited override.
 *
 * METHOD /path → operationId:
 *   GET  /api/v1/admin/transport-bookings → adminListTransportBookings
 *   GET  /api/v1/admin/transport-bookings/stats/summary → adminGetTransportBookingStats
 *   GET  /api/v1/admin/transport-bookings/{booking_id} → adminGetTransportBooking
 *   POST /api/v1/admin/transport-bookings/{booking_id}/override-status → adminOverrideTransportBookingStatus
 */
import type { Routes } from '../../kernel/types.ts';
import type { TransportDeps } from './deps.ts';
import { transportSurfaces } from './surfaces.ts';

export function adminTransportRoutes(deps: TransportDeps): Routes {
  const s = transportSurfaces(deps);
  return {
    adminListTransportBookings: s.adminList,
    adminGetTransportBookingStats: s.adminStats,
    adminGetTransportBooking: s.adminGet,
    adminOverrideTransportBookingStatus: s.adminOverride,
  };
}
