import type { TicketDocument } from '../../../suppliers/ports/flight.ts';
import type { BookingRow } from '../store.ts';
import { flightSupplierOf } from '../suppliers.ts';
import type { TicketingDeps } from './deps.ts';

/** Whether the supplier holds issued tickets for the order (status where it has one, else documents). */
export async function probeIssued(
  t: TicketingDeps,
  b: BookingRow,
): Promise<{ issued: boolean; raw_status: string; tickets: TicketDocument[] }> {
  const supplier = flightSupplierOf(t.d.suppliers, b.supplier);
  const ref = b.supplier_order_ref as string;
  if (supplier.capabilities.ticketStatus) {
    const s = await supplier.ticketStatus(ref);
    if (!s.issued) return { issued: false, raw_status: s.raw_status, tickets: [] };
    const tickets = await supplier.ticketDocuments(ref).catch(() => [] as TicketDocument[]);
    return { issued: true, raw_status: s.raw_status, tickets };
  }
  const tickets = await supplier.ticketDocuments(ref);
  return { issued: tickets.length > 0, raw_status: tickets.length > 0 ? 'issued' : 'unknown', tickets };
}
