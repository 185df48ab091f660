import { notFound } from '../../../kernel/errors.ts';
import type { OperationContext } from '../../../kernel/types.ts';
import { loadBooking } from '../store.ts';
import type { TicketingDeps } from './deps.ts';
import { FOLLOWS, followTickets, settledBy } from './follow-tickets.ts';
import { readDocuments } from './read-documents.ts';

/** The booking follows the document it reads (coupons all VOID or REFUNDED). */
export async function ticketDocument(t: TicketingDeps, ctx: OperationContext<'getTicketDocument'>) {
  const b = await loadBooking(t.d.db, ctx, ctx.params.booking_id);
  const docs = await readDocuments(t, b);
  if (docs.length === 0) throw notFound('ticket_not_found', 'The booking has no tickets yet.');
  if (FOLLOWS.includes(b.status) && settledBy(docs))
    await followTickets(t, ctx, b, { docs, cause: 'ticket document read' });
  return { booking_id: b.id, pnr: b.pnr, tickets: docs };
}
