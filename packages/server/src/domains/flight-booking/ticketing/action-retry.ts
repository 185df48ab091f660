/**
 * A same-key retry of a confirmed ticket void or refund whose request died. It is answered from the op the
 * dead request wrote ahead, before any check of the booking's state: reconciliation may already have
 * confirmed the action and moved the booking (to cancelled or refunded), and the retry must answer that
 * success, not 400 `not_ticketed` for the state the action itself produced. Still unknown: the pending
 * determination. Nothing found (the op never reached the supplier): undefined, the request runs anew.
 */
import type { RequestContext } from '../../../kernel/types.ts';
import type { Db } from '../../../storage/schema.ts';
import { answerRetry, type MoneyOp, recordedAnswer } from '../money-ops.ts';
import type { BookingStatus } from '../state-machine.ts';
import { type BookingRow, findBooking } from '../store.ts';

export type TicketAction = 'void' | 'refund';

/** The 200 of a confirmed action whose outcome the supplier has not confirmed yet. */
export const pendingActionBody = (
  bookingId: number,
  action: TicketAction | 'reissue',
  status: BookingStatus,
) => ({
  booking_id: bookingId,
  action,
  confirmed: true,
  permitted: true,
  determination: 'pending_confirmation',
  message: `The supplier did not confirm the ${action} (its answer was lost). It is being settled with the supplier; the booking follows the ticket document once it shows the ${action}. Do not raise it again.`,
  booking_status: status,
});

export async function priorTicketAction(
  db: Db,
  ctx: RequestContext,
  b: BookingRow,
  action: TicketAction,
  settle: (op: MoneyOp) => Promise<void>,
): Promise<ReturnType<typeof pendingActionBody> | undefined> {
  const prior = await answerRetry({
    db,
    ctx,
    bookingId: b.id,
    kind: action === 'void' ? 'ticket_void' : 'ticket_refund',
    settle,
    answer: async (_d, op) => recordedAnswer(op) ?? null,
    pending: async (d) => ({
      status: 200,
      body: pendingActionBody(b.id, action, ((await findBooking(d, b.id)) as BookingRow).status),
    }),
  });
  if (prior && 'answer' in prior) return prior.answer.body as ReturnType<typeof pendingActionBody>;
  return undefined;
}
