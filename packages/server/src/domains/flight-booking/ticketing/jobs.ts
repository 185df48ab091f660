import type { Job, JobHandler } from '../../../jobs/runner.ts';
import { MONEY_RECONCILE_QUEUE } from '../money-ops.ts';
import type { BookingRow } from '../store.ts';
import { UNTICKETED_QUEUE } from '../unticketed-queue.ts';
import type { TicketingDeps } from './deps.ts';
import { TICKET_FOLLOW_UP_QUEUE } from './follow-up.ts';
import { followUp } from './follow-up-handler.ts';
import { probeIssued } from './probe-issued.ts';
import { reconcileMoney } from './reconcile.ts';
import { unticketedHandler } from './unticketed.ts';

/** The handlers of the follow-up queue (follow-up.ts) and the money job; ../routes.ts wires them. */
export function ticketingJobs(t: TicketingDeps): Record<string, JobHandler> {
  return {
    [TICKET_FOLLOW_UP_QUEUE]: (job) => followUp(t, job),
    [MONEY_RECONCILE_QUEUE]: (job) => reconcileMoney(t, job),
    [UNTICKETED_QUEUE]: (job) => unticketed(t, job),
  };
}

/** The follow-up of a captured booking left without a ticket (unticketed.ts). */
function unticketed(t: TicketingDeps, job: Job): Promise<void> {
  const probe = (b: BookingRow) => probeIssued(t, b);
  return unticketedHandler(t.d, probe, (id, why) => t.payments.refundUnticketed(id, why))(job);
}
