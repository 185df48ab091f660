/**
 * Which event a hotel or transport booking's change emits (issue 30), recorded in the transaction that
 * makes it: `created` when the booking is written (pending, ahead of the supplier call); `confirmed`
 * (confirmed or on request at the provider), `failed` (rejected or failed), `cancelled` on the request
 * path; `pending_settled` when a job settles a pending booking; `status_overridden` for the admin.
 */
import { type EventType, record } from '../../events/record.ts';
import { hotelBookingView } from './hotel/view.ts';
import type { BookingKind } from './kind.ts';
import type { ServiceDb } from './tables.ts';
import { transportBookingView } from './transport/view.ts';

const VIEWS: Record<BookingKind['entity'], (r: Record<string, unknown>) => unknown> = {
  hotel_booking: hotelBookingView,
  transport_booking: transportBookingView,
};

type Suffix = 'created' | 'confirmed' | 'failed' | 'cancelled' | 'pending_settled' | 'status_overridden';

export function reservationEventSuffix(
  from: string | null,
  to: string,
  by: { action: string; job: boolean },
): Suffix | null {
  if (from === null) return 'created';
  if (by.action === 'status_overridden') return 'status_overridden';
  if (from === 'pending' && by.job) return 'pending_settled';
  if (to === from) return null;
  if (to === 'confirmed' || to === 'on_request') return 'confirmed';
  if (to === 'rejected' || to === 'failed') return 'failed';
  if (to === 'cancelled') return 'cancelled';
  return null;
}

/** Records the event of `row`'s move from `from` (null: just written), if it has one. */
export async function recordReservationChange(
  trx: ServiceDb,
  k: BookingKind,
  from: string | null,
  row: Record<string, unknown>,
  by: { action: string; job: boolean },
): Promise<void> {
  const suffix = reservationEventSuffix(from, String(row.status), by);
  if (!suffix) return;
  await record(trx, {
    type: `${k.entity}.${suffix}` as EventType,
    companyId: (row.company_id as number | null) ?? null,
    resource: { type: k.entity, id: Number(row.id), data: VIEWS[k.entity](row) },
    at: new Date(row.updated_at as Date | string),
  });
}
