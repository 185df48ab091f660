/**
 * Transport operations of the user surface (quote, book, the caller's bookings, cancel).
 *
 * METHOD /path → operationId:
 *   POST /api/v1/transport/book → bookTransport
 *   GET  /api/v1/transport/bookings → listTransportBookings
 *   GET  /api/v1/transport/bookings/{booking_id} → getTransportBooking
 *   POST /api/v1/transport/bookings/{booking_id}/cancel → cancelTransportBooking
 *   POST /api/v1/transport/quote → quoteTransport
 */
import type { Routes } from '../../kernel/types.ts';
import { bookTransport } from './book.ts';
import { cancelTransportBooking } from './cancel.ts';
import type { TransportDeps } from './deps.ts';
import { quoteTransport } from './quote.ts';
import { transportSurfaces } from './surfaces.ts';

export function transportRoutes(deps: TransportDeps): Routes {
  const s = transportSurfaces(deps);
  return {
    quoteTransport: (ctx) => quoteTransport(deps, ctx),
    bookTransport: (ctx) => bookTransport(deps, ctx),
    listTransportBookings: s.listOwn,
    getTransportBooking: s.getOwn,
    cancelTransportBooking: (ctx) => cancelTransportBooking(deps, ctx, 'any'),
  };
}
