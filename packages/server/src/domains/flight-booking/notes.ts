/** Notes attached to the supplier's order, kept on the booking whether or not the supplier took them. */

import { badRequest, notSupported } from '../../kernel/errors.ts';
import type { OperationContext } from '../../kernel/types.ts';
import { logSupplierError } from '../../suppliers/http-errors.ts';
import { SupplierError } from '../../suppliers/ports/errors.ts';
import type { BookingDeps } from './deps.ts';
import { loadBooking } from './store.ts';
import { flightSupplierOf } from './suppliers.ts';
import { bookingDb } from './tables.ts';

/** Blank notes dropped (none left: 400); unknown booking 400; attaching is best-effort (success=false). */
export async function addNotes(d: BookingDeps, ctx: OperationContext<'addBookingNotes'>) {
  const b = await loadBooking(d.db, ctx, ctx.params.booking_id, { status: 400 });
  const notes = ctx.body.notes.map((n) => n.trim()).filter((n) => n.length > 0);
  if (notes.length === 0) throw badRequest('no_usable_notes', 'Every note was empty.');
  const supplier = flightSupplierOf(d.suppliers, b.supplier);
  if (!supplier.capabilities.notes)
    throw notSupported('not_supported_by_provider', `Supplier ${b.supplier} takes no notes.`);
  let result: { success: boolean; reason?: string };
  if (!b.supplier_order_ref) result = { success: false, reason: 'The booking has no supplier order yet.' };
  else {
    try {
      result = await supplier.addNotes(b.supplier_order_ref, notes, { signal: ctx.signal });
    } catch (err) {
      if (err instanceof SupplierError) {
        logSupplierError(ctx.log, err, 'notes_not_attached');
        if (err.kind === 'unsupported')
          throw notSupported('not_supported_by_provider', `Supplier ${b.supplier} takes no notes.`);
      } else ctx.log.warn({ err, booking_id: b.id }, 'attaching notes failed');
      result = { success: false, reason: 'The supplier did not attach the notes.' };
    }
  }
  await bookingDb(d.db)
    .insertInto('booking_notes')
    .values(
      notes.map((note) => ({
        booking_id: b.id,
        note,
        attached: result.success,
        user_id: ctx.auth?.userId ?? null,
      })),
    )
    .execute();
  return {
    booking_id: b.id,
    success: result.success,
    notes_added: result.success ? notes.length : 0,
    reason: result.success ? null : (result.reason ?? 'The supplier did not attach the notes.'),
  };
}
