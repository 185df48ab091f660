/**
 * The payment sub-aggregate: what the rest of flight-booking, the surfaces and the jobs may use of it.
 *
 * Payments through the PaymentProvider adapter, written ahead (money-ops.ts): one short transaction locks
 * the booking, checks the move under the lock and commits the intent (a PENDING payment or a pending
 * transaction row, and the `booking_money_ops` row with its reconciliation job); then the provider is
 * called with its own Idempotency-Key `bk<booking>:<movement>:<Idempotency-Key>`; then one transaction
 * settles the rows and the booking (and, through ctx.transaction, stores the idempotent response).
 * An answer the provider may have acted on and that was lost (timeout, reset, 5xx after create) is never a
 * 500 or a stored failure: it is answered 202 with the payment as it stands and `outcome: "pending"`, and
 * the `money.reconcile` job settles it by asking the provider by reference (authorize: the PaymentIntent
 * carrying metadata `intent_ref`; capture, void, refund: the same call with the same Idempotency-Key,
 * which the provider replays or performs exactly once).
 *
 * One file per operation: authorize.ts (reconcile-authorize.ts), capture-void-refund.ts (movement.ts,
 * run-movement.ts, record-movement.ts), history.ts, move-within.ts (a cancel's movement), reconcile.ts
 * (the money job), cancel.ts, ticket-settlement.ts, unticketed-refund.ts; payment-service.ts holds them
 * as the one object the parent hands around.
 */
export type { AfterAuthorize } from './authorize.ts';
export { type MovePlan, movementDetail } from './movement.ts';
export { PaymentService } from './payment-service.ts';
export { findPayment, listPaymentRows, paymentsWithTransactions } from './queries.ts';
export { paymentRoutes } from './routes.ts';
export {
  findPaymentById,
  latestPayment,
  listPayments,
  type PaymentRow,
  paymentView,
  paymentWithTransactions,
  transactionsOf,
} from './store.ts';
export {
  projectedSettlement,
  queueTicketSettlement,
  settleTicketChange,
  ticketSettlementJobHandlers,
} from './ticket-settlement.ts';
export { refundUnticketed } from './unticketed-refund.ts';
