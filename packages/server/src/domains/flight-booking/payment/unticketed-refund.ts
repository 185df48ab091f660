/**
 * The refund of a capture left without a ticket (ticketing/unticketed.ts decides; this moves the money):
 * the whole capture back, written ahead as a `refund` op under a fixed provider key (one per booking), so
 * a crash or a lost answer settles through the money job and the card is refunded once.
 */
import { writeAudit } from '../../../audit/audit-log.ts';
import type { BookingDeps } from '../deps.ts';
import { beginOp, markPending, settleOp } from '../money-ops.ts';
import { type BookingRow, findBooking } from '../store.ts';
import type { PaymentService } from './payment-service.ts';
import { latestPayment } from './store.ts';

export async function refundUnticketed(d: BookingDeps, payments: PaymentService, id: number, reason: string) {
  const { db, clock } = d;
  const begun = await beginOp({
    db,
    clock,
    bookingId: id,
    kind: 'refund',
    key: `bk${id}:unticketed-refund`,
    check: async (trx, b) => {
      const p = await latestPayment(trx, b.id, true);
      if (b.status !== 'paid' || !p || (p.state !== 'CAPTURED' && p.state !== 'SETTLED')) return null;
      const refundable = p.captured_minor - p.refunded_minor;
      if (refundable <= 0) return null;
      const why = 'captured without a ticket: refunded by the follow-up';
      return payments.planMovement(trx, b, p, 'refund', refundable, why, `bk${id}:unticketed-refund`);
    },
    detail: (plan) =>
      plan
        ? {
            payment_id: plan.payment.id,
            detail: { movement: 'refund', amount_minor: plan.amount, key: plan.key, reason: plan.reason },
          }
        : {},
  });
  const { op, result: plan } = begun;
  if (!plan) {
    await settleOp(db, op.id, 'done', clock.now(), { outcome: 'nothing to refund' });
    return;
  }
  const r = await payments.callMovement(plan);
  await db.transaction().execute(async (trx) => {
    const now = clock.now();
    if (!r.ok && r.ambiguous) {
      // The money job settles it with the same provider key.
      await markPending(trx, clock, op.id, r.reason);
      return;
    }
    if (!r.ok) {
      await payments.failMovement(trx, plan, r.error);
      await settleOp(trx, op.id, 'failed', now, { outcome: r.error.message.slice(0, 500) });
      throw new Error(`the provider refused the refund: ${r.error.message}`);
    }
    await payments.recordMovement(trx, id, plan, r, now);
    await settleOp(trx, op.id, 'done', now, { outcome: 'unticketed: refunded' });
    const after = (await findBooking(trx, id)) as BookingRow;
    await writeAudit(trx, null, {
      entity: 'booking',
      entityId: id,
      action: 'unticketed_refunded',
      reason: `follow-up: no tickets at the supplier (${reason}); the capture was refunded`,
      changes: { refund_minor: plan.amount, status: after.status },
      companyId: after.company_id,
    });
  });
}
