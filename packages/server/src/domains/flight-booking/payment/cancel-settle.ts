/**
 * A flight booking cancel settles to the supplier's truth. The supplier's cancel is the effect; once it is
 * known to have happened (the call answered, or the supplier's order reads cancelled / is gone), the rest
 * follows the same way whoever finishes it: the request itself, the `money.reconcile` job after the request
 * died, or a same-key retry of that request (answerRetry): the booking moves to `cancelled`, the card hold
 * is voided or the capture refunded (payment/move-within.ts), and the cancel's answer is recorded
 * on the op, so a retry gets the success the original request would have given.
 *
 * - A repeated cancel the supplier refuses because the order is already cancelled or gone ("not found",
 *   "already cancelled") asks the supplier for the order: cancelled or gone means cancelled.
 * - An op that died before its payment movement was planned (killed during the supplier call) is settled
 *   by asking the supplier: cancelled -> finished as above; still live once the call window
 *   (`BOOKING_CALL_WINDOW_SECONDS`) since the request has passed -> nothing was cancelled, the op fails
 *   and a same-key retry runs anew; unreachable -> still unknown, looked at again (the runner's backoff).
 */
import { writeAudit } from '../../../audit/audit-log.ts';
import { badRequest } from '../../../kernel/errors.ts';
import type { JsonResult, RequestContext } from '../../../kernel/types.ts';
import type { Db } from '../../../storage/schema.ts';
import { SupplierError } from '../../../suppliers/ports/errors.ts';
import type { FlightSupplier } from '../../../suppliers/ports/flight.ts';
import type { BookingDeps } from '../deps.ts';
import { callWindowOver, findOp, type MoneyOp, rewritePendingAnswer, settleOp } from '../money-ops.ts';
import { canTransition } from '../state-machine.ts';
import { type BookingRow, findBooking, transition } from '../store.ts';
import { flightSupplierOf } from '../suppliers.ts';
import type { PaymentService } from './payment-service.ts';
import { latestPayment } from './store.ts';

/** What the supplier's cancel came to: the refund it gives (null: not stated) and its fee. */
export interface SupplierCancel {
  refund: number | null;
  fee: number;
}

/** The supplier's word on an order: cancelled (or gone), or live. Throws while it cannot tell. */
export async function orderState(
  supplier: FlightSupplier,
  ref: string,
  signal?: AbortSignal,
): Promise<'cancelled' | 'live'> {
  try {
    const o = await supplier.getOrder(ref, signal ? { signal } : {});
    return o.status === 'cancelled' ? 'cancelled' : 'live';
  } catch (err) {
    // An order we booked that the supplier no longer knows was cancelled (Amadeus deletes it).
    if (err instanceof SupplierError && err.kind === 'not_found') return 'cancelled';
    throw err;
  }
}

const REFUSALS = new Set(['not_found', 'invalid_request', 'rejected']);

/**
 * Cancels the order at the supplier. A refusal that may mean "already cancelled" is checked against the
 * order itself; any other failure is thrown as it came (the caller tells ambiguous from definite).
 */
export async function cancelAtSupplier(
  supplier: FlightSupplier,
  ref: string,
  signal: AbortSignal | undefined,
): Promise<SupplierCancel> {
  try {
    const c = await supplier.cancelOrder(ref, signal ? { signal } : {});
    if (!c.cancelled) throw badRequest('cancellation_failed', 'The supplier did not cancel the order.');
    return { refund: c.refund?.amount_minor ?? null, fee: c.fee?.amount_minor ?? 0 };
  } catch (err) {
    if (!(err instanceof SupplierError) || !REFUSALS.has(err.kind)) throw err;
    const state = await orderState(supplier, ref, signal).catch(() => 'unknown' as const);
    if (state === 'cancelled') return { refund: null, fee: 0 };
    throw err;
  }
}

/**
 * The part of a cancel after the supplier cancelled: the payment movement, then one transaction that
 * cancels the booking, records the movement and settles the op. With a request (`ctx`), its transaction
 * stores the answer under the request's key; without (the job, or a retry settling it), the answer is
 * recorded on the op and replaces any pending answer stored under the dead request's key.
 */
