import { notSupported } from '../../../kernel/errors.ts';
import { SupplierError } from '../../../suppliers/ports/errors.ts';
import type { TicketDocument } from '../../../suppliers/ports/flight.ts';
import type { BookingRow } from '../store.ts';
import { flightSupplierOf, supplierFailure } from '../suppliers.ts';
import type { TicketingDeps } from './deps.ts';
import { saveTickets, storedTickets } from './store.ts';

/** The supplier's ticket documents, kept as the last snapshot; unreachable: the snapshot answers. */
export async function readDocuments(t: TicketingDeps, b: BookingRow): Promise<TicketDocument[]> {
  if (!b.supplier_order_ref) return [];
  const supplier = flightSupplierOf(t.d.suppliers, b.supplier);
  try {
    const docs = await supplier.ticketDocuments(b.supplier_order_ref);
    if (docs.length > 0) await saveTickets(t.d.db, b.id, docs, t.d.clock.now());
    return docs;
  } catch (err) {
    if (err instanceof SupplierError && err.kind === 'unsupported') {
      t.d.logger?.warn({ err, booking_id: b.id }, 'supplier does not support ticket documents');
      throw notSupported('not_supported_by_provider', 'The supplier does not provide ticket documents.');
    }
    // The supplier is unreachable: the last snapshot still answers.
    const kept = await storedTickets(t.d.db, b.id);
    if (kept.length > 0) return kept;
    return supplierFailure(err, {
      failed: 'ticket_not_found',
      unsupported: 501,
      notFound: 'ticket_not_found',
    });
  }
}
