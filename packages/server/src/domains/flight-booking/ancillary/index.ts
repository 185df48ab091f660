/**
 * The ancillary sub-aggregate: what the rest of flight-booking may use of it.
 *
 * Seats, baggage, SSRs and paid ancillaries: catalogue -> purchase (held, one TSM per service) -> EMD
 * issuance -> cancel (issued EMD voided, unissued service removed, cancelled/refunded skipped). One file
 * per operation (routes.ts names them); a paid change runs through serialized.ts and, when its answer was
 * lost, is settled by reconcile.ts.
 */
export { reconcileServiceOp } from './reconcile.ts';
export { ancillaryRoutes } from './routes.ts';
export { ancillaryView, listAncillaries } from './store.ts';
