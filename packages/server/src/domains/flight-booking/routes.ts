/**
 * Every operation under /api/v1/bookings and the admin flight-booking operations, by operationId.
 * `bookingRoutes(deps)` mounts the booking, payment, ticketing and ancillary domains together because
 * they share one booking lookup and one state machine.
 *
 * METHOD /path → operationId:
 *   GET   /api/v1/admin/bookings → adminListBookings
 *   GET   /api/v1/admin/bookings/reconciliation → adminGetReconciliationQueue
 *   GET   /api/v1/admin/bookings/{booking_id} → adminGetBooking
 *   GET   /api/v1/admin/bookings/{booking_id}/timeline → adminGetBookingTimeline
 *   GET   /api/v1/company/bookings/{booking_id}/timeline → companyGetBookingTimeline
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
 *
 * Schedule changes (/api/v1/bookings/{booking_id}/schedule-changes/*): schedule-changes/routes.ts.
 */

import type { JobHandler } from '../../jobs/runner.ts';
import type {
  BodyFor,
  Handler,
  HandlerResult,
  OperationContext,
  OperationId,
  Routes,
} from '../../kernel/types.ts';
import { BookingAdmin } from './admin.ts';
import { afterAuthorized } from './after-authorize.ts';
import { updateCommission, updateFoid } from './amend.ts';
import { ancillaryRoutes, reconcileServiceOp } from './ancillary/index.ts';
import { createPnr } from './create-pnr.ts';
import type { BookingDeps } from './deps.ts';
import { addNotes } from './notes.ts';
import { cancelBooking } from './payment/cancel.ts';
import {
  latestPayment,
  type MovePlan,
  type PaymentRow,
  PaymentService,
  paymentRoutes,
  paymentWithTransactions,
  projectedSettlement,
  queueTicketSettlement,
  refundUnticketed,
  settleTicketChange,
  ticketSettlementJobHandlers,
} from './payment/index.ts';
import { PricingService } from './pricing.ts';
import { bookingOrder, bookingOrderByReference, getBooking } from './reads.ts';
import { scheduleChangeRoutes } from './schedule-changes/index.ts';
import { loadBooking } from './store.ts';
import {
  type TicketingDeps,
  type TicketPayments,
  ticketingJobs,
  ticketingRoutes,
} from './ticketing/index.ts';
import { bookingTimeline } from './timeline.ts';

export const ok =
  <Op extends OperationId>(fn: (ctx: OperationContext<Op>) => Promise<BodyFor<Op>>): Handler<Op> =>
  async (ctx) => ({ status: 200, body: await fn(ctx) });

/**
 * The payment sub-aggregate as ticketing needs it (a capture at ticketing, the payment in its answers):
 * wired here so that ticketing/ and payment/ never import each other.
 */
function ticketPayments(d: BookingDeps, payments: PaymentService): TicketPayments {
  return {
    latest: latestPayment,
    view: (db, p) => paymentWithTransactions(db, p as PaymentRow),
    planCapture: (trx, b, p, key) =>
      payments.planMovement(trx, b, p as PaymentRow, 'capture', undefined, null, key),
    callMovement: (plan, signal) => payments.callMovement(plan as MovePlan, signal),
    failMovement: (trx, plan, error) => payments.failMovement(trx, plan as MovePlan, error),
    recordMovement: (trx, id, plan, r, now) => payments.recordMovement(trx, id, plan as MovePlan, r, now),
    reconcile: (op) => payments.reconcile(op),
    settleTicketChange: (id, ctx) => settleTicketChange(d, payments, id, ctx ?? null),
    refundUnticketed: (id, reason) => refundUnticketed(d, payments, id, reason),
    projectedSettlement: (db, b, quote) => projectedSettlement(db, b, quote),
    queueTicketSettlement: (trx, id) => queueTicketSettlement(trx, d.clock, id),
  };
}

const ticketingOf = (d: BookingDeps, payments: PaymentService): TicketingDeps => ({
  d,
  payments: ticketPayments(d, payments),
  reconcileService: (op) => reconcileServiceOp(d, op),
});

/**
 * The ticket follow-up, money and ticket-settlement job handlers (beside reconcile.ts's
 * `bookingJobHandlers`).
 */
export function ticketingJobHandlers(d: BookingDeps): Record<string, JobHandler> {
  const payments = new PaymentService(d);
  return { ...ticketingJobs(ticketingOf(d, payments)), ...ticketSettlementJobHandlers(d, payments) };
}

export function bookingRoutes(d: BookingDeps): Routes {
  const payments = new PaymentService(d);
  const pricing = new PricingService(d);
  const admin = new BookingAdmin(d);
  return {
    revalidateOffer: ok((c) => pricing.revalidate(c)),
    getUpsellOffers: ok((c) => pricing.upsell(c)),
    getBagCatalogue: ok((c) => pricing.bagCatalogue(c)),
    repriceWithBags: ok((c) => pricing.repriceBags(c)),
    getFareRules: ok((c) => pricing.fareRules(c)),
    getBookingFareRules: ok((c) => pricing.bookingRules(c)),
    createPnr: (c) => createPnr(d, c),
    getBooking: ok((c) => getBooking(d, c)),
    // Cancels at the supplier, then releases or refunds our payment.
    cancelBooking: (c) => cancelBooking(d, payments, c),
    getBookingOrder: ok((c) => bookingOrder(d, c)),
    getBookingOrderByReference: ok((c) => bookingOrderByReference(d, c)),
    updateBookingFoid: ok((c) => updateFoid(d, c)),
    updateBookingCommission: ok((c) => updateCommission(d, c)),
    addBookingNotes: ok((c) => addNotes(d, c)),
    adminListBookings: ok((c) => admin.list(c)),
    adminGetReconciliationQueue: ok((c) => admin.queue(c)),
    adminGetBooking: ok((c) => admin.detail(c)),
    // A booking's story; the company's view is for its staff (the contract's roles), its own bookings only.
    adminGetBookingTimeline: ok(async (c) =>
      bookingTimeline(d, await loadBooking(d.db, c, c.params.booking_id)),
    ),
    companyGetBookingTimeline: ok(async (c) =>
      bookingTimeline(d, await loadBooking(d.db, c, c.params.booking_id)),
    ),
    adminOverrideBookingStatus: ok((c) => admin.override(c)),
    adminReconcileBooking: ok((c) => admin.reconcile(c)),
    ...paymentRoutes(payments, (c, b) => afterAuthorized(d, c, b)),
    ...ticketingRoutes(ticketingOf(d, payments)),
    ...ancillaryRoutes(d),
    ...scheduleChangeRoutes(d),
  };
}

export type { BookingDeps } from './deps.ts';
export { bookingJobHandlers } from './reconcile.ts';
export { scheduleChangeJobHandlers, scheduleScheduleChangeScan } from './schedule-changes/index.ts';
export { type BookingSuppliers, sandboxBookingSuppliers } from './suppliers.ts';
