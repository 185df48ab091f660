/**
 * /customer/transport-bookings: only the customer's own transport bookings.
 *
 * METHOD /path → operationId:
 *   GET  /api/v1/customer/transport-bookings → customerListTransportBookings
 *   GET  /api/v1/customer/transport-bookings/{booking_id} → customerGetTransportBooking
 *   POST /api/v1/customer/transport-bookings/{booking_id}/cancel → customerCancelTransportBooking
 */
import type { Routes } from '../../kernel/types.ts';
import { cancelTransportBooking } from './cancel.ts';
import type { TransportDeps } from './deps.ts';
import { transportSurfaces } from './surfaces.ts';

export function customerTransportRoutes(deps: TransportDeps): Routes {
  const s = transportSurfaces(deps);
  return {
    customerListTransportBookings: s.listOwn,
    customerGetTransportBooking: s.getCustomer,
    customerCancelTransportBooking: (ctx) => cancelTransportBooking(deps, ctx, 'user'),
  };
}
