import { writeAudit } from '../../../audit/audit-log.ts';
import type { Job } from '../../../jobs/runner.ts';
import type { ServicingRequest } from '../../../suppliers/ports/flight.ts';
import { canTransition, TICKET_SETTLES } from '../state-machine.ts';
import { findBooking } from '../store.ts';
import { flightSupplierOf } from '../suppliers.ts';
import type { TicketingDeps } from './deps.ts';
import { FOLLOWS } from './follow-tickets.ts';
import { FOLLOW_UP_LIMIT_MS, type FollowUpPayload } from './follow-up.ts';
import { readServicing } from './servicing.ts';
import { readStatus } from './status.ts';

/** Servicing states a request leaves the consolidator's hands in without moving the tickets. */
const SERVICING_PENDING: readonly string[] = ['Requested', 'InProcess', 'Completed'];

/**
 * The follow-up job: re-reads the status (issue) or the servicing list (void/refund) the way the read
 * endpoints do. Still pending -> throws, so the runner retries with backoff; past the bound -> gives up
 * with an audit entry. Done, moved on, or turned down by the consolidator -> nothing more to follow.
 */
export async function followUp(t: TicketingDeps, job: Job): Promise<void> {
  const p = job.payload as FollowUpPayload;
  const { db, clock } = t.d;
  const b = await findBooking(db, p.booking_id);
  if (!b?.supplier_order_ref) return;
  const supplier = flightSupplierOf(t.d.suppliers, b.supplier);
  let pending: string;
  if (p.kind === 'issue') {
    if (b.status === 'ticketed' || !canTransition(b.status, 'ticket_issued')) return;
    const s = await readStatus(t, null, b);
    if (s.issued) return;
    pending = `ticket status ${s.raw_status} (${s.raw_status_text})`;
  } else {
    if (!FOLLOWS.includes(b.status)) return;
    let req: ServicingRequest | undefined;
    if (supplier.capabilities.servicing) {
      const items = await readServicing(t, null, b);
      req = items.find((x) => x.request_id === p.request_id);
      if (req && !SERVICING_PENDING.includes(req.state)) return; // rejected or withdrawn: tickets stand
    } else await readStatus(t, null, b);
    const after = await findBooking(db, b.id);
    if (after && TICKET_SETTLES.includes(after.status)) {
      // The consolidator completed: the money moves now.
      await t.payments.settleTicketChange(b.id);
      return;
    }
    if (!after || !FOLLOWS.includes(after.status)) return;
    pending = req ? `servicing request ${req.request_id} ${req.state}` : 'servicing request pending';
  }
  const expired = clock.now().getTime() >= new Date(p.since).getTime() + FOLLOW_UP_LIMIT_MS;
  if (job.attempts >= job.maxAttempts || expired) {
    await writeAudit(db, null, {
      entity: 'booking',
      entityId: b.id,
      action: 'ticket_follow_up_abandoned',
      reason: `${p.kind} still pending at the supplier after ${job.attempts} attempts since ${p.since}: ${pending}`,
      changes: { kind: p.kind, request_id: p.request_id ?? null, attempts: job.attempts },
      companyId: b.company_id,
    });
    return;
  }
  throw new Error(`still pending at the supplier: ${pending}`);
}
