/**
 * The ticketing sub-aggregate: what the rest of flight-booking may use of it.
 *
 * Ticketing: issue (capturing an authorized payment first unless capture=false; a captured payment is
 * left alone; bags the supplier takes only on a paid order added right after), async status, documents,
 * void/refund/reissue with confirm semantics, servicing list. The booking follows its tickets: on a
 * confirmed action, and on any read (status, document, servicing) that finds a consolidator's request done.
 * A booking nobody reads is followed by a durable job (follow-up.ts) that runs the same reads.
 *
 * One file per operation: issue.ts (issue-answers.ts), status.ts, document.ts, action.ts, servicing.ts;
 * the booking following its tickets in follow-tickets.ts; the jobs (jobs.ts) run follow-up-handler.ts,
 * reconcile.ts (the money job) and unticketed.ts.
 */
export type { TicketingDeps, TicketPayments } from './deps.ts';
export { ticketingJobs } from './jobs.ts';
export { ticketingRoutes } from './routes.ts';
export { storedTickets } from './store.ts';
