/**
 * Every operation under /api/v1/bookings and the admin flight-booking operations, by operationId.
 * `bookingRoutes(deps)` mounts the booking, payment, ticketing and ancillary domains together because
 * they share one booking lookup and one state machine.
 *
 * METHOD /path → operationId:
 *   GET   /api/v1/admin/bookings → adminListBookings
 *   GET   /api/v1/admin/bookings/reconciliation → adminGetReconciliationQueue
 *   GET   /api/v1/admin/bookings/{booking_id} → adminGetBooking
 *   POST  /api/v1/admin/bookings/{booking_id}/override-status → adminOverrideBookingStatus
 *   POST  /api/v1/admin/bookings/{booking_id}/reconcile → adminReconcileBooking
 *   POST  /api/v1/bookings/bags/catalogue → getBagCatalogue
 *   POST  /api/v1/bookings/bags/reprice → repriceWithBags
 *   POST  /api/v1/bookings/createPnr → createPnr
 *   POST  /api/v1/bookings/fareRules → getFareRules
 *   POST  /api/v1/bookings/revalidation → revalidateOffer
 *   POST  /api/v1/bookings/upsell → getUpsellOffers
 *   GET   /api/v1/bookings/{booking_id} → getBooking
 *   POST  /api/v1/bookings/{booking_id}/cancel → cancelBooking
 *   PATCH /api/v1/bookings/{booking_id}/commission → updateBookingCommission
 *   PATCH /api/v1/bookings/{booking_id}/foid → updateBookingFoid
 *   POST  /api/v1/bookings/{booking_id}/notes → addBookingNotes
 *   GET   /api/v1/bookings/{booking_id}/order → getBookingOrder
 *   GET   /api/v1/bookings/{booking_id}/order/by-reference → getBookingOrderByReference
 *   GET   /api/v1/bookings/{booking_id}/rules → getBookingFareRules
 */
import type { Handler, HandlerResult, OperationContext, OperationId, Routes } from '../../kernel/types.ts';
import { ancillaryRoutes } from '../ancillary/routes.ts';
import { AncillaryService } from '../ancillary/service.ts';
import { paymentRoutes } from '../payment/routes.ts';
import { PaymentService } from '../payment/service.ts';
import { ticketingRoutes } from '../ticketing/routes.ts';
import { TicketingService } from '../ticketing/service.ts';
import { BookingAdmin } from './admin.ts';
import type { BookingDeps } from './deps.ts';
import { PricingService } from './pricing.ts';
import { BookingService } from './service.ts';

export const ok =
  <Op extends OperationId>(fn: (ctx: OperationContext<Op>) => Promise<unknown>): Handler<Op> =>
  async (ctx): Promise<HandlerResult> => ({ status: 200, body: await fn(ctx) });

export function bookingRoutes(d: BookingDeps): Routes {
  const payments = new PaymentService(d);
  const bookings = new BookingService(d, payments);
  const pricing = new PricingService(d);
  const admin = new BookingAdmin(d);
  return {
    revalidateOffer: ok((c) => pricing.revalidate(c)),
    getUpsellOffers: ok((c) => pricing.upsell(c)),
    getBagCatalogue: ok((c) => pricing.bagCatalogue(c)),
    repriceWithBags: ok((c) => pricing.repriceBags(c)),
    getFareRules: ok((c) => pricing.fareRules(c)),
    getBookingFareRules: ok((c) => pricing.bookingRules(c)),
    createPnr: (c) => bookings.createPnr(c),
    getBooking: ok((c) => bookings.get(c)),
    cancelBooking: (c) => bookings.cancel(c),
    getBookingOrder: ok((c) => bookings.order(c)),
    getBookingOrderByReference: ok((c) => bookings.orderByReference(c)),
    updateBookingFoid: ok((c) => bookings.foid(c)),
    updateBookingCommission: ok((c) => bookings.commission(c)),
    addBookingNotes: ok((c) => bookings.notes(c)),
    adminListBookings: ok((c) => admin.list(c)),
    adminGetReconciliationQueue: ok((c) => admin.queue(c)),
    adminGetBooking: ok((c) => admin.detail(c)),
    adminOverrideBookingStatus: ok((c) => admin.override(c)),
    adminReconcileBooking: ok((c) => admin.reconcile(c)),
    ...paymentRoutes(payments, (c, b) => bookings.afterAuthorized(c, b)),
    ...ticketingRoutes(new TicketingService(d, payments)),
    ...ancillaryRoutes(new AncillaryService(d)),
  };
}

export type { BookingDeps } from './deps.ts';
export { bookingJobHandlers } from './reconciliation.ts';
export { type BookingSuppliers, sandboxBookingSuppliers } from './suppliers.ts';
