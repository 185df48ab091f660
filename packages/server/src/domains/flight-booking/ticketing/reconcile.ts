import { writeAudit } from '../../../audit/audit-log.ts';
import type { Job } from '../../../jobs/runner.ts';
import type { TicketDocument } from '../../../suppliers/ports/flight.ts';
import { bagsIssued, bookedBags } from '../bags.ts';
import {
  callWindowOver,
  countLook,
  failOp,
  findOp,
  type MoneyOp,
  ownerAlive,
  recordAnswer,
  rewritePendingAnswer,
  SERVICE_OP_KINDS,
  settleOp,
} from '../money-ops.ts';
import { canTransition } from '../state-machine.ts';
import { type BookingRow, findBooking, transition } from '../store.ts';
import { json } from '../tables.ts';
import { queueUnticketed } from '../unticketed-queue.ts';
import type { TicketingDeps } from './deps.ts';
import { followTickets, settledBy } from './follow-tickets.ts';
import { probeIssued } from './probe-issued.ts';
import { readDocuments } from './read-documents.ts';
import { saveTickets } from './store.ts';

/** Looks at the supplier (with the runner's backoff) before an unconfirmed ticketing is given up. */
const TICKET_RECONCILE_ATTEMPTS = 8;

/**
 * The `money.reconcile` job: payment ops go to the payment service; a ticket op reads the supplier until
 * it knows (tickets found: ticketed; none after TICKET_RECONCILE_ATTEMPTS looks: failed, with an audit
 * entry, the booking left as it is); a ticket void/refund follows the document; an op of another kind
 * that is still open after its request died is closed as abandoned.
 */
export async function reconcileMoney(t: TicketingDeps, job: Job): Promise<void> {
  const { db, clock } = t.d;
  const { op_id } = job.payload as { op_id: number };
  const op = await findOp(db, op_id);
  if (!op || (op.status !== 'requested' && op.status !== 'pending')) return;
  // Its request is still working on it (lease held): it settles the op itself; look again later.
  if (await ownerAlive(db, op, clock.now())) throw new Error(`op ${op.id} still owned by a live request`);
  return reconcileOp(t, op);
}

/**
 * Settles an op whose owner is gone by asking the provider or supplier: the job, or a same-key retry of
 * the request that died (answerRetry). Throws while the outcome is still unknown.
 */
export async function reconcileOp(t: TicketingDeps, op: MoneyOp): Promise<void> {
  const { db, clock } = t.d;
  const payKinds = ['authorize', 'capture', 'void', 'refund', 'manual_refund', 'cancel'];
  if (payKinds.includes(op.kind) || (op.kind === 'ticket' && op.detail.stage === 'capture'))
    return t.payments.reconcile(op);
  if (SERVICE_OP_KINDS.includes(op.kind)) return t.reconcileService(op);
  const b = await findBooking(db, op.booking_id);
  if (!b?.supplier_order_ref) {
    await failOp(db, clock, op.id, 'abandoned: no supplier order');
    return;
  }
  const giveUp = (await countLook(db, op)) >= TICKET_RECONCILE_ATTEMPTS;
  if (op.kind === 'ticket') {
    const probe = await probeIssued(t, b).catch(() => null);
    // Its owner is gone: once the supplier call window is over, one look that finds no tickets is final.
    const final = giveUp || (probe !== null && callWindowOver(op, clock.now()));
    if (probe?.issued) {
      await db.transaction().execute(async (trx) => {
        const now = clock.now();
        const fresh = (await findBooking(trx, b.id, { forUpdate: true })) as BookingRow;
        const bags = bookedBags(fresh);
        if (canTransition(fresh.status, 'ticket_issued'))
          await transition(trx, fresh, 'ticket_issued', now, {
            ticket_raw_status: probe.raw_status,
            ...(bags.length > 0 ? { offer: json({ ...fresh.offer, booked_bags: bagsIssued(bags) }) } : {}),
          });
        await saveTickets(trx, b.id, probe.tickets, now);
        await writeAudit(trx, null, {
          entity: 'booking',
          entityId: b.id,
          action: 'ticketed',
          reason: `reconciled: tickets found at the supplier (${op.outcome ?? 'outcome unknown'})`,
          changes: { raw_status: probe.raw_status },
          companyId: b.company_id,
        });
        await settleOp(trx, op.id, 'done', now, { outcome: `reconciled: ${probe.raw_status}` });
        const after = (await findBooking(trx, b.id)) as BookingRow;
        const pay = await t.payments.latest(trx, b.id);
        await rewritePendingAnswer(trx, op, {
          status: 200,
          body: {
            booking_id: b.id,
            status: after.status,
            issued: true,
            raw_status: probe.raw_status,
            tickets: probe.tickets,
            payment: pay ? await t.payments.view(trx, pay) : null,
          },
        });
      });
      return;
    }
    if (!final)
      throw new Error(`ticketing still unconfirmed at the supplier (${probe?.raw_status ?? 'unreachable'})`);
    await db.transaction().execute(async (trx) => {
      await writeAudit(trx, null, {
        entity: 'booking',
        entityId: b.id,
        action: 'ticketing_unconfirmed',
        reason: `no tickets at the supplier after ${op.looks} looks (${op.outcome ?? 'request died'})`,
        changes: { op_id: op.id },
        companyId: b.company_id,
      });
      await settleOp(trx, op.id, 'failed', clock.now(), {
        outcome: 'reconciled: no tickets at the supplier',
      });
      // Captured without a ticket: the follow-up tickets it (if the supplier did after all) or refunds.
      if ((await findBooking(trx, b.id))?.status === 'paid')
        await queueUnticketed(trx, clock, b.id, 'ticketing_unconfirmed');
      // Nothing was ticketed: a same-key retry runs anew instead of replaying "pending".
      await rewritePendingAnswer(trx, op, null);
    });
    return;
  }
  if (op.kind === 'ticket_void' || op.kind === 'ticket_refund') {
    const docs = await readDocuments(t, b).catch(() => [] as TicketDocument[]);
    const event = settledBy(docs);
    if (event || giveUp) {
      if (event) await followTickets(t, null, b, { docs, cause: `reconciled ${op.kind}` });
      const after = await findBooking(db, b.id);
      await db.transaction().execute(async (trx) => {
        await settleOp(trx, op.id, event ? 'done' : 'failed', clock.now(), {
          outcome: event ? `reconciled: ${event}` : 'reconciled: tickets unchanged',
        });
        // For a same-key retry of a request that died: the confirmed action, or (unchanged) run anew.
        const action = op.kind === 'ticket_void' ? 'void' : 'refund';
        await recordAnswer(
          trx,
          op.id,
          event
            ? {
                status: 200,
                body: {
                  booking_id: b.id,
                  action,
                  confirmed: true,
                  permitted: true,
                  determination: 'ok',
                  message: `The ${action} was confirmed: the ticket document shows it.`,
                  booking_status: after?.status ?? b.status,
                },
              }
            : null,
        );
      });
      if (event) await t.payments.settleTicketChange(b.id);
      return;
    }
    throw new Error(`${op.kind} still unconfirmed at the supplier`);
  }
  await failOp(db, clock, op.id, `abandoned: the ${op.kind} request ended without settling`);
}
