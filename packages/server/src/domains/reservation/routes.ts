/**
 * Hotel and transport operations of the user surface (re-check, book, the caller's bookings, cancel),
 * one engine (engine.ts) bound to each vertical.
 *
 * METHOD /path → operationId:
 *   POST /api/v1/hotel/book → bookHotel
 *   GET  /api/v1/hotel/bookings → listHotelBookings
 *   GET  /api/v1/hotel/bookings/{booking_id} → getHotelBooking
 *   POST /api/v1/hotel/bookings/{booking_id}/cancel → cancelHotelBooking
 *   GET  /api/v1/hotel/bookings/{booking_id}/cancellation-quote → quoteHotelCancellation
 *   POST /api/v1/hotel/check-rate → checkHotelRate
 *   POST /api/v1/transport/book → bookTransport
 *   GET  /api/v1/transport/bookings → listTransportBookings
 *   GET  /api/v1/transport/bookings/{booking_id} → getTransportBooking
 *   POST /api/v1/transport/bookings/{booking_id}/cancel → cancelTransportBooking
 *   POST /api/v1/transport/quote → quoteTransport
 */
import type { Routes } from '../../kernel/types.ts';
import type { ReservationDomainDeps } from './deps.ts';
import { engine } from './engine.ts';
import { quoteHotelCancellation } from './hotel/cancel.ts';
import { hotel } from './hotel/index.ts';
import { transport } from './transport/index.ts';

export function reservationRoutes(deps: ReservationDomainDeps): Routes {
  const h = engine(deps, hotel);
  const t = engine(deps, transport);
  return {
    checkHotelRate: h.check,
    bookHotel: h.book,
    listHotelBookings: h.listOwn,
    getHotelBooking: h.getOwn,
    cancelHotelBooking: h.cancel,
    quoteHotelCancellation: (ctx) => quoteHotelCancellation(deps, ctx),
    quoteTransport: t.check,
    bookTransport: t.book,
    listTransportBookings: t.listOwn,
    getTransportBooking: t.getOwn,
    cancelTransportBooking: t.cancel,
  };
}
