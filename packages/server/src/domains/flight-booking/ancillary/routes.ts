/**
 * Seats, baggage and ancillary services of a flight booking; `service.ts` does the work.
 *
 * METHOD /path → operationId:
 *   POST /api/v1/bookings/{booking_id}/ancillaries → addSpecialServiceRequest
 *   POST /api/v1/bookings/{booking_id}/ancillaries/cancel → cancelAncillaries
 *   GET  /api/v1/bookings/{booking_id}/ancillaries/catalogue → getAncillaryCatalogue
 *   POST /api/v1/bookings/{booking_id}/ancillaries/emd → issueAncillaryEmds
 *   POST /api/v1/bookings/{booking_id}/ancillaries/purchase → purchaseAncillaries
 *   GET  /api/v1/bookings/{booking_id}/baggage → getBaggage
 *   GET  /api/v1/bookings/{booking_id}/seats → getSeatMap
 *   POST /api/v1/bookings/{booking_id}/seats → selectSeat
 *   POST /api/v1/bookings/{booking_id}/seats/batch → selectSeatsBatch
 *   POST /api/v1/bookings/{booking_id}/seats/issue → issueSeats
 */
import type { BodyFor, Handler, OperationContext, OperationId, Routes } from '../../../kernel/types.ts';
import type { AncillaryService } from './service.ts';

const ok =
  <Op extends OperationId>(fn: (ctx: OperationContext<Op>) => Promise<BodyFor<Op>>): Handler<Op> =>
  async (ctx) => ({ status: 200, body: await fn(ctx) });

export function ancillaryRoutes(a: AncillaryService): Routes {
  return {
    getSeatMap: ok((c) => a.seatMap(c)),
    selectSeat: ok((c) => a.selectSeat(c)),
    selectSeatsBatch: ok((c) => a.selectBatch(c)),
    issueSeats: (c) => a.issueSeats(c),
    getBaggage: ok((c) => a.baggage(c)),
    addSpecialServiceRequest: ok((c) => a.addSsr(c)),
    getAncillaryCatalogue: ok((c) => a.catalogue(c)),
    purchaseAncillaries: (c) => a.purchase(c),
    issueAncillaryEmds: (c) => a.issueEmds(c),
    cancelAncillaries: ok((c) => a.cancel(c)),
  };
}
