import { faultPoint } from '../../../internal/fault-hooks.ts';
import { badRequest } from '../../../kernel/errors.ts';
import type { OperationContext } from '../../../kernel/types.ts';
import { beginOp, failOp, idemKey, isAmbiguous, markPending, type OpKind, settleOp } from '../money-ops.ts';
import { type BookingStatus, TICKET_SETTLES } from '../state-machine.ts';
import { type BookingRow, findBooking, loadBooking } from '../store.ts';
import { flightSupplierOf, supplierFailure } from '../suppliers.ts';
import { shownQuote } from '../ticket-quote.ts';
import { pendingActionBody, priorTicketAction, type TicketAction } from './action-retry.ts';
import type { TicketingDeps } from './deps.ts';
import { followTickets } from './follow-tickets.ts';
import { reconcileOp } from './reconcile.ts';

/** confirm=false quotes; confirm=true raises void/refund; reissue is quote-only. Determinations are 200. */
export async function ticketAction(t: TicketingDeps, ctx: OperationContext<'performTicketAction'>) {
  const b = await loadBooking(t.d.db, ctx, ctx.params.booking_id);
  const action = ctx.params.action;
  const confirm = ctx.query.confirm === true;
  const note = ctx.query.note;
  // A retry of a confirmed action whose request died: the settled truth first (reconciliation may have
  // moved the booking already), never the state check that the action itself changed.
  const settled =
    confirm && action !== 'reissue'
      ? await priorTicketAction(t.d.db, ctx, b, action as TicketAction, (op) => reconcileOp(t, op))
      : undefined;
  if (settled) return settled;
  if (!b.supplier_order_ref || !['ticketed', 'confirmed', 'paid'].includes(b.status)) {
    throw badRequest('not_ticketed', `A booking in status ${b.status} has no ticket to ${action}.`);
  }
  if (action === 'reissue' && confirm) {
    return {
      booking_id: b.id,
      action,
      confirmed: false,
      permitted: false,
      determination: 'reissue_quote_only',
      message: 'Reissue is quote-only; call without confirm to price the change.',
      booking_status: b.status,
    };
  }
  const supplier = flightSupplierOf(t.d.suppliers, b.supplier);
  const raise = confirm && action !== 'reissue';
  const kind: OpKind = action === 'void' ? 'ticket_void' : 'ticket_refund';
  const pendingBody = (status: BookingStatus) => pendingActionBody(b.id, action, status);
  // A confirmed void or refund moves the tickets: one at a time per booking, written ahead.
  const op = raise
    ? (
        await beginOp({
          db: t.d.db,
          clock: t.d.clock,
          bookingId: b.id,
          kind,
          key: `bk${b.id}:ticket-${action}:${idemKey(ctx)}`,
          requestId: ctx.requestId,
          ctx,
          check: async (_trx, fresh) => {
            if (!fresh.supplier_order_ref || !['ticketed', 'confirmed', 'paid'].includes(fresh.status))
              throw badRequest(
                'not_ticketed',
                `A booking in status ${fresh.status} has no ticket to ${action}.`,
              );
            return null;
          },
        })
      ).op
    : null;
  let r: Awaited<ReturnType<typeof supplier.ticketAction>>;
  try {
    r = await supplier.ticketAction(b.supplier_order_ref, action, raise, note, {
      signal: ctx.signal,
    });
  } catch (err) {
    if (op && isAmbiguous(err)) {
      await t.d.db
        .transaction()
        .execute((trx) => markPending(trx, t.d.clock, op.id, `${action}: ${err.supplierCode ?? err.kind}`));
      return pendingBody(b.status);
    }
    if (op) await failOp(t.d.db, t.d.clock, op.id, `${action}: ${(err as Error).message}`);
    return supplierFailure(err, { failed: 'ticket_action_failed', unsupported: 501 });
  }
  let status = b.status;
  let payment: unknown = null;
  if (r.confirmed && r.permitted) {
    status = await followTickets(t, ctx, b, {
      coupon: r.coupon_status,
      cause: `${action} confirmed`,
      // Left pending at a consolidator: a job follows the request until the tickets show it.
      followUp:
        supplier.capabilities.servicing || supplier.capabilities.ticketStatus
          ? { request_id: r.servicing_request_id ?? null, type: action as 'void' | 'refund' }
          : undefined,
    });
  }
  if (op)
    await settleOp(t.d.db, op.id, 'done', t.d.clock.now(), {
      outcome: `${r.determination}${r.confirmed && r.permitted ? '' : ' (not raised)'}`,
      // The supplier's quote: what the payment settlement gives back (now, or when a consolidator completes).
      detail: { ...op.detail, refund: r.refund ?? null, fee: r.fee ?? null },
    });
  if (raise && r.confirmed && r.permitted) {
    if (TICKET_SETTLES.includes(status) && status !== b.status) {
      await faultPoint('ticketAction:before-settlement');
      payment = await t.payments.settleTicketChange(b.id, ctx);
      // A full refund moves a voided (cancelled) booking on to refunded.
      status = ((await findBooking(t.d.db, b.id)) as BookingRow).status;
    } else payment = await t.payments.projectedSettlement(t.d.db, b, { refund: r.refund, fee: r.fee });
  }
  const { action: _a, refund, fee, ...rest } = r;
  // The quote in the booking's currency (contract §6), the supplier's own amounts beside it.
  return {
    booking_id: b.id,
    action,
    ...rest,
    ...shownQuote(b, { refund, fee }),
    booking_status: status,
    payment,
  };
}
