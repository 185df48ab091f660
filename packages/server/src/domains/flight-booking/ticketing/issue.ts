import { writeAudit } from '../../../audit/audit-log.ts';
import { faultPoint } from '../../../internal/fault-hooks.ts';
import { badRequest } from '../../../kernel/errors.ts';
import type { HandlerResult, OperationContext } from '../../../kernel/types.ts';
import { SupplierError } from '../../../suppliers/ports/errors.ts';
import { addBagsOncePaid, bagsIssued, bookedBags } from '../bags.ts';
import { answerRetry, beginOp, failOp, idemKey, isAmbiguous, opsDb, settleOp } from '../money-ops.ts';
import { canTransition } from '../state-machine.ts';
import { type BookingRow, findBooking, loadBooking, transition, updateBooking } from '../store.ts';
import { flightSupplierOf, supplierFailure } from '../suppliers.ts';
import { json } from '../tables.ts';
import { queueUnticketed } from '../unticketed-queue.ts';
import type { TicketingDeps } from './deps.ts';
import { queueTicketFollowUp } from './follow-up.ts';
import { pendingBody, pendingIssue, ticketAnswer } from './issue-answers.ts';
import { probeIssued } from './probe-issued.ts';
import { reconcileOp } from './reconcile.ts';
import { saveTickets } from './store.ts';

/**
 * Written ahead (money-ops.ts): under the booking lock the checks run and the intent (`ticket` op, and the
 * pending capture when one is due) commits; then capture, then the supplier. A supplier failure is first
 * checked against the supplier's own state: tickets found ("ALREADY TICKETED", a 5xx after the payment
 * was taken) settle the booking as ticketed; an unknown outcome is answered 202 pending and the
 * `money.reconcile` job reads the supplier until it knows; only a clear refusal is `ticketing_failed`.
 */
