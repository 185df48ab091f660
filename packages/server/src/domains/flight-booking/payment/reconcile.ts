import { writeAudit } from '../../../audit/audit-log.ts';
import type { Db } from '../../../storage/schema.ts';
import type { BookingDeps } from '../deps.ts';
import { findOp, type MoneyOp, rewritePendingAnswer, settleOp } from '../money-ops.ts';
import { canTransition } from '../state-machine.ts';
import { findBooking, transition } from '../store.ts';
import { queueUnticketed } from '../unticketed-queue.ts';
import { reconcileCancel } from './cancel-settle.ts';
import { loadFresh } from './locked-rows.ts';
import { callMovement, FAILED_CODE, type Movement, type MovePlan } from './movement.ts';
import type { PaymentService } from './payment-service.ts';
import { reconcileAuthorize } from './reconcile-authorize.ts';
import { failMovement, recordMovement } from './record-movement.ts';
import { findPaymentById, type PaymentRow, paymentWithTransactions } from './store.ts';

/**
 * The `money.reconcile` job for payment ops (authorize, capture, void, refund, manual_refund, and the
 * movement of a cancel). Throws while the outcome is still unknown, so the runner retries with backoff.
 */
export async function reconcile(d: BookingDeps, payments: PaymentService, op: MoneyOp): Promise<void> {
  const { db } = d;
  if (op.kind === 'authorize') return reconcileAuthorize(d, op);
  const movement = op.detail.movement as Movement | undefined;
  // A cancel that died before its payment step: the supplier's word on the order decides (cancel-settle.ts).
  if (op.kind === 'cancel' && !movement) return reconcileCancel(d, payments, op);
  if (!movement || op.payment_id === null) {
    // An op that died before its movement was planned (cancel before the payment step): nothing moved.
    await settleOp(db, op.id, 'failed', d.clock.now(), { outcome: 'abandoned before the payment movement' });
    return;
  }
  const p = await findPaymentById(db, op.payment_id);
  if (!p) return;
  const key = String(op.detail.key ?? op.reference);
  const plan: MovePlan = {
    kind: movement,
    payment: p,
    amount: Number(op.detail.amount_minor),
    reason: (op.detail.reason as string | null) ?? null,
    key,
    writtenAt: op.created_at,
  };
  // The same call with the same Idempotency-Key: the provider replays what it did, or does it once now.
  const r = await callMovement(d, plan);
  if (!r.ok && r.ambiguous) throw new Error(`still unknown at the provider: ${r.reason}`);
  await db.transaction().execute(async (trx) => {
    const fresh = await findOp(trx, op.id, true);
    if (!fresh || (fresh.status !== 'requested' && fresh.status !== 'pending')) return;
    if (!r.ok) {
      await failMovement(trx, plan, r.error);
      await settleOp(trx, op.id, 'failed', d.clock.now(), {
        outcome: `reconciled: ${r.error.message}`.slice(0, 500),
      });
      await rewritePendingAnswer(
        trx,
        fresh,
        op.kind === 'ticket'
          ? null
          : {
              status: 400,
              body: {
                detail: `The payment provider refused the ${plan.kind}.`,
                code: FAILED_CODE[plan.kind],
                request_id: op.request_id,
              },
            },
      );
      return;
    }
    const pay = await recordMovement(trx, op.booking_id, plan, r, d.clock.now());
    await settleOp(trx, op.id, 'done', d.clock.now(), { outcome: `reconciled: ${pay.state}` });
    // A ticket's capture settled here: the tickets were never asked for, the card is taken (unticketed).
    if (op.kind === 'ticket' && (await findBooking(trx, op.booking_id))?.status === 'paid')
      await queueUnticketed(trx, d.clock, op.booking_id, 'the ticket request died after its capture');
    await rewritePendingAnswer(trx, fresh, await settledAnswer(d, trx, fresh, plan, r.amount, pay));
  });
}

/**
 * What the request of a movement settled by reconciliation would have answered: the payment (capture,
 * void, refund, manual refund); a cancel's body; for a ticket op whose capture was lost, nothing (the
 * tickets were not asked for: a same-key retry runs anew and tickets, the capture is not repeated).
 */
async function settledAnswer(
  d: BookingDeps,
  trx: Db,
  op: MoneyOp,
  plan: MovePlan,
  amount: number,
  pay: PaymentRow,
) {
  if (op.kind === 'ticket') return null;
  if (op.kind !== 'cancel') return { status: 200, body: await paymentWithTransactions(trx, pay) };
  // A cancel plans its movement only after the supplier cancelled: the booking is cancelled too.
  let b = await loadFresh(trx, op.booking_id);
  if (canTransition(b.status, 'cancel')) {
    const from = b.status;
    b = await transition(trx, b, 'cancel', d.clock.now());
    await writeAudit(trx, null, {
      entity: 'booking',
      entityId: b.id,
      action: 'cancelled',
      reason: 'reconciled: the cancel request died after the supplier cancelled',
      changes: { from, to: b.status },
      companyId: b.company_id,
    });
  }
  const refund = plan.kind === 'refund' ? amount : 0;
  return {
    status: 200,
    body: {
      booking_id: b.id,
      status: b.status,
      cancelled: true,
      refund: { currency: pay.currency, amount_minor: refund },
      cancellation_fee: { currency: pay.currency, amount_minor: Number(op.detail.fee_minor ?? 0) },
    },
  };
}
