import type { RequestContext, Routes } from '../../kernel/types.ts';
import type { TicketingService } from './service.ts';

const ok = (fn: (ctx: RequestContext) => Promise<unknown>) => async (ctx: RequestContext) => ({
  status: 200,
  body: await fn(ctx),
});

export function ticketingRoutes(t: TicketingService): Routes {
  return {
    issueTickets: (c) => t.issue(c),
    getTicketStatus: ok((c) => t.status(c)),
    getTicketDocument: ok((c) => t.document(c)),
    performTicketAction: ok((c) => t.action(c)),
    listServicingRequests: ok((c) => t.servicing(c)),
  };
}
