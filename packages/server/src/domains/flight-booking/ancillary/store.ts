/** Ancillary (TSM) rows and seat selections. */
import { ANCILLARY_STATUSES, type components } from '@travel/contract';
import { storedCurrency } from '../../../internal/money.ts';
import { oneOf } from '../../../internal/narrow.ts';
import type { Db } from '../../../storage/schema.ts';
import type { SeatRequestResult } from '../../../suppliers/ports/flight.ts';
import { inTransaction, recordServicing, seatId } from '../servicing-events.ts';
import { bookingDb, json, parseJson } from '../tables.ts';

export interface AncillaryRow {
  id: number;
  booking_id: number;
  kind: string;
  code: string;
  rfic: string;
  rfisc: string;
  booking_method: string;
  provider: string;
  tsm_reference: string;
  emd_number: string | null;
  status: string;
  passenger_ids: string[];
  segment_ids: string[];
  price: { currency: string; amount_minor: number };
  created_at: Date;
}

const toRow = (r: Record<string, unknown>): AncillaryRow => ({
  ...(r as unknown as AncillaryRow),
  id: Number(r.id),
  booking_id: Number(r.booking_id),
  passenger_ids: parseJson(r.passenger_ids),
  segment_ids: parseJson(r.segment_ids),
  price: parseJson(r.price),
  created_at: new Date(r.created_at as string),
});

export const ancillaryView = (a: AncillaryRow): components['schemas']['Ancillary'] => ({
  ancillary_id: a.id,
  code: a.code,
  rfic: a.rfic,
  rfisc: a.rfisc,
  booking_method: a.booking_method,
  provider: a.provider,
  tsm_reference: a.tsm_reference,
  emd_number: a.emd_number,
  status: oneOf(ANCILLARY_STATUSES, a.status, 'booking_ancillaries.status'),
  passenger_ids: a.passenger_ids,
  segment_ids: a.segment_ids,
  price: { currency: storedCurrency(a.price.currency), amount_minor: a.price.amount_minor },
  created_at: a.created_at.toISOString(),
});

export async function listAncillaries(db: Db, bookingId: number): Promise<AncillaryRow[]> {
  const rows = await bookingDb(db)
    .selectFrom('booking_ancillaries')
    .selectAll()
    .where('booking_id', '=', bookingId)
    .orderBy('id')
    .execute();
  return rows.map((r) => toRow(r as never));
}

export async function insertAncillary(
  db: Db,
  a: Omit<AncillaryRow, 'id' | 'created_at'>,
  now: Date,
): Promise<AncillaryRow> {
  const r = await bookingDb(db)
    .insertInto('booking_ancillaries')
    .values({
      ...a,
      passenger_ids: json(a.passenger_ids),
      segment_ids: json(a.segment_ids),
      price: json(a.price),
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toRow(r as never);
}

export async function updateAncillary(
  db: Db,
  id: number,
  patch: { status?: string; emd_number?: string | null },
  now: Date,
) {
  await bookingDb(db)
    .updateTable('booking_ancillaries')
    .set({ ...patch, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/**
 * Stores the seats the supplier accepted or holds (not the refused ones) with their `servicing.updated`,
 * in `db`'s transaction or a new one. `action`: `selected` (seat selection) or `issued` (priced and
 * issued: the request, or the reconciliation job that read a lost answer back).
 */
export async function saveSeats(
  db: Db,
  bookingId: number,
  results: SeatRequestResult[],
  now: Date,
  action: 'selected' | 'issued' = 'issued',
) {
  const stored = results.filter((x) => x.accepted || x.status !== 'refused');
  if (stored.length === 0) return;
  await inTransaction(db, async (trx) => {
    for (const s of stored) {
      const values = {
        seat_number: s.seat_number,
        status: s.status,
        price: s.price ? json(s.price) : null,
        updated_at: now,
      };
      await bookingDb(trx)
        .insertInto('booking_seat_selections')
        .values({ booking_id: bookingId, segment_id: s.segment_id, passenger_id: s.passenger_id, ...values })
        .onConflict((oc) => oc.columns(['booking_id', 'segment_id', 'passenger_id']).doUpdateSet(values))
        .execute();
    }
    await recordServicing(trx, bookingId, { kind: 'seats', action, ids: stored.map(seatId) }, now);
  });
}

export async function pendingSeats(db: Db, bookingId: number) {
  return bookingDb(db)
    .selectFrom('booking_seat_selections')
    .selectAll()
    .where('booking_id', '=', bookingId)
    .where('status', '=', 'pending')
    .execute();
}
