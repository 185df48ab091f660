/**
 * Which event a booking's status change emits (issue 30). One change, at most one event, recorded by
 * `setStatus` in the transaction that writes the status. Moves caused by a payment (authorized, captured,
 * declined, voided) emit the payment's event instead (`payment/store.ts`); a PAYMENT_FIRST booking whose
 * order is unknown after its authorization (payment_pending -> pending_pnr) emits none until it settles.
 */
import { type EventType, type NewEvent, record } from '../../events/record.ts';
import type { Db } from '../../storage/schema.ts';
import type { BookingEvent, BookingStatus } from './state-machine.ts';
import type { BookingViewRow } from './store.ts';
import { bookingView } from './view.ts';

/** Why the status moved: a state-machine event, the admin override, or a supplier order applied. */
export type StatusCause = BookingEvent | 'override' | 'order';

const TICKET: Partial<Record<StatusCause, EventType>> = {
  ticket_issued: 'ticket.issued',
  ticket_voided: 'ticket.voided',
  ticket_refunded: 'ticket.refunded',
};

export function bookingEventType(
  from: BookingStatus,
  to: BookingStatus,
  cause: StatusCause,
): EventType | null {
  if (cause === 'override') return 'booking.status_overridden';
  // The write-ahead row leaves `initiated` once, when createPnr (or reconciliation) settles it.
  if (from === 'initiated') return 'booking.created';
  if (from === 'pending_pnr') return 'booking.pending_settled';
  const ticket = TICKET[cause];
  if (ticket) return ticket;
  if (cause === 'cancel') return 'booking.cancelled';
  const byOrder = cause === 'order' || cause === 'pnr_confirmed' || cause === 'pnr_held';
  if (byOrder && (to === 'confirmed' || to === 'on_hold')) return 'booking.confirmed';
  if ((cause === 'order' || cause === 'pnr_rejected') && to === 'pnr_failed') return 'booking.failed';
  return null;
}

export function bookingEvent(type: EventType, b: BookingViewRow): NewEvent {
  return {
    type,
    companyId: b.company_id,
    resource: { type: 'booking', id: b.id, data: bookingView(b) },
    at: b.updated_at,
  };
}

/** Records the event of the move `from` -> `after.status`, if it has one, in `trx`. */
export async function recordStatusChange(
  trx: Db,
  from: BookingStatus,
  after: BookingViewRow,
  cause: StatusCause,
): Promise<void> {
  const type = bookingEventType(from, after.status, cause);
  if (type) await record(trx, bookingEvent(type, after));
}
