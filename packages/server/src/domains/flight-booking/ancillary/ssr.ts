import { badRequest, notFound } from '../../../kernel/errors.ts';
import type { OperationContext } from '../../../kernel/types.ts';
import type { BookingDeps } from '../deps.ts';
import { type BookingRow, loadBooking } from '../store.ts';
import { flightSupplierOf, supplierFailure } from '../suppliers.ts';

export async function addSsr(d: BookingDeps, ctx: OperationContext<'addSpecialServiceRequest'>) {
  const b = await loadBooking(d.db, ctx, ctx.params.booking_id);
  const supplier = flightSupplierOf(d.suppliers, b.supplier);
  if (!b.supplier_order_ref) throw badRequest('ssr_not_available', 'The booking has no supplier order yet.');
  const q = ctx.query;
  const segment = q.segment_id === undefined ? undefined : segmentOf(b, q.segment_id);
  if (q.passenger_id !== undefined) {
    const n = Number(q.passenger_id);
    if (!Number.isInteger(n) || n < 1 || n > b.passengers.length)
      throw badRequest('invalid_ssr', `Passenger ${q.passenger_id} is not on the booking.`);
  }
  try {
    const r = await supplier.addSsr(
      b.supplier_order_ref,
      {
        code: q.ssr_code,
        free_text: q.free_text ?? '',
        ...(segment ? { segment_id: segment } : {}),
        ...(q.passenger_id ? { passenger_id: q.passenger_id } : {}),
      },
      { signal: ctx.signal },
    );
    return {
      booking_id: b.id,
      ssr_id: r.ssr_id,
      status: r.status,
      code: q.ssr_code,
      free_text: q.free_text ?? '',
      segment_id: segment ?? null,
      passenger_id: q.passenger_id ?? null,
    };
  } catch (err) {
    return supplierFailure(err, { failed: 'invalid_ssr', unsupported: 'ssr_not_available' });
  }
}

/** segment_id: a flight id (s1), a route code (LHRDXB) or a 1-based number. */
function segmentOf(b: BookingRow, ref: string): string {
  const flights = b.flights as { segment_id: string; origin: string; destination: string }[];
  const hit = /^[0-9]+$/.test(ref)
    ? flights[Number(ref) - 1]
    : flights.find((f) => f.segment_id === ref || `${f.origin}${f.destination}` === ref.toUpperCase());
  if (!hit) throw notFound('segment_not_found', `Segment ${ref} is not on the booking.`);
  return hit.segment_id;
}
