/** A booking as stored (getBooking) and its live supplier order (getBookingOrder, by reference). */

import { badRequest } from '../../kernel/errors.ts';
import type { OperationContext, RequestContext } from '../../kernel/types.ts';
import type { BookingDeps } from './deps.ts';
import { type BookingRow, loadBooking, loadBookingView } from './store.ts';
import { flightSupplierOf, supplierFailure } from './suppliers.ts';
import { bookingView } from './view.ts';

export async function getBooking(d: BookingDeps, ctx: OperationContext<'getBooking'>) {
  return bookingView(await loadBookingView(d.db, ctx, ctx.params.booking_id));
}

async function liveOrder(d: BookingDeps, ctx: RequestContext, b: BookingRow) {
  if (!b.supplier_order_ref) throw badRequest('no_supplier_order', 'The booking has no supplier order yet.');
  const supplier = flightSupplierOf(d.suppliers, b.supplier);
  try {
    const o = await supplier.getOrder(b.supplier_order_ref, { signal: ctx.signal });
    const raw: Record<string, unknown> =
      o.raw !== null && typeof o.raw === 'object' && !Array.isArray(o.raw)
        ? Object.fromEntries(Object.entries(o.raw))
        : { value: o.raw };
    return {
      booking_id: b.id,
      supplier: o.supplier,
      order_ref: o.order_ref,
      pnr: o.pnr,
      status: o.status,
      ticketing_deadline: o.ticketing_deadline,
      total: o.total,
      raw,
    };
  } catch (err) {
    return supplierFailure(err, { failed: 'order_retrieval_failed', notFound: 'order_not_found' }, ctx.log);
  }
}

export async function bookingOrder(d: BookingDeps, ctx: OperationContext<'getBookingOrder'>) {
  return liveOrder(d, ctx, await loadBooking(d.db, ctx, ctx.params.booking_id));
}

/** `reference` confirms, it does not look up: it must be the booking's own PNR. */
export async function bookingOrderByReference(
  d: BookingDeps,
  ctx: OperationContext<'getBookingOrderByReference'>,
) {
  const b = await loadBooking(d.db, ctx, ctx.params.booking_id);
  const ref = ctx.query.reference;
  if (ref !== undefined && ref !== b.pnr)
    throw badRequest('reference_mismatch', 'The reference is not this booking’s PNR.');
  return liveOrder(d, ctx, b);
}
