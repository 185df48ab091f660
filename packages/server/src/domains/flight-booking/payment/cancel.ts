/**
 * Booking cancel, serialized and written ahead like every money operation (money-ops.ts): under the
 * booking lock the state check runs and the `cancel` op commits; then the supplier cancels; then the
 * payment follows (an authorization is voided, a capture refunded: before ticketing all of it, after what
 * the supplier returns), each movement with its fixed provider key (a booking is cancelled once). A lost
 * payment answer leaves the movement pending on the op and the `money.reconcile` job settles it; the
 * booking is cancelled either way. A concurrent cancel or money operation loses with 409 / 400.
 */
import { conflict, HttpError } from '../../../kernel/errors.ts';
import { errorResult } from '../../../kernel/reply.ts';
import type { HandlerResult, RequestContext } from '../../../kernel/types.ts';
import type { Db } from '../../../storage/schema.ts';
import type { BookingDeps } from '../deps.ts';
import {
  answerRetry,
  beginOp,
  failOp,
  IN_PROGRESS,
  isAmbiguous,
  type MoneyOp,
  markPending,
  recordedAnswer,
} from '../money-ops.ts';
import { nextStatus } from '../state-machine.ts';
import { type BookingRow, findBooking, loadBooking } from '../store.ts';
import { flightSupplierOf, supplierFailure } from '../suppliers.ts';
import { cancelAtSupplier, finishCancel, type SupplierCancel } from './cancel-settle.ts';
import type { PaymentService } from './payment-service.ts';
import { findPaymentById } from './store.ts';

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
  let sc: SupplierCancel = { refund: null, fee: 0 };
  if (b0.supplier_order_ref) {
    const supplier = flightSupplierOf(d.suppliers, b0.supplier);
    try {
      sc = await cancelAtSupplier(supplier, b0.supplier_order_ref, ctx.signal);
    } catch (err) {
      // The supplier may have cancelled (timeout, reset, 5xx, our own abort): the job asks it.
      if (isAmbiguous(err) || ctx.signal?.aborted) {
        await markPending(db, clock, op.id, `cancel: ${(err as Error).message}`);
        return cancellationPending(ctx, b0);
      }
      await failOp(db, clock, op.id, `cancel: ${(err as Error).message}`);
      return supplierFailure(err, { failed: 'cancellation_failed', unsupported: 'cancellation_failed' });
    }
  }
  return finishCancel(d, payments, op, b0, sc, ctx);
}

/** 502: the supplier's answer to the cancel was lost; the op stays in flight and its job asks the supplier. */
function cancellationPending(ctx: RequestContext, b: BookingRow): HandlerResult {
  return errorResult(
    new HttpError(
      502,
      'cancellation_pending',
      'The supplier has not confirmed the cancellation yet; it is being settled with the supplier. Poll the booking; a same-key retry answers the outcome.',
      { extra: { booking_id: b.id, status: b.status } },
    ),
    ctx,
  );
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
