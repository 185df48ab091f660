/**
 * Customer: own flight bookings. Cancelling records a cancellation request (one open per booking) for
 * the agency/back office to process; suppliers are not called from here.
 */
import { writeAudit } from '../../audit/audit-log.ts';
import { badRequest } from '../../kernel/errors.ts';
import type { Routes } from '../../kernel/types.ts';
import { type AccountsDeps, accountsDb, ok, paging } from '../accounts/index.ts';
import { bookingView, keysetBody, listBookings, loadBooking } from '../flight-booking/index.ts';

const FINAL = new Set(['cancelled', 'refunded', 'expired', 'pnr_failed']);

export function customerBookingRoutes(d: AccountsDeps): Routes {
  const { db, clock } = d;
  return {
    customerListBookings: async (ctx) => {
      const p = paging(ctx);
      const r = await listBookings(db, {
        page: p.page,
        page_size: p.page_size,
        user_id: ctx.auth?.userId as string,
        ...(ctx.query.starting_after ? { starting_after: ctx.query.starting_after } : {}),
        ...(ctx.query.status ? { status: ctx.query.status } : {}),
        sort_by: 'created_at',
        sort_order: 'desc',
      });
      return ok(keysetBody(r, p));
    },

    customerGetBooking: async (ctx) => ok(bookingView(await loadBooking(db, ctx, ctx.params.booking_id))),

    customerCancelBooking: async (ctx) => {
      const reason = ctx.body?.reason ?? null;
      return ctx.transaction(async (trx) => {
        const b = await loadBooking(trx, ctx, ctx.params.booking_id, { forUpdate: true });
        if (FINAL.has(b.status))
          throw badRequest('invalid_booking_state', `A booking in status ${b.status} cannot be cancelled.`);
        const open = await accountsDb(trx)
          .selectFrom('cancellation_requests')
          .select('id')
          .where('booking_type', '=', 'flight')
          .where('booking_id', '=', b.id)
          .where('status', 'in', ['requested', 'processing'])
          .executeTakeFirst();
        if (!open) {
          const now = clock.now();
          const req = await accountsDb(trx)
            .insertInto('cancellation_requests')
            .values({
              booking_id: b.id,
              user_id: b.user_id,
              company_id: b.company_id,
              reason,
              created_at: now,
              updated_at: now,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          await writeAudit(trx, ctx, {
            entity: 'booking',
            entityId: b.id,
            action: 'cancellation_requested',
            reason,
            changes: { cancellation_request_id: Number(req.id), status: b.status },
            companyId: b.company_id,
          });
        }
        // The booking stays as it is until the request is processed; `cancelled: false` says so.
        return ok({
          booking_id: b.id,
          status: b.status,
          cancelled: false,
          refund: null,
          cancellation_fee: null,
        });
      });
    },
  };
}
