import { badRequest, type ErrorCode } from '../../../kernel/errors.ts';
import type { RequestContext } from '../../../kernel/types.ts';
import type { BookingDeps } from '../deps.ts';
import { loadBooking } from '../store.ts';
import { flightSupplierOf } from '../suppliers.ts';

/** The booking with its supplier and order, for an operation the supplier must support (`capability`). */
export async function orderContext(
  d: BookingDeps,
  ctx: RequestContext,
  capability: 'seats' | 'ancillaries' | null,
  unsupportedCode: ErrorCode,
) {
  const b = await loadBooking(d.db, ctx, ctx.params.booking_id);
  const supplier = flightSupplierOf(d.suppliers, b.supplier);
  if (capability && !supplier.capabilities[capability])
    throw badRequest(unsupportedCode, `Supplier ${b.supplier} does not support this.`);
  if (!b.supplier_order_ref) throw badRequest(unsupportedCode, 'The booking has no supplier order yet.');
  return { b, supplier, orderRef: b.supplier_order_ref };
}
