import { notSupported } from '../../../kernel/errors.ts';
import type { OperationContext } from '../../../kernel/types.ts';
import type { ServicingRequest } from '../../../suppliers/ports/flight.ts';
import { type BookingRow, loadBooking } from '../store.ts';
import { flightSupplierOf, supplierFailure } from '../suppliers.ts';
import type { Actor, TicketingDeps } from './deps.ts';
import { FOLLOWS, followTickets } from './follow-tickets.ts';

/** "No records found." means no request was ever raised: an empty list, not an error. */
export async function listServicing(t: TicketingDeps, ctx: OperationContext<'listServicingRequests'>) {
  const b = await loadBooking(t.d.db, ctx, ctx.params.booking_id);
  const supplier = flightSupplierOf(t.d.suppliers, b.supplier);
  if (!supplier.capabilities.servicing)
    throw notSupported('not_supported_by_provider', `Supplier ${b.supplier} has no servicing requests.`);
  if (!b.supplier_order_ref) return { booking_id: b.id, items: [], message: 'No records found.' };
  const items = await readServicing(t, ctx, b, ctx.signal);
  return { booking_id: b.id, items, message: items.length === 0 ? 'No records found.' : null };
}

/** Reads the servicing list; a completed void/refund moves the booking. GET …/servicing and the job. */
export async function readServicing(
  t: TicketingDeps,
  actor: Actor,
  b: BookingRow,
  signal?: AbortSignal,
): Promise<ServicingRequest[]> {
  const supplier = flightSupplierOf(t.d.suppliers, b.supplier);
  let items: ServicingRequest[];
  try {
    items = await supplier.listServicing(b.supplier_order_ref as string, { signal });
  } catch (err) {
    return supplierFailure(err, {
      failed: 'ticket_action_failed',
      unsupported: 501,
      notFound: 'booking_not_found',
    });
  }
  // A void or refund the consolidator has completed: the booking follows the tickets. (Quotes complete
  // at once and look the same here; their document shows live coupons, which moves nothing.)
  const done = items.find((x) => x.type !== 'reissue' && x.state === 'Completed');
  if (done && FOLLOWS.includes(b.status))
    await followTickets(t, actor, b, { cause: `servicing request ${done.request_id} completed` });
  return items;
}
