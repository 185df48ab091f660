import type { HandlerResult, JsonResult, RequestContext } from '../../../kernel/types.ts';
import type { Db } from '../../../storage/schema.ts';
import { type MoneyOp, markPending, recordedAnswer } from '../money-ops.ts';
import { type BookingRow, findBooking } from '../store.ts';
import type { TicketingDeps } from './deps.ts';
import { storedTickets } from './store.ts';

export const TICKETING_PENDING_MESSAGE =
  'The supplier (or the payment provider) did not confirm the outcome: its answer was lost or timed out. Nothing is done twice: the outcome is being settled with the supplier and the booking moves to ticketed once tickets are found. Read the booking or ticket/document; do not retry with a new Idempotency-Key.';

/** 202: the ticketing (or its capture) outcome is unknown; the `money.reconcile` job settles it. */
export async function pendingIssue(
  t: TicketingDeps,
  ctx: RequestContext,
  op: MoneyOp,
  bookingId: number,
  reason: string,
): Promise<HandlerResult> {
  ctx.log.warn({ booking: bookingId, op: op.id, reason }, 'ticketing outcome unknown: pending');
  return ctx.transaction(async (trx) => {
    await markPending(trx, t.d.clock, op.id, reason);
    return { status: 202, body: await pendingBody(t, trx, bookingId) };
  });
}

export async function pendingBody(t: TicketingDeps, db: Db, bookingId: number) {
  const fresh = (await findBooking(db, bookingId)) as BookingRow;
  const pay = await t.payments.latest(db, bookingId);
  return {
    booking_id: bookingId,
    status: fresh.status,
    issued: false,
    raw_status: 'pending',
    tickets: [],
    payment: pay ? await t.payments.view(db, pay) : null,
    outcome: 'pending' as const,
    message: TICKETING_PENDING_MESSAGE,
  };
}

/**
 * What a ticket op's request would have answered, for a same-key retry: the answer recorded when it was
 * settled, else, for a done op, the booking's tickets as they stand. A failed op, or one whose capture
 * alone was settled (the tickets were never asked for), runs anew: the capture is not repeated.
 */
export async function ticketAnswer(t: TicketingDeps, db: Db, op: MoneyOp): Promise<JsonResult | null> {
  const recorded = recordedAnswer(op);
  if (recorded !== undefined) return recorded;
  if (op.status !== 'done' || op.detail.stage === 'capture') return null;
  const b = (await findBooking(db, op.booking_id)) as BookingRow;
  const pay = await t.payments.latest(db, b.id);
  return {
    status: 200,
    body: {
      booking_id: b.id,
      status: b.status,
      issued: b.status === 'ticketed',
      raw_status: b.ticket_raw_status ?? (b.status === 'ticketed' ? 'issued' : 'unknown'),
      tickets: await storedTickets(db, b.id),
      payment: pay ? await t.payments.view(db, pay) : null,
    },
  };
}
