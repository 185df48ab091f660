/** Snapshots of the supplier's e-ticket documents, kept for the admin view and for offline reads. */
import type { Db } from '../../../storage/schema.ts';
import type { TicketDocument } from '../../../suppliers/ports/flight.ts';
import { bookingDb, json, parseJson } from '../tables.ts';

export async function saveTickets(db: Db, bookingId: number, docs: TicketDocument[], now: Date) {
  for (const d of docs) {
    await bookingDb(db)
      .insertInto('booking_tickets')
      .values({ booking_id: bookingId, ticket_number: d.ticket_number, document: json(d), updated_at: now })
      .onConflict((oc) =>
        oc.columns(['booking_id', 'ticket_number']).doUpdateSet({ document: json(d), updated_at: now }),
      )
      .execute();
  }
}

export async function storedTickets(db: Db, bookingId: number): Promise<TicketDocument[]> {
  const rows = await bookingDb(db)
    .selectFrom('booking_tickets')
    .select('document')
    .where('booking_id', '=', bookingId)
    .orderBy('ticket_number')
    .execute();
  return rows.map((r) => parseJson<TicketDocument>(r.document));
}
