import { writeAudit } from '../../../audit/audit-log.ts';
import { notFound, notSupported } from '../../../kernel/errors.ts';
import type { OperationContext } from '../../../kernel/types.ts';
import type { TicketDocument, TicketStatus } from '../../../suppliers/ports/flight.ts';
import { bagsIssued, bookedBags } from '../bags.ts';
import { canTransition } from '../state-machine.ts';
import { type BookingRow, findBooking, loadBooking, transition, updateBooking } from '../store.ts';
import { flightSupplierOf, supplierFailure } from '../suppliers.ts';
import { json } from '../tables.ts';
import type { Actor, TicketingDeps } from './deps.ts';
import { FOLLOWS, followTickets, settledBy } from './follow-tickets.ts';
import { saveTickets } from './store.ts';

/** Async issuance (Placed, then Ticketed): reading the status also completes the booking when issued. */
export async function ticketStatus(t: TicketingDeps, ctx: OperationContext<'getTicketStatus'>) {
  const b = await loadBooking(t.d.db, ctx, ctx.params.booking_id);
  const supplier = flightSupplierOf(t.d.suppliers, b.supplier);
  if (!supplier.capabilities.ticketStatus)
    throw notSupported(
      'not_supported_by_provider',
      `Supplier ${b.supplier} issues tickets synchronously; there is no ticketing status.`,
    );
  if (!b.supplier_order_ref) throw notFound('booking_not_found', 'The booking has no supplier order yet.');
  const s = await readStatus(t, ctx, b, ctx.signal);
  return {
    booking_id: b.id,
    issued: s.issued,
    raw_status: s.raw_status,
    raw_status_text: s.raw_status_text,
  };
}

/**
 * Reads the supplier's ticket status and moves the booking on (issued -> ticketed with its documents; a
 * later raw status -> the booking follows its tickets). GET …/ticket/status and the follow-up job.
 */
export async function readStatus(
  t: TicketingDeps,
  actor: Actor,
  b: BookingRow,
  signal?: AbortSignal,
): Promise<TicketStatus> {
  const supplier = flightSupplierOf(t.d.suppliers, b.supplier);
  const ref = b.supplier_order_ref as string;
  let s: TicketStatus;
  try {
    s = await supplier.ticketStatus(ref, { signal });
  } catch (err) {
    return supplierFailure(err, {
      failed: 'ticketing_failed',
      unsupported: 501,
      notFound: 'booking_not_found',
    });
  }
  if (s.issued && b.status !== 'ticketed' && canTransition(b.status, 'ticket_issued')) {
    const docs = await supplier.ticketDocuments(ref).catch(() => [] as TicketDocument[]);
    await t.d.db.transaction().execute(async (trx) => {
      const now = t.d.clock.now();
      const fresh = (await findBooking(trx, b.id, { forUpdate: true })) as BookingRow;
      const bags = bookedBags(fresh);
      if (canTransition(fresh.status, 'ticket_issued')) {
        await transition(trx, fresh, 'ticket_issued', now, {
          ticket_raw_status: s.raw_status,
          ...(bags.length > 0 ? { offer: json({ ...fresh.offer, booked_bags: bagsIssued(bags) }) } : {}),
        });
        if (!actor)
          await writeAudit(trx, null, {
            entity: 'booking',
            entityId: b.id,
            action: 'ticketed',
            reason: `ticket status ${s.raw_status} read by the follow-up job`,
            changes: { raw_status: s.raw_status },
            companyId: b.company_id,
          });
      }
      await saveTickets(trx, b.id, docs, now);
    });
    // Issued and already voided or refunded before anyone looked: the booking follows at once.
    if (settledBy(docs)) await followTickets(t, actor, b, { docs, cause: `ticket status ${s.raw_status}` });
  } else if (s.issued && s.raw_status !== b.ticket_raw_status && FOLLOWS.includes(b.status)) {
    // The ticket changed at the supplier since we last looked (a consolidator completing a void or a
    // refund request): the booking follows its document.
    await followTickets(t, actor, b, { cause: `ticket status ${s.raw_status} (${s.raw_status_text})` });
    await updateBooking(t.d.db, b.id, t.d.clock.now(), { ticket_raw_status: s.raw_status });
  }
  return s;
}
