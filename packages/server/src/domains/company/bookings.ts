/** Company: the company's flight bookings, the attention list and assignment to a staff member. */
import { sql } from 'kysely';
import { writeAudit } from '../../audit/audit-log.ts';
import { badRequest, notFound } from '../../kernel/errors.ts';
import type { Routes } from '../../kernel/types.ts';
import { type AccountsDeps, ok, paging } from '../accounts/index.ts';
import {
  bookingDb,
  bookingView,
  keysetBody,
  listBookings,
  loadBooking,
  toViewRow,
  updateBooking,
  VIEW_COLUMNS,
} from '../flight-booking/index.ts';
import { ownCompany } from './clients.ts';

const STAFF_ROLES = ['company_admin', 'company_staff'];

export function companyBookingRoutes(d: AccountsDeps): Routes {
  const { db, clock } = d;
  return {
    companyListBookings: async (ctx) => {
      const cid = ownCompany(ctx);
      const p = paging(ctx);
      const q = ctx.query;
      const r = await listBookings(db, {
        page: p.page,
        page_size: p.page_size,
        company_id: cid,
        ...(q.starting_after ? { starting_after: q.starting_after } : {}),
        ...(q.status ? { status: q.status } : {}),
        ...(q.search ? { search: q.search } : {}),
        ...(q.date_from ? { date_from: q.date_from } : {}),
        ...(q.date_to ? { date_to: q.date_to } : {}),
        ...(q.sort_by ? { sort_by: q.sort_by } : {}),
        ...(q.sort_order ? { sort_order: q.sort_order } : {}),
      });
      return ok(keysetBody(r, p));
    },

    companyListPendingBookings: async (ctx) => {
      const cid = ownCompany(ctx);
      const soon = new Date(clock.now().getTime() + 24 * 3_600_000);
      // The columns the view shows (not `offer`); the order is the index (company_id, coalesce(deadline,
      // 'infinity'), id) of 0180, the same as `asc nulls last` (issue 31).
      const rows = await bookingDb(db)
        .selectFrom('flight_bookings')
        .select(VIEW_COLUMNS)
        .where('company_id', '=', cid)
        .where((eb) =>
          eb.or([
            eb('status', 'in', ['payment_pending', 'paid']),
            eb.and([
              eb('status', '=', 'on_hold'),
              eb('ticketing_deadline', 'is not', null),
              eb('ticketing_deadline', '<=', soon),
            ]),
          ]),
        )
        .orderBy(sql`coalesce(ticketing_deadline, 'infinity'::timestamptz)`)
        .orderBy('id')
        .limit(300)
        .execute();
      const views = rows.map((r) => bookingView(toViewRow(r as never)));
      return ok({
        payment_pending: views.filter((b) => b.status === 'payment_pending'),
        // Paid but not yet ticketed.
        ticketing_pending: views.filter((b) => b.status === 'paid'),
        on_hold_expiring: views.filter((b) => b.status === 'on_hold'),
      });
    },

    companyGetBooking: async (ctx) => {
      ownCompany(ctx);
      return ok(bookingView(await loadBooking(db, ctx, ctx.params.booking_id)));
    },

    companyAssignBooking: async (ctx) => {
      const cid = ownCompany(ctx);
      const b = ctx.body;
      return ctx.transaction(async (trx) => {
        const booking = await loadBooking(trx, ctx, ctx.params.booking_id, { forUpdate: true });
        const staff = await trx
          .selectFrom('users')
          .selectAll()
          .where('id', '=', b.staff_user_id)
          .where('company_id', '=', cid)
          .executeTakeFirst();
        if (!staff || !STAFF_ROLES.includes(staff.role))
          throw notFound('staff_not_found', 'Staff member not found.');
        if (!staff.is_active || staff.status !== 'active')
          throw badRequest('staff_inactive', 'The staff member is not active.');
        const updated = await updateBooking(trx, booking.id, clock.now(), { assigned_to_user_id: staff.id });
        await writeAudit(trx, ctx, {
          entity: 'booking',
          entityId: booking.id,
          action: 'assigned',
          reason: b.notes ?? null,
          changes: { from: booking.assigned_to_user_id, to: staff.id },
          companyId: cid,
        });
        return ok(bookingView(updated));
      });
    },
  };
}
