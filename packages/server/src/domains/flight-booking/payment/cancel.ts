/**
 * Booking cancel, serialized and written ahead like every money operation (money-ops.ts): under the
 * booking lock the state check runs and the `cancel` op commits; then the supplier cancels; then the
 * payment follows (an authorization is voided, a capture refunded: before ticketing all of it, after what
 * the supplier returns), each movement with its fixed provider key (a booking is cancelled once). A lost
 * payment answer leaves the movement pending on the op and the `money.reconcile` job settles it; the
 * booking is cancelled either way. A concurrent cancel or money operation loses with 409 / 400.
 */
import { writeAudit } from '../../../audit/audit-log.ts';
import { badRequest, conflict } from '../../../kernel/errors.ts';
import type { HandlerResult, RequestContext } from '../../../kernel/types.ts';
import type { Db } from '../../../storage/schema.ts';
import type { BookingDeps } from '../deps.ts';
import {
  answerRetry,
  beginOp,
  failOp,
  findOp,
  IN_PROGRESS,
  type MoneyOp,
  recordedAnswer,
  settleOp,
} from '../money-ops.ts';
import { canTransition, nextStatus } from '../state-machine.ts';
import { type BookingRow, findBooking, loadBooking, transition } from '../store.ts';
import { flightSupplierOf, supplierFailure } from '../suppliers.ts';
import type { PaymentService } from './service.ts';
import { findPaymentById, latestPayment } from './store.ts';

export async function cancelBooking(
  d: BookingDeps,
  payments: PaymentService,
  ctx: RequestContext,
): Promise<HandlerResult> {
  const { db, clock } = d;
  const b00 = await loadBooking(db, ctx, ctx.params.booking_id);
  // A retry of a cancel that died: its intent settled (or settled now), answered as it stands.
  const prior = await answerRetry({
    db,
    ctx,
    bookingId: b00.id,
    kind: 'cancel',
    settle: (op) => payments.reconcile(op),
    answer: async (d, op) => recordedAnswer(op) ?? (op.status === 'done' ? cancelAnswer(d, op) : null),
    // Still unknown at the provider: answered once the booking shows the cancel, else still in flight.
    pending: async (d, op) => {
      const b = await findBooking(d, op.booking_id);
      if (b?.status === 'cancelled' || b?.status === 'refunded') return cancelAnswer(d, op);
      throw conflict(IN_PROGRESS, 'The cancellation of this booking is still being settled.');
    },
  });
  if (prior && 'answer' in prior) return prior.answer;
  const { op, booking: b0 } = await beginOp({
    db,
    clock,
    bookingId: b00.id,
    kind: 'cancel',
    key: `bk${b00.id}:cancel`,
    requestId: ctx.requestId,
    ctx,
    check: async (_trx, b) => {
      nextStatus(b.status, 'cancel');
      return null;
    },
  });
  const currency = b0.pricing.currency as never;
  let supplierRefund: number | null = null;
  let supplierFee = 0;
  if (b0.supplier_order_ref) {
    const supplier = flightSupplierOf(d.suppliers, b0.supplier);
    try {
      const c = await supplier.cancelOrder(b0.supplier_order_ref, { signal: ctx.signal });
      if (!c.cancelled) throw badRequest('cancellation_failed', 'The supplier did not cancel the order.');
      supplierRefund = c.refund?.amount_minor ?? null;
      supplierFee = c.fee?.amount_minor ?? 0;
    } catch (err) {
      await failOp(db, clock, op.id, `cancel: ${(err as Error).message}`);
      return supplierFailure(err, { failed: 'cancellation_failed', unsupported: 'cancellation_failed' });
    }
  }
  const p = await latestPayment(db, b0.id);
  let write: ((trx: Db) => Promise<unknown>) | undefined;
  let refund = 0;
  let fee = supplierFee;
  // What the job needs to answer for this cancel if its request dies before answering.
  op.detail = { ...op.detail, fee_minor: supplierFee };
  if (p?.state === 'AUTHORIZED')
    write = await payments.moveWithin(
      op,
      b0,
      'void',
      undefined,
      'booking cancelled',
      `bk${b0.id}:cancel:void`,
    );
  else if (p && (p.state === 'CAPTURED' || p.state === 'SETTLED')) {
    const refundable = p.captured_minor - p.refunded_minor;
    // Before ticketing the supplier was never paid: the whole capture goes back. After, what it returns.
    refund =
      b0.status === 'ticketed' && supplierRefund !== null ? Math.min(refundable, supplierRefund) : refundable;
    fee = refundable - refund;
    op.detail = { ...op.detail, fee_minor: fee };
    if (refund > 0)
      write = await payments.moveWithin(
        op,
        b0,
        'refund',
        refund,
        'booking cancelled',
        `bk${b0.id}:cancel:refund`,
      );
  }
  return ctx.transaction(async (trx) => {
    const now = clock.now();
    const fresh = (await findBooking(trx, b0.id, { forUpdate: true })) as BookingRow;
    let b = canTransition(fresh.status, 'cancel') ? await transition(trx, fresh, 'cancel', now) : fresh;
    if (write) await write(trx);
    b = (await findBooking(trx, b.id)) as BookingRow;
    const cur = await findOp(trx, op.id, true);
    const pending = cur?.status === 'pending';
    if (!pending) await settleOp(trx, op.id, 'done', now, { outcome: b.status });
    await writeAudit(trx, ctx, {
      entity: 'booking',
      entityId: b.id,
      action: 'cancelled',
      ...(pending ? { reason: 'payment movement pending at the provider' } : {}),
      changes: { from: b0.status, to: b.status, refund_minor: refund, fee_minor: fee },
      companyId: b.company_id,
    });
    return {
      status: 200,
      body: {
        booking_id: b.id,
        status: b.status,
        cancelled: true,
        refund: p ? { currency, amount_minor: refund } : null,
        cancellation_fee: { currency, amount_minor: fee },
      },
    };
  });
}

/** A cancel's answer from the rows: the booking as it stands and the op's payment movement. */
async function cancelAnswer(db: Db, op: MoneyOp) {
  const b = (await findBooking(db, op.booking_id)) as BookingRow;
  const p = op.payment_id === null ? undefined : await findPaymentById(db, op.payment_id);
  const currency = b.pricing.currency;
  const refund = op.detail.movement === 'refund' ? Number(op.detail.amount_minor ?? 0) : 0;
  return {
    status: 200,
    body: {
      booking_id: b.id,
      status: b.status,
      cancelled: true,
      refund: p ? { currency, amount_minor: refund } : null,
      cancellation_fee: { currency, amount_minor: Number(op.detail.fee_minor ?? 0) },
    },
  };
}
