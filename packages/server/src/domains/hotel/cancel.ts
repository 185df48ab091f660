/**
 * Cancels a hotel booking at the provider: a SIMULATION first (the fee the provider will keep), then the
 * cancellation itself; the status moves through the state machine with the fee, audited. The state
 * check happens before the supplier is called, and again under the row lock when recording.
 */
import { badRequest } from '../../kernel/errors.ts';
import type { HandlerResult, RequestContext } from '../../kernel/types.ts';
import type { HotelDeps } from './deps.ts';
import { visibleOrNotFound } from './shared/access.ts';
import { HOTEL_KIND } from './shared/kind.ts';
import { getRow } from './shared/queries.ts';
import { moveStatus } from './shared/status-change.ts';
import { supplierHttpError } from './shared/supplier-errors.ts';
import { json, serviceDb } from './shared/tables.ts';
import { type HotelBookingStatus, nextHotelStatus } from './state-machine.ts';

const CANCEL_CODES = {
  invalid_request: [400, 'not_cancellable'],
  unsupported: [400, 'not_cancellable'],
  not_found: [400, 'cancellation_failed'],
  rejected: [400, 'cancellation_failed'],
  declined: [400, 'cancellation_failed'],
} as const satisfies Parameters<typeof supplierHttpError>[1];

export async function cancelHotelBooking(
  deps: HotelDeps,
  ctx: RequestContext,
  owner: 'user' | 'any',
): Promise<HandlerResult> {
  const id = Number(ctx.params.booking_id);
  const db = serviceDb(deps.db);
  const row = visibleOrNotFound(ctx, HOTEL_KIND, await getRow(db, HOTEL_KIND, id), owner);
  nextHotelStatus(row.status as HotelBookingStatus, 'cancel');
  const ref = row.supplier_booking_ref as string | null;
  const supplier = deps.suppliers.hotel(row.provider as string);
  if (!ref || !supplier)
    throw badRequest('cancellation_failed', 'The provider booking cannot be reached for cancellation.');
  let done: Awaited<ReturnType<typeof supplier.cancel>>;
  try {
    const quote = await supplier.cancel(ref, true, { signal: ctx.signal });
    done = await supplier.cancel(ref, false, { signal: ctx.signal });
    ctx.log.info(
      { booking_id: id, quoted_fee: quote.fee, fee: done.fee },
      'hotel booking cancelled at provider',
    );
  } catch (err) {
    throw supplierHttpError(err, CANCEL_CODES, ctx.log);
  }
  if (!done.cancelled) throw badRequest('cancellation_failed', 'The provider did not cancel the booking.');
  return ctx.transaction(async (trx) => {
    const sdb = serviceDb(trx);
    const locked = await getRow(sdb, HOTEL_KIND, id, true);
    if (!locked) throw new Error(`hotel booking ${id} vanished`);
    const to = nextHotelStatus(locked.status as HotelBookingStatus, 'cancel');
    await moveStatus(sdb, HOTEL_KIND, locked, to, deps.clock, {
      ctx,
      action: 'cancelled',
      set: { cancellation_fee: json(done.fee) },
      details: { fee: done.fee, refund: done.refund },
    });
    return {
      status: 200,
      body: { booking_id: id, status: to, cancelled: true, cancellation_fee: done.fee, refund: done.refund },
    };
  });
}
