/**
 * `POST /bookings/{booking_id}/schedule-changes/{change_id}/accept`: the supplier's accept where it takes
 * one (Duffel), then, in one transaction with the idempotency record, the change is accepted, the
 * booking's flights become its new segments and `schedule_change.accepted` is recorded. An accepted
 * change answers 200 again (the supplier is not asked twice: its accept also treats "already accepted" as
 * done, for a retry whose first answer was lost).
 */
import { badRequest, notFound } from '../../../kernel/errors.ts';
import type { OperationContext, ResultOf } from '../../../kernel/types.ts';
import type { BookingDeps } from '../deps.ts';
import { loadBooking, updateBooking } from '../store.ts';
import { flightSupplierOf, supplierFailure } from '../suppliers.ts';
import { json } from '../tables.ts';
import { WATCHED_STATUSES } from './detect.ts';
import { recordScheduleEvent } from './events.ts';
import { findChange, markAccepted, type ScheduleChangeRow, scheduleChangeView } from './store.ts';

type Ctx = OperationContext<'acceptBookingScheduleChange'>;

const changeNotFound = () => notFound('schedule_change_not_found', 'Schedule change not found.');

function assertAcceptable(c: ScheduleChangeRow | undefined, status: string): asserts c is ScheduleChangeRow {
  if (!c) throw changeNotFound();
  if (c.status === 'superseded')
    throw badRequest(
      'schedule_change_superseded',
      'The airline changed the schedule again: accept the newer change.',
    );
  if (c.status === 'pending' && !WATCHED_STATUSES.includes(status as (typeof WATCHED_STATUSES)[number]))
    throw badRequest('invalid_booking_state', `A ${status} booking takes no schedule change.`);
}

export async function acceptScheduleChange(
  d: BookingDeps,
  ctx: Ctx,
): Promise<ResultOf<'acceptBookingScheduleChange'>> {
  const b = await loadBooking(d.db, ctx, ctx.params.booking_id);
  const change = await findChange(d.db, b.id, ctx.params.change_id);
  assertAcceptable(change, b.status);
  if (change.status === 'pending' && change.supplier_change_id && b.supplier_order_ref) {
    const supplier = flightSupplierOf(d.suppliers, b.supplier);
    try {
      await supplier.acceptScheduleChange?.(b.supplier_order_ref, change.supplier_change_id, {
        signal: ctx.signal,
      });
    } catch (err) {
      supplierFailure(
        err,
        { failed: 'schedule_change_accept_failed', unsupported: 'schedule_change_accept_failed' },
        ctx.log,
      );
    }
  }
  return ctx.transaction(async (trx) => {
    const locked = await loadBooking(trx, ctx, b.id, { forUpdate: true });
    const c = await findChange(trx, locked.id, change.id, true);
    assertAcceptable(c, locked.status);
    if (c.status === 'accepted') return { status: 200 as const, body: scheduleChangeView(c) };
    const now = d.clock.now();
    const accepted = await markAccepted(trx, c.id, ctx.auth?.userId ?? null, now);
    const after = await updateBooking(trx, locked.id, now, { flights: json(accepted.new_segments) });
    await recordScheduleEvent(trx, 'schedule_change.accepted', after, accepted, now);
    return { status: 200 as const, body: scheduleChangeView(accepted) };
  });
}
