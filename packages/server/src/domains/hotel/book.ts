/**
 * POST /hotel/book. The rate is re-checked, the booking row is written `pending` together with a queued
 * reconciliation (the safety net if this request dies), then the supplier is called and its answer
 * settled through the state machine in `ctx.transaction`, which also stores the Idempotency-Key's
 * response. An ambiguous supplier answer leaves the booking pending, brings the reconciliation forward
 * and answers 502 with the booking_id (stored, so a replay answers the same).
 */
import { randomBytes } from 'node:crypto';
import { writeAudit } from '../../audit/audit-log.ts';
import { badRequest } from '../../kernel/errors.ts';
import type { HandlerResult, RequestContext } from '../../kernel/types.ts';
import type { Db } from '../../storage/schema.ts';
import { type HotelGuestInput, SupplierError, type SupplierHotelBooking } from '../../suppliers/ports.ts';
import { checkRate, hotelSupplier } from './check-rate.ts';
import type { HotelDeps } from './deps.ts';
import { validateGuests } from './guests.ts';
import { HOTEL_KIND } from './shared/kind.ts';
import { getRow } from './shared/queries.ts';
import { dropReconcile, enqueueReconcile, moveStatus, runReconcileAt } from './shared/status-change.ts';
import { type CodeMap, logSupplierError, sentenceFor } from './shared/supplier-errors.ts';
import { json, serviceDb } from './shared/tables.ts';
import { type HotelBookingEvent, type HotelBookingStatus, nextHotelStatus } from './state-machine.ts';
import { hotelBookingView } from './view.ts';

interface BookBody {
  rate_key: string;
  provider: string;
  guests: HotelGuestInput[];
  contact_email: string;
  contact_phone: string;
  special_requests?: string;
  client_ref?: string;
}

const RECHECK_CODES: CodeMap = {
  not_found: [400, 'invalid_rate_key'],
  invalid_request: [400, 'invalid_rate_key'],
  sold_out: [400, 'sold_out'],
  offer_expired: [400, 'offer_expired'],
  price_changed: [400, 'price_changed'],
  rejected: [400, 'supplier_rejected'],
};

/** Supplier refusals at book time: the event they are and the answer's code. */
const REFUSALS: Partial<Record<SupplierError['kind'], [HotelBookingEvent, string]>> = {
  rejected: ['supplier_rejected', 'supplier_rejected'],
  declined: ['supplier_rejected', 'supplier_rejected'],
  sold_out: ['supplier_failed', 'sold_out'],
  price_changed: ['supplier_failed', 'price_changed'],
  offer_expired: ['supplier_failed', 'offer_expired'],
  invalid_request: ['supplier_failed', 'invalid_rate_key'],
  not_found: ['supplier_failed', 'invalid_rate_key'],
};

const EVENT_OF: Record<SupplierHotelBooking['status'], HotelBookingEvent | null> = {
  confirmed: 'supplier_confirmed',
  on_request: 'supplier_on_request',
  rejected: 'supplier_rejected',
  cancelled: 'supplier_cancelled',
  pending: null,
};

/** What the audit trail keeps of a refusal: its kind and the supplier's code, not its prose. */
export const supplierReason = (e: SupplierError): string =>
  e.supplierCode ? `${e.kind} (${e.supplier} ${e.supplierCode})` : e.kind;

export const newClientReference = (prefix: string): string => `${prefix}${randomBytes(8).toString('hex')}`;

