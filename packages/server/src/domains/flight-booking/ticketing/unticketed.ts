/**
 * A booking whose card was captured but that holds no ticket (`paid`) after its ticketing ended without
 * one: the op was concluded `ticketing_unconfirmed` (no tickets at the supplier after the call window), or
 * the supplier refused the issuance after the capture. Nothing may be left like that: the durable job
 * `ticketing.unticketed` (queued in the transaction that ends the op) follows it up.
 *
 * After `UNTICKETED_REFUND_DELAY_MS` (default 10 min: the client's same-key retry, which tickets without
 * capturing again, comes first) the job asks the supplier first:
 * - tickets found (the issuance happened after all) -> the booking becomes `ticketed`;
 * - none -> the capture is refunded in full (a written-ahead `refund` op with its fixed provider key, so
 *   it happens once), and the booking becomes `refunded`.
 * Either way the booking's status says which, and the audit log records why (`unticketed_ticketed`,
 * `unticketed_refunded`). A booking that moved on meanwhile (ticketed by a retry, cancelled) is left alone.
 */
import { writeAudit } from '../../../audit/audit-log.ts';
import type { Job, JobHandler } from '../../../jobs/runner.ts';
import type { TicketDocument } from '../../../suppliers/ports/flight.ts';
import type { BookingDeps } from '../deps.ts';
import { inFlightOp } from '../money-ops.ts';
import { canTransition } from '../state-machine.ts';
import { type BookingRow, findBooking, transition } from '../store.ts';
import { saveTickets } from './store.ts';

type Probe = (b: BookingRow) => Promise<{ issued: boolean; raw_status: string; tickets: TicketDocument[] }>;

/** Refunds the capture of a booking still `paid` without a ticket (payment/unticketed-refund.ts). */
type Refund = (bookingId: number, reason: string) => Promise<unknown>;

export function unticketedHandler(d: BookingDeps, probe: Probe, refund: Refund): JobHandler {
  return async (job: Job) => {
    const { db, clock } = d;
    const { booking_id: id, reason } = job.payload as { booking_id: number; reason: string };
    const b = await findBooking(db, id);
    if (b?.status !== 'paid') return;
    if (await inFlightOp(db, id)) throw new Error(`booking ${id} has an operation in flight`);
    const found = await probe(b); // unreachable: thrown, looked at again
    if (found.issued) {
      await db.transaction().execute(async (trx) => {
        const fresh = (await findBooking(trx, id, { forUpdate: true })) as BookingRow;
        if (!canTransition(fresh.status, 'ticket_issued') || fresh.status !== 'paid') return;
        const now = clock.now();
        await transition(trx, fresh, 'ticket_issued', now, { ticket_raw_status: found.raw_status });
        await saveTickets(trx, id, found.tickets, now);
        await writeAudit(trx, null, {
          entity: 'booking',
          entityId: id,
          action: 'unticketed_ticketed',
          reason: `follow-up: tickets found at the supplier (${reason})`,
          changes: { raw_status: found.raw_status },
          companyId: fresh.company_id,
        });
      });
      return;
    }
    await refund(id, reason);
  };
}
