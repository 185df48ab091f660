/** The flight-booking aggregate: flights from offer to ticket: routes, jobs, the store and views the surfaces read (its payment, ticketing and ancillary sub-aggregates have their own index.ts). Other folders import it through this file only (test/architecture.test.ts). */
export type { BookingDeps } from './deps.ts';
export { keysetBody, listBookings } from './list-query.ts';
export { answerRetry, beginOp, idemKey } from './money-ops.ts';
export { bookingCounts, countIfTable, revenueByDay, totalsByCurrency } from './revenue.ts';
export {
  bookingJobHandlers,
  bookingRoutes,
  scheduleChangeJobHandlers,
  scheduleScheduleChangeScan,
  ticketingJobHandlers,
} from './routes.ts';
export { findBooking, loadBooking, toViewRow, updateBooking, VIEW_COLUMNS } from './store.ts';
export type { BookingSuppliers } from './suppliers.ts';
export { bookingDb } from './tables.ts';
export { pendingCounts, topClients, topRoutes } from './top-lists.ts';
export { bookingView } from './view.ts';
