/**
 * Cancels a transfer at the provider and records the fee it keeps (the rest is the refund). The state
 * machine is consulted before the provider is called and again under the row lock when recording.
 */
import { badRequest } from '../../kernel/errors.ts';
import type { HandlerResult, RequestContext } from '../../kernel/types.ts';
import { visibleOrNotFound } from '../hotel/shared/access.ts';
import { TRANSPORT_KIND } from '../hotel/shared/kind.ts';
import { getRow } from '../hotel/shared/queries.ts';
import { moveStatus } from '../hotel/shared/status-change.ts';
import { supplierHttpError } from '../hotel/shared/supplier-errors.ts';
import { json, serviceDb } from '../hotel/shared/tables.ts';
import type { TransportDeps } from './deps.ts';
import { nextTransportStatus, type TransportBookingStatus } from './state-machine.ts';

const CANCEL_CODES = {
  invalid_request: [400, 'not_cancellable'],
  unsupported: [400, 'not_cancellable'],
  not_found: [400, 'cancellation_failed'],
  rejected: [400, 'cancellation_failed'],
  declined: [400, 'cancellation_failed'],
} as const satisfies Parameters<typeof supplierHttpError>[1];

export async function cancelTransportBooking(
  deps: TransportDeps,
  ctx: RequestContext,
  owner: 'user' | 'any',
): Promise<HandlerResult> {
  const id = Number(ctx.params.booking_id);
  const db = serviceDb(deps.db);
  const row = visibleOrNotFound(ctx, TRANSPORT_KIND, await getRow(db, TRANSPORT_KIND, id), owner);
  nextTransportStatus(row.status as TransportBookingStatus, 'cancel');
  const ref = row.supplier_booking_ref as string | null;
  const supplier = deps.suppliers.transfer(row.provider as string);
  if (!ref || !supplier)
    throw badRequest('cancellation_failed', 'The provider booking cannot be reached for cancellation.');
  let done: Awaited<ReturnType<typeof supplier.cancel>>;
  try {
    done = await supplier.cancel(ref, (row.confirmation_number as string | null) ?? ref, {
      signal: ctx.signal,
    });
  } catch (err) {
    throw supplierHttpError(err, CANCEL_CODES, ctx.log);
  }
  if (!done.cancelled) throw badRequest('cancellation_failed', 'The provider did not cancel the booking.');
  const total = Number(row.total_minor);
  const refund = { currency: done.fee.currency, amount_minor: Math.max(0, total - done.fee.amount_minor) };
  return ctx.transaction(async (trx) => {
    const sdb = serviceDb(trx);
    const locked = await getRow(sdb, TRANSPORT_KIND, id, true);
    if (!locked) throw new Error(`transport booking ${id} vanished`);
    const to = nextTransportStatus(locked.status as TransportBookingStatus, 'cancel');
    await moveStatus(sdb, TRANSPORT_KIND, locked, to, deps.clock, {
      ctx,
      action: 'cancelled',
      set: { cancellation_fee: json(done.fee) },
      details: { fee: done.fee, refund },
    });
    return {
      status: 200,
      body: { booking_id: id, status: to, cancelled: true, cancellation_fee: done.fee, refund },
    };
  });
}