export async function bookHotel(deps: HotelDeps, ctx: RequestContext): Promise<HandlerResult> {
  const body = ctx.body as BookBody;
  const auth = ctx.auth;
  if (!auth) throw new Error('bookHotel needs an authenticated caller');
  const supplier = hotelSupplier(deps, body.provider, 'invalid_rate_key');
  const check = await checkRate(supplier, body.rate_key, ctx.signal, RECHECK_CODES, ctx.log);
  if (!check.available) throw badRequest('sold_out', 'The rate is no longer available.');
  if (check.price_changed) {
    throw badRequest(
      'price_changed',
      'The price changed since the rate was quoted; check the rate again and book the new one.',
      {
        previous_total_minor: check.previous_total_minor,
        new_total_minor: check.offer.price.total_minor,
      },
    );
  }
  const offer = check.offer;
  validateGuests(body.guests, offer);
  const holder = body.guests.find((g) => g.type === 'AD') ?? body.guests[0];
  if (!holder) throw badRequest('invalid_guest', 'At least one guest is required.');

  const db = serviceDb(deps.db);
  const now = deps.clock.now();
  const clientReference = newClientReference('TH');
  const id = await db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('hotel_bookings')
      .values({
        status: 'pending',
        provider: body.provider,
        client_reference: clientReference,
        rate_key: offer.rate_key,
        supplier_booking_ref: null,
        hotel_confirmation: null,
        hotel: json(offer.hotel),
        room: json(offer.room),
        check_in: offer.check_in,
        check_out: offer.check_out,
        nights: offer.nights,
        guests: json(body.guests),
        contact_email: body.contact_email,
        contact_phone: body.contact_phone,
        special_requests: body.special_requests ?? null,
        client_ref: body.client_ref ?? null,
        currency: offer.price.currency,
        total_minor: offer.price.total_minor,
        cancellation_policies: json(offer.cancellation_policies),
        cancellation_fee: null,
        user_id: auth.userId,
        company_id: auth.companyId,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const bookingId = Number(row.id);
    await enqueueReconcile(
      trx,
      HOTEL_KIND,
      bookingId,
      new Date(now.getTime() + (deps.reconcileAfterMs ?? 10 * 60_000)),
      deps.clock,
    );
    await writeAudit(trx as unknown as Db, ctx, {
      entity: HOTEL_KIND.entity,
      entityId: bookingId,
      action: 'created',
      changes: { to: 'pending', provider: body.provider, client_reference: clientReference },
      companyId: auth.companyId,
    });
    return bookingId;
  });

  let outcome: SupplierHotelBooking | SupplierError;
  try {
    outcome = await supplier.book(
      {
        rate_key: offer.rate_key,
        guests: body.guests,
        holder: { first_name: holder.first_name, last_name: holder.last_name },
        contact_email: body.contact_email,
        contact_phone: body.contact_phone,
        ...(body.special_requests ? { special_requests: body.special_requests } : {}),
        client_reference: clientReference,
      },
      { signal: ctx.signal, idempotencyKey: clientReference },
    );
  } catch (err) {
    // Anything but a SupplierError is our bug: the row stays pending and its queued job settles it.
    if (!(err instanceof SupplierError)) throw err;
    outcome = err;
  }
  return ctx.transaction((trx) => settle(deps, ctx, serviceDb(trx), id, outcome));
}

async function settle(
  deps: HotelDeps,
  ctx: RequestContext,
  trx: ReturnType<typeof serviceDb>,
  id: number,
  outcome: SupplierHotelBooking | SupplierError,
): Promise<HandlerResult> {
  const row = await getRow(trx, HOTEL_KIND, id, true);
  if (!row) throw new Error(`hotel booking ${id} vanished`);
  const from = row.status as HotelBookingStatus;
  const error = (status: number, code: string, detail: string, extra: Record<string, unknown> = {}) => ({
    status,
    body: { detail, code, request_id: ctx.requestId, ...extra },
  });
  if (outcome instanceof SupplierError) {
    const refusal = REFUSALS[outcome.kind];
    if (refusal && from === 'pending') {
      const [event, code] = refusal;
      await moveStatus(trx, HOTEL_KIND, row, nextHotelStatus(from, event), deps.clock, {
        ctx,
        action: event,
        reason: supplierReason(outcome),
      });
      await dropReconcile(trx, HOTEL_KIND, id);
      logSupplierError(ctx.log, outcome, code);
      return error(400, code, sentenceFor(code), { booking_id: id });
    }
    // unknown outcome, timeout, unavailable: the supplier may hold it; reconciliation finds out
    await runReconcileAt(trx, HOTEL_KIND, id, deps.clock.now());
    return pending(ctx, id);
  }
  const event = EVENT_OF[outcome.status];
  if (!event || from !== 'pending') {
    await trx
      .updateTable('hotel_bookings')
      .set({ supplier_booking_ref: outcome.booking_ref, updated_at: deps.clock.now() })
      .where('id', '=', id)
      .execute();
    await runReconcileAt(trx, HOTEL_KIND, id, deps.clock.now());
    return pending(ctx, id);
  }
  await moveStatus(trx, HOTEL_KIND, row, nextHotelStatus(from, event), deps.clock, {
    ctx,
    action: event,
    set: {
      supplier_booking_ref: outcome.booking_ref,
      hotel_confirmation: outcome.hotel_confirmation,
      currency: outcome.total.currency,
      total_minor: outcome.total.amount_minor,
      cancellation_policies: json(outcome.cancellation_policies),
    },
  });
  await dropReconcile(trx, HOTEL_KIND, id);
  if (event === 'supplier_rejected') {
    return error(400, 'supplier_rejected', 'The supplier rejected the reservation.', { booking_id: id });
  }
  const fresh = await getRow(trx, HOTEL_KIND, id);
  return { status: 200, body: hotelBookingView(fresh ?? row) };
}

function pending(ctx: RequestContext, id: number): HandlerResult {
  return {
    status: 502,
    body: {
      detail:
        'The supplier has neither confirmed nor rejected the booking yet; poll the booking, do not retry.',
      code: 'booking_pending',
      request_id: ctx.requestId,
      booking_id: id,
      status: 'pending',
    },
  };
}
