import type { OperationContext } from '../../../kernel/types.ts';
import type { BookingDeps } from '../deps.ts';
import { supplierFailure } from '../suppliers.ts';
import { orderContext } from './order-context.ts';

export async function seatMap(d: BookingDeps, ctx: OperationContext<'getSeatMap'>) {
  const { b, supplier, orderRef } = await orderContext(d, ctx, 'seats', 'seats_unsupported');
  try {
    return { booking_id: b.id, seat_maps: await supplier.seatMap(orderRef, { signal: ctx.signal }) };
  } catch (err) {
    return supplierFailure(err, {
      failed: 'seats_unsupported',
      unsupported: 'seats_unsupported',
      notFound: 'booking_not_found',
    });
  }
}
