/**
 * An admin report: dashboard KPIs, then every booking still pending confirmation, walked page by page.
 * Needs an admin login. Run: `node examples/admin-report.ts` (see env.ts).
 */
import { clientFromEnv } from './env.ts';

const travel = await clientFromEnv();

console.log('dashboard', JSON.stringify(await travel.admin.reports.dashboard(), null, 2));

const byStatus = new Map<string, number>();
let count = 0;
for await (const booking of travel.admin.bookings.list({ page_size: 50 })) {
  byStatus.set(booking.status, (byStatus.get(booking.status) ?? 0) + 1);
  count++;
}
console.log(`${count} bookings`, Object.fromEntries(byStatus));

for await (const booking of travel.admin.bookings.list({ status: 'pending_pnr' })) {
  console.log('pending', booking.booking_id, booking.pnr, booking.created_at);
}
