/** Changes sent to the supplier's order and kept on the booking: FOID and commission. */

import { badRequest } from '../../kernel/errors.ts';
import type { OperationContext } from '../../kernel/types.ts';
import type { BookingDeps } from './deps.ts';
import { loadBooking } from './store.ts';
import { flightSupplierOf, supplierFailure } from './suppliers.ts';
import { bookingDb, json } from './tables.ts';

export async function updateFoid(d: BookingDeps, ctx: OperationContext<'updateBookingFoid'>) {
  const b = await loadBooking(d.db, ctx, ctx.params.booking_id);
  const supplier = flightSupplierOf(d.suppliers, b.supplier);
  if (!supplier.capabilities.foid)
    throw badRequest('foid_unsupported', `Supplier ${b.supplier} takes no FOID.`);
  if (!b.supplier_order_ref) throw badRequest('foid_update_failed', 'The booking has no supplier order yet.');
  try {
    await supplier.updateFoid(b.supplier_order_ref, ctx.body, { signal: ctx.signal });
  } catch (err) {
    return supplierFailure(err, { failed: 'foid_update_failed', unsupported: 'foid_unsupported' }, ctx.log);
  }
  await bookingDb(d.db)
    .updateTable('flight_bookings')
    .set({ foid: json(ctx.body), updated_at: d.clock.now() })
    .where('id', '=', b.id)
    .execute();
  return { booking_id: b.id, success: true, message: 'FOID updated.' };
}

export async function updateCommission(d: BookingDeps, ctx: OperationContext<'updateBookingCommission'>) {
  const b = await loadBooking(d.db, ctx, ctx.params.booking_id);
  const body = ctx.body;
  if ((body.amount === undefined) === (body.percentage === undefined)) {
    throw badRequest('amount_or_percentage_required', 'Supply either amount or percentage, not both.');
  }
  const supplier = flightSupplierOf(d.suppliers, b.supplier);
  if (!supplier.capabilities.commission)
    throw badRequest('commission_unsupported', `Supplier ${b.supplier} takes no commission updates.`);
  if (!b.supplier_order_ref)
    throw badRequest('commission_update_failed', 'The booking has no supplier order yet.');
  try {
    await supplier.updateCommission(b.supplier_order_ref, ctx.body, { signal: ctx.signal });
  } catch (err) {
    return supplierFailure(err, {
      failed: 'commission_update_failed',
      unsupported: 'commission_unsupported',
    });
  }
  await bookingDb(d.db)
    .updateTable('flight_bookings')
    .set({ commission: json(ctx.body), updated_at: d.clock.now() })
    .where('id', '=', b.id)
    .execute();
  return { booking_id: b.id, success: true, message: 'Commission updated.' };
}
