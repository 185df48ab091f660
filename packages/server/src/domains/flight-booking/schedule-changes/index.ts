/**
 * Schedule changes of flight bookings (issue 30, docs/events.md "Schedule changes"): the airline moves a
 * booked flight; the order-refresh job finds it (scan.ts, detect.ts), records it (store.ts) with its event
 * (events.ts), and the agency lists, refreshes and accepts it (routes.ts, accept.ts).
 */
export { scheduleChangeRoutes } from './routes.ts';
export {
  SCHEDULE_CHANGE_QUEUE,
  scanScheduleChanges,
  scheduleChangeJobHandlers,
  scheduleScheduleChangeScan,
} from './scan.ts';
