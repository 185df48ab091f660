/**
 * Ticketing and servicing of a flight booking, one file per operation: issue.ts, status.ts, document.ts,
 * action.ts, servicing.ts.
 *
 * METHOD /path → operationId:
 *   GET  /api/v1/bookings/{booking_id}/servicing → listServicingRequests
 *   POST /api/v1/bookings/{booking_id}/ticket → issueTickets
 *   GET  /api/v1/bookings/{booking_id}/ticket/document → getTicketDocument
 *   GET  /api/v1/bookings/{booking_id}/ticket/status → getTicketStatus
 *   POST /api/v1/bookings/{booking_id}/ticket/{action} → performTicketAction
 */
import type { BodyFor, Handler, OperationContext, OperationId, Routes } from '../../../kernel/types.ts';
import { ticketAction } from './action.ts';
import type { TicketingDeps } from './deps.ts';
import { ticketDocument } from './document.ts';
import { issueTickets } from './issue.ts';
import { listServicing } from './servicing.ts';
import { ticketStatus } from './status.ts';

const ok =
  <Op extends OperationId>(fn: (ctx: OperationContext<Op>) => Promise<BodyFor<Op>>): Handler<Op> =>
  async (ctx) => ({ status: 200, body: await fn(ctx) });

export function ticketingRoutes(t: TicketingDeps): Routes {
  return {
    issueTickets: (c) => issueTickets(t, c),
    getTicketStatus: ok((c) => ticketStatus(t, c)),
    getTicketDocument: ok((c) => ticketDocument(t, c)),
    performTicketAction: ok((c) => ticketAction(t, c)),
    listServicingRequests: ok((c) => listServicing(t, c)),
  };
}
