/**
 * Ticketing and servicing of a flight booking; `service.ts` does the work.
 *
 * METHOD /path → operationId:
 *   GET  /api/v1/bookings/{booking_id}/servicing → listServicingRequests
 *   POST /api/v1/bookings/{booking_id}/ticket → issueTickets
 *   GET  /api/v1/bookings/{booking_id}/ticket/document → getTicketDocument
 *   GET  /api/v1/bookings/{booking_id}/ticket/status → getTicketStatus
 *   POST /api/v1/bookings/{booking_id}/ticket/{action} → performTicketAction
 */
import type { BodyFor, Handler, OperationContext, OperationId, Routes } from '../../../kernel/types.ts';
import type { TicketingService } from './service.ts';

const ok =
  <Op extends OperationId>(fn: (ctx: OperationContext<Op>) => Promise<BodyFor<Op>>): Handler<Op> =>
  async (ctx) => ({ status: 200, body: await fn(ctx) });

export function ticketingRoutes(t: TicketingService): Routes {
  return {
    issueTickets: (c) => t.issue(c),
    getTicketStatus: ok((c) => t.status(c)),
    getTicketDocument: ok((c) => t.document(c)),
    performTicketAction: ok((c) => t.action(c)),
    listServicingRequests: ok((c) => t.servicing(c)),
  };
}