export async function issueTickets(
  t: TicketingDeps,
  ctx: OperationContext<'issueTickets'>,
): Promise<HandlerResult> {
  const { db, clock } = t.d;
  const b0 = await loadBooking(db, ctx, ctx.params.booking_id);
  const capture = ctx.body?.capture ?? true;
  const key = `bk${b0.id}:ticket:${idemKey(ctx)}`;
  const captureKey = `bk${b0.id}:ticket-capture:${idemKey(ctx)}`;
  // A retry of a ticket request that died: the truth its intent settled to (asked now if still open).
  const prior = await answerRetry({
    db,
    ctx,
    bookingId: b0.id,
    kind: 'ticket',
    settle: (op) => reconcileOp(t, op),
    answer: (d, op) => ticketAnswer(t, d, op),
    pending: async (d, op) => ({ status: 202, body: await pendingBody(t, d, op.booking_id) }),
  });
  if (prior && 'answer' in prior) return prior.answer;
  const { op, result: plan } = await beginOp({
    db,
    clock,
    bookingId: b0.id,
    kind: 'ticket',
    key,
    requestId: ctx.requestId,
    ctx,
    check: async (trx, b) => {
      if (b.status === 'ticketed') throw badRequest('already_ticketed', 'The booking is already ticketed.');
      if (!canTransition(b.status, 'ticket_issued'))
        throw badRequest('invalid_booking_state', `A booking in status ${b.status} cannot be ticketed.`);
      if (!b.supplier_order_ref)
        throw badRequest('invalid_booking_state', 'The booking has no supplier order yet.');
      const p = await t.payments.latest(trx, b.id, true);
      const paid = p && (p.state === 'AUTHORIZED' || p.state === 'CAPTURED' || p.state === 'SETTLED');
      if (!paid && b.payment_mode !== 'PNR_ONLY')
        throw badRequest('payment_required', 'Authorize a payment before ticketing.');
      if (p?.state === 'AUTHORIZED' && capture) return t.payments.planCapture(trx, b, p, captureKey);
      return null;
    },
    detail: (pl) =>
      pl
        ? {
            payment_id: pl.payment.id,
            detail: { stage: 'capture', movement: 'capture', amount_minor: pl.amount, key: pl.key },
          }
        : { detail: { stage: 'issue' } },
  });
  if (plan) {
    // Committed on its own: money taken stays recorded even if the supplier then fails to ticket.
    await faultPoint('ticket:before-capture');
    const r = await t.payments.callMovement(plan, ctx.signal);
    await faultPoint('ticket:after-capture');
    if (!r.ok && !r.ambiguous) {
      await db.transaction().execute(async (trx) => {
        await t.payments.failMovement(trx, plan, r.error);
        await settleOp(trx, op.id, 'failed', clock.now(), { outcome: r.error.message.slice(0, 500) });
      });
      // The provider's own text stays in the op's outcome; the caller gets our words.
      throw badRequest('capture_failed', 'The payment provider refused the capture.');
    }
    if (!r.ok) return pendingIssue(t, ctx, op, b0.id, r.reason);
    await db.transaction().execute(async (trx) => {
      await t.payments.recordMovement(trx, b0.id, plan, r, clock.now());
      // updated_at: the supplier's call window (callWindowOver) starts now, not at the intent.
      await opsDb(trx)
        .updateTable('booking_money_ops')
        .set({ detail: JSON.stringify({ stage: 'issue', captured: r.amount }), updated_at: clock.now() })
        .where('id', '=', op.id)
        .execute();
      await faultPoint('ticket:before-capture-commit');
    });
  }
  const b = (await findBooking(db, b0.id)) as BookingRow;
  const orderRef = b.supplier_order_ref as string;
  const supplier = flightSupplierOf(t.d.suppliers, b.supplier);
  let result: Awaited<ReturnType<typeof supplier.issueTicket>>;
  let settledBy: string | null = null;
  await faultPoint('ticket:before-supplier');
  try {
    // What the supplier's order costs; bags waiting for the payment are paid for as they are added.
    const amount = b.supplier_total_minor ?? b.pricing.total_minor - b.pricing.markup_minor;
    result = await supplier.issueTicket(
      orderRef,
      // In the supplier's currency: a converted booking's supplier total is not in pricing.currency.
      { currency: (b.supplier_currency ?? b.pricing.currency) as never, amount_minor: amount },
      { signal: ctx.signal },
    );
  } catch (err) {
    // Did the supplier ticket after all (an earlier attempt, or an answer lost after it acted)?
    const probe = await probeIssued(t, b).catch(() => null);
    if (probe?.issued) {
      settledBy = `issued at the supplier despite: ${(err as Error).message}`.slice(0, 500);
      ctx.log.warn(
        { booking: b.id, err: (err as Error).message },
        'ticketing settled from the supplier state',
      );
      result = { issued: true, raw_status: probe.raw_status, tickets: probe.tickets };
    } else if (
      isAmbiguous(err) ||
      // Our own abort (shutdown grace over, client gone) says nothing about what the supplier did.
      ctx.signal?.aborted ||
      (err instanceof SupplierError && err.kind === 'unavailable' && !probe)
    ) {
      return pendingIssue(
        t,
        ctx,
        op,
        b.id,
        `ticket: ${(err as SupplierError).supplierCode ?? (err as SupplierError).kind}`,
      );
    } else {
      await failOp(db, clock, op.id, `ticket: ${(err as Error).message}`);
      if (b.status === 'paid') await queueUnticketed(db, clock, b.id, 'the supplier refused the issuance');
      return supplierFailure(err, { failed: 'ticketing_failed', unsupported: 'ticketing_failed' });
    }
  }
  await faultPoint('ticket:after-supplier');
  // The order is paid now: bags the supplier would not take on the hold are added right after.
  const added = await addBagsOncePaid(supplier, b, orderRef, ctx.signal);
  return ctx.transaction(async (trx) => {
    const now = t.d.clock.now();
    let fresh = (await findBooking(trx, b.id, { forUpdate: true })) as BookingRow;
    const bags = added?.bags ?? bookedBags(fresh);
    fresh = await updateBooking(trx, b.id, now, {
      ticket_raw_status: result.raw_status,
      ...(bags.length > 0
        ? { offer: json({ ...fresh.offer, booked_bags: result.issued ? bagsIssued(bags) : bags }) }
        : {}),
      ...(added?.added_minor
        ? { supplier_total_minor: (fresh.supplier_total_minor ?? 0) + added.added_minor }
        : {}),
    });
    if (result.issued) {
      if (canTransition(fresh.status, 'ticket_issued'))
        fresh = await transition(trx, fresh, 'ticket_issued', now);
      await saveTickets(trx, b.id, result.tickets, now);
    } else if (supplier.capabilities.asyncTicketing && supplier.capabilities.ticketStatus) {
      // In process at the supplier: a job reads the status until the tickets are issued.
      await queueTicketFollowUp(trx, t.d.clock, { booking_id: b.id, kind: 'issue' });
    }
    await writeAudit(trx, ctx, {
      entity: 'booking',
      entityId: b.id,
      action: result.issued ? 'ticketed' : 'ticketing_requested',
      ...(settledBy ? { reason: settledBy } : {}),
      changes: { raw_status: result.raw_status },
      companyId: b.company_id,
    });
    await faultPoint('ticket:before-commit');
    await settleOp(trx, op.id, 'done', now, { outcome: settledBy ?? result.raw_status });
    if (added) {
      const failed = added.bags.filter((x) => x.status === 'failed');
      await writeAudit(trx, ctx, {
        entity: 'booking',
        entityId: b.id,
        action: failed.length > 0 ? 'bags_failed' : 'bags_added',
        ...(failed.length > 0 ? { reason: failed.map((x) => x.reason).join('; ') } : {}),
        changes: {
          added_minor: added.added_minor,
          bags: added.bags.map((x) => ({ bag_option_id: x.bag_option_id, status: x.status })),
        },
        companyId: b.company_id,
      });
    }
    const pay = await t.payments.latest(trx, b.id);
    return {
      status: 200,
      body: {
        booking_id: b.id,
        status: fresh.status,
        issued: result.issued,
        raw_status: result.raw_status,
        tickets: result.tickets,
        payment: pay ? await t.payments.view(trx, pay) : null,
      },
    };
  });
}
