/**
 * The schedule-change events (docs/events.md): the booking as the API returns it, plus the change that
 * caused the event as `schedule_change`, recorded in the transaction of the change.
 */
import { type EventType, record } from '../../../events/record.ts';
import type { Db } from '../../../storage/schema.ts';
import type { BookingViewRow } from '../store.ts';
import { bookingView } from '../view.ts';
import { type ScheduleChangeRow, scheduleChangeView } from './store.ts';

export async function recordScheduleEvent(
  trx: Db,
  type: Extract<EventType, 'schedule_change.detected' | 'schedule_change.accepted'>,
  b: BookingViewRow,
  change: ScheduleChangeRow,
  at: Date,
): Promise<void> {
  await record(trx, {
    type,
    companyId: b.company_id,
    resource: {
      type: 'booking',
      id: b.id,
      data: { ...bookingView(b), schedule_change: scheduleChangeView(change) },
    },
    at,
  });
}
