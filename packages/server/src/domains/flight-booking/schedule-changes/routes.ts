/**
 * The schedule-change operations of a flight booking (docs/events.md "Schedule changes").
 *
 * METHOD /path → operationId:
 *   GET   /api/v1/bookings/{booking_id}/schedule-changes → listBookingScheduleChanges
 *   POST  /api/v1/bookings/{booking_id}/schedule-changes/refresh → refreshBookingScheduleChanges
 *   POST  /api/v1/bookings/{booking_id}/schedule-changes/{change_id}/accept → acceptBookingScheduleChange (accept.ts)
 */
import type { Routes } from '../../../kernel/types.ts';
import type { BookingDeps } from '../deps.ts';
import { loadBooking } from '../store.ts';
import { supplierFailure } from '../suppliers.ts';
import { acceptScheduleChange } from './accept.ts';
import { detectScheduleChange } from './detect.ts';
import { listChanges, scheduleChangeView } from './store.ts';

export function scheduleChangeRoutes(d: BookingDeps): Routes {
  return {
    listBookingScheduleChanges: async (ctx) => {
      const b = await loadBooking(d.db, ctx, ctx.params.booking_id);
      return { status: 200, body: { data: (await listChanges(d.db, b.id)).map(scheduleChangeView) } };
    },
    refreshBookingScheduleChanges: async (ctx) => {
      const b = await loadBooking(d.db, ctx, ctx.params.booking_id);
      try {
        await detectScheduleChange(d, b.id, { signal: ctx.signal });
      } catch (err) {
        const failed = 'schedule_change_refresh_failed';
        supplierFailure(err, { failed, unsupported: failed }, ctx.log);
      }
      return { status: 200, body: { data: (await listChanges(d.db, b.id)).map(scheduleChangeView) } };
    },
    acceptBookingScheduleChange: (ctx) => acceptScheduleChange(d, ctx),
  };
}
