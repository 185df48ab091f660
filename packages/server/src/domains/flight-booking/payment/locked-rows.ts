import { HttpError, notFound } from '../../../kernel/errors.ts';
import type { Db } from '../../../storage/schema.ts';
import { type BookingRow, findBooking } from '../store.ts';
import { latestPayment, type PaymentRow } from './store.ts';

/** The booking's latest payment, locked. */
export async function lockedPayment(db: Db, b: BookingRow): Promise<PaymentRow> {
  const p = await latestPayment(db, b.id, true);
  if (!p) throw notFound('payment_not_found', 'The booking has no payment.');
  return p;
}

/** The booking, locked. */
export async function loadFresh(db: Db, id: number): Promise<BookingRow> {
  const b = await findBooking(db, id, { forUpdate: true });
  if (!b) throw new HttpError(404, 'booking_not_found', 'Booking not found.');
  return b;
}