export async function finishCancel(
  d: BookingDeps,
  payments: PaymentService,
  op: MoneyOp,
  b0: BookingRow,
  sc: SupplierCancel,
  ctx: RequestContext | null,
): Promise<JsonResult> {
  const { db, clock } = d;
  const currency = b0.pricing.currency as never;
  const p = await latestPayment(db, b0.id);
  let write: ((trx: Db) => Promise<unknown>) | undefined;
  let refund = 0;
  let fee = sc.fee;
  let review: string | undefined;
  // What the job needs to answer for this cancel if its request dies before answering.
  op.detail = { ...op.detail, fee_minor: sc.fee };
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
    // Before ticketing the supplier was never paid: the whole capture goes back. After, what it returns;
    // a ticketed cancel whose refund the supplier no longer states keeps the money for an operator.
    const ticketed = b0.status === 'ticketed';
    if (ticketed && sc.refund === null) review = 'supplier refund unknown: operator review';
    refund = !ticketed ? refundable : sc.refund === null ? 0 : Math.min(refundable, sc.refund);
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
  const settle = async (trx: Db): Promise<JsonResult> => {
    const now = clock.now();
    const fresh = (await findBooking(trx, b0.id, { forUpdate: true })) as BookingRow;
    let b = canTransition(fresh.status, 'cancel') ? await transition(trx, fresh, 'cancel', now) : fresh;
    if (write) await write(trx);
    b = (await findBooking(trx, b.id)) as BookingRow;
    const cur = await findOp(trx, op.id, true);
    const pending = cur?.status === 'pending';
    if (!pending) await settleOp(trx, op.id, 'done', now, { outcome: b.status });
    const reason = pending
      ? 'payment movement pending at the provider'
      : (review ?? (ctx ? undefined : 'reconciled: the supplier cancelled the order'));
    await writeAudit(trx, ctx, {
      entity: 'booking',
      entityId: b.id,
      action: 'cancelled',
      ...(reason ? { reason } : {}),
      changes: { from: b0.status, to: b.status, refund_minor: refund, fee_minor: fee },
      companyId: b.company_id,
    });
    const answer = {
      status: 200,
      body: {
        booking_id: b.id,
        status: b.status,
        cancelled: true,
        refund: p ? { currency, amount_minor: refund } : null,
        cancellation_fee: { currency, amount_minor: fee },
      },
    };
    // Settled without its request: what that request would have answered, for a same-key retry.
    if (!ctx && cur && !pending) await rewritePendingAnswer(trx, cur, answer);
    return answer;
  };
  return ctx ? ctx.transaction(settle) : db.transaction().execute(settle);
}

/**
 * Settles a cancel op that died before its payment movement was planned, by asking the supplier (the job,
 * or a same-key retry of the request that died). Throws while the outcome is unknown.
 */
export async function reconcileCancel(d: BookingDeps, payments: PaymentService, op: MoneyOp): Promise<void> {
  const { db, clock } = d;
  const b = await findBooking(db, op.booking_id);
  if (!b) return;
  const withdraw = async (outcome: string) =>
    db.transaction().execute(async (trx) => {
      const cur = await findOp(trx, op.id, true);
      if (!cur || !(await settleOp(trx, op.id, 'failed', clock.now(), { outcome }))) return;
      // Nothing was cancelled: a same-key retry runs anew.
      await rewritePendingAnswer(trx, cur, null);
    });
  if (!b.supplier_order_ref) return withdraw('abandoned before the payment movement: no supplier order');
  const supplier = flightSupplierOf(d.suppliers, b.supplier);
  const state = await orderState(supplier, b.supplier_order_ref);
  if (state === 'live') {
    if (!callWindowOver(op, clock.now())) throw new Error('the supplier cancel call may still be under way');
    return withdraw('reconciled: the order is live at the supplier, the cancel never happened');
  }
  // Cancelled at the supplier: its refund as the supplier records it (Duffel answers a repeated cancel with
  // its confirmed cancellation; elsewhere a repeat is refused and the refund is not stated).
  const sc = await cancelAtSupplier(supplier, b.supplier_order_ref, undefined).catch(() => ({
    refund: null,
    fee: 0,
  }));
  await finishCancel(d, payments, op, b, sc, null);
}
