/**
 * Seats, baggage and ancillary services of a flight booking, one file per operation: seat-map.ts,
 * select-seats.ts, issue-seats.ts, baggage.ts, ssr.ts, catalogue.ts, purchase.ts, emd.ts, cancel.ts.
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
import type { BookingDeps } from '../deps.ts';
import { baggage } from './baggage.ts';
import { cancelAncillaries } from './cancel.ts';
import { ancillaryCatalogue } from './catalogue.ts';
import { issueEmds } from './emd.ts';
import { issueSeats } from './issue-seats.ts';
import { purchaseAncillaries } from './purchase.ts';
import { seatMap } from './seat-map.ts';
import { selectSeat, selectSeatsBatch } from './select-seats.ts';
import { addSsr } from './ssr.ts';

const ok =
  <Op extends OperationId>(fn: (ctx: OperationContext<Op>) => Promise<BodyFor<Op>>): Handler<Op> =>
  async (ctx) => ({ status: 200, body: await fn(ctx) });

export function ancillaryRoutes(d: BookingDeps): Routes {
  return {
    getSeatMap: ok((c) => seatMap(d, c)),
    selectSeat: ok((c) => selectSeat(d, c)),
    selectSeatsBatch: ok((c) => selectSeatsBatch(d, c)),
    issueSeats: (c) => issueSeats(d, c),
    getBaggage: ok((c) => baggage(d, c)),
    addSpecialServiceRequest: ok((c) => addSsr(d, c)),
    getAncillaryCatalogue: ok((c) => ancillaryCatalogue(d, c)),
    purchaseAncillaries: (c) => purchaseAncillaries(d, c),
    issueAncillaryEmds: (c) => issueEmds(d, c),
    cancelAncillaries: ok((c) => cancelAncillaries(d, c)),
  };
}
