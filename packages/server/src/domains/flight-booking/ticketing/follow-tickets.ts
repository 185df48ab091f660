import { writeAudit } from '../../../audit/audit-log.ts';
import type { Db } from '../../../storage/schema.ts';
import type { TicketDocument } from '../../../suppliers/ports/flight.ts';
import { recordServicing } from '../servicing-events.ts';
import { type BookingEvent, type BookingStatus, canTransition, TICKET_SETTLES } from '../state-machine.ts';
import { type BookingRow, findBooking, transition } from '../store.ts';
import type { Actor, TicketingDeps } from './deps.ts';
import { queueTicketFollowUp } from './follow-up.ts';
import { readDocuments } from './read-documents.ts';
import { saveTickets } from './store.ts';

/** Statuses a booking holding live tickets can be in (ticket_voided and ticket_refunded leave from them). */
export const FOLLOWS: readonly BookingStatus[] = ['ticketed', 'confirmed', 'paid'];

const COUPON_EVENTS: Record<string, BookingEvent> = {
  VOID: 'ticket_voided',
  REFUNDED: 'ticket_refunded',
};

/** The booking event a document settles: every coupon VOID, or every coupon REFUNDED. */
export function settledBy(docs: TicketDocument[]): BookingEvent | null {
  const coupons = docs.flatMap((d) => d.coupons.map((c) => c.status));
  if (coupons.length === 0) return null;
  for (const [status, event] of Object.entries(COUPON_EVENTS))
    if (coupons.every((c) => c === status)) return event;
  return null;
}

/**
 * The booking follows its ticket document: coupons all VOID -> ticket_voided, all REFUNDED ->
 * ticket_refunded. Runs on a confirmed action (whose coupon status the supplier may report before its
 * documents show it) and whenever a read finds a servicing request done later (consolidators).
 */
export async function followTickets(
  t: TicketingDeps,
  actor: Actor,
  b: BookingRow,
  o: {
    docs?: TicketDocument[];
    coupon?: string | undefined;
    cause: string;
    /**
     * A void/refund just raised: when the booking does not move now, the follow-up job is queued and
     * `servicing.updated` recorded (same transaction); when it moves, its ticket.* event stands for it.
     */
    followUp?: { request_id: string | null; type: 'void' | 'refund' } | undefined;
  },
) {
  const docs = o.docs ?? (await readDocuments(t, b).catch(() => [] as TicketDocument[]));
  const event = settledBy(docs) ?? COUPON_EVENTS[o.coupon ?? ''] ?? null;
  return t.d.db.transaction().execute(async (trx: Db) => {
    const fresh = (await findBooking(trx, b.id, { forUpdate: true })) as BookingRow;
    if (docs.length > 0 && !o.docs) await saveTickets(trx, b.id, docs, t.d.clock.now());
    if (!event || !canTransition(fresh.status, event)) {
      if (o.followUp && FOLLOWS.includes(fresh.status)) {
        const { request_id, type } = o.followUp;
        await queueTicketFollowUp(trx, t.d.clock, { booking_id: b.id, kind: 'servicing', request_id });
        const ids = request_id ? [request_id] : [];
        const change = { kind: 'servicing_request', action: 'requested', type, ids } as const;
        await recordServicing(trx, b.id, change, t.d.clock.now());
      }
      return fresh.status;
    }
    const after = await transition(trx, fresh, event, t.d.clock.now());
    // The money goes back with the tickets: the mover settles inline, this job if it dies first.
    if (TICKET_SETTLES.includes(after.status)) await t.payments.queueTicketSettlement(trx, b.id);
    await writeAudit(trx, actor, {
      entity: 'booking',
      entityId: b.id,
      action: event === 'ticket_voided' ? 'ticket_void' : 'ticket_refund',
      reason: o.cause,
      changes: { from: fresh.status, to: after.status },
      companyId: b.company_id,
    });
    return after.status;
  });
}
