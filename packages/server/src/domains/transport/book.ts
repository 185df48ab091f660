/**
 * POST /transport/book: the same protocol as hotel booking (see domains/hotel/book.ts): re-quote, write
 * the booking `pending` with its safety-net reconciliation, call the provider, settle through the state
 * machine in `ctx.transaction` (which stores the Idempotency-Key's response); ambiguous: 502 + booking_id.
 */
import { writeAudit } from '../../audit/audit-log.ts';
import { badRequest } from '../../kernel/errors.ts';
import type { HandlerResult, RequestContext } from '../../kernel/types.ts';
import type { Db } from '../../storage/schema.ts';
import {
  SupplierError,
  type SupplierTransferBooking,
  type TransferPassengerInput,
} from '../../suppliers/ports.ts';
import { newClientReference, supplierReason } from '../hotel/book.ts';
import { TRANSPORT_KIND } from '../hotel/shared/kind.ts';
import { getRow } from '../hotel/shared/queries.ts';
import {
  dropReconcile,
  enqueueReconcile,
  moveStatus,
  runReconcileAt,
} from '../hotel/shared/status-change.ts';
import { type CodeMap, logSupplierError, sentenceFor } from '../hotel/shared/supplier-errors.ts';
import { json, type ServiceDb, serviceDb } from '../hotel/shared/tables.ts';
import type { TransportDeps } from './deps.ts';
import { quote, transferSupplier } from './quote.ts';
import {
  nextTransportStatus,
  type TransportBookingEvent,
  type TransportBookingStatus,
} from './state-machine.ts';
import { transportBookingView } from './view.ts';

interface BookBody {
  quote_id: string;
  provider: string;
  passengers: TransferPassengerInput[];
  contact: { email: string; phone: string; name?: string };
  flight_number?: string;
  hotel_name?: string;
  special_requests?: string;
}

const REQUOTE_CODES: CodeMap = {
  not_found: [404, 'quote_not_found'],
  invalid_request: [400, 'invalid_quote'],
  sold_out: [400, 'sold_out'],
  offer_expired: [400, 'offer_expired'],
  price_changed: [400, 'price_changed'],
  rejected: [400, 'supplier_rejected'],
};

const REFUSALS: Partial<Record<SupplierError['kind'], [TransportBookingEvent, string]>> = {
  rejected: ['supplier_rejected', 'supplier_rejected'],
  declined: ['supplier_rejected', 'supplier_rejected'],
  sold_out: ['supplier_failed', 'sold_out'],
  price_changed: ['supplier_failed', 'price_changed'],
  offer_expired: ['supplier_failed', 'offer_expired'],
  invalid_request: ['supplier_failed', 'invalid_quote'],
  not_found: ['supplier_failed', 'invalid_quote'],
};

const EVENT_OF: Record<SupplierTransferBooking['status'], TransportBookingEvent | null> = {
  confirmed: 'supplier_confirmed',
  rejected: 'supplier_rejected',
  cancelled: 'supplier_cancelled',
  pending: null,
};

export async function bookTransport(deps: TransportDeps, ctx: RequestContext): Promise<HandlerResult> {
  const body = ctx.body as BookBody;
  const auth = ctx.auth;
  if (!auth) throw new Error('bookTransport needs an authenticated caller');
  const supplier = transferSupplier(deps, body.provider, 'invalid_quote');
  const q = await quote(supplier, body.quote_id, ctx.signal, REQUOTE_CODES, ctx.log);
  if (!q.available) throw badRequest('sold_out', 'The transfer is no longer available.');
  if (q.price_changed) {
    throw badRequest(
      'price_changed',
      'The price changed since the quote; quote again and book the new one.',
      {
        new_total_minor: q.offer.price.total_minor,
      },
    );
  }
  const offer = q.offer;
  if (body.passengers.length > offer.vehicle.max_passengers) {
    throw badRequest(
      'invalid_passenger',
      `The vehicle takes at most ${offer.vehicle.max_passengers} passengers.`,
    );
  }
  const lead = body.passengers[0];
  if (!lead) throw badRequest('invalid_passenger', 'A lead passenger is required.');

  const db = serviceDb(deps.db);
  const now = deps.clock.now();
  const clientReference = newClientReference('TT');
  const id = await db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('transport_bookings')
      .values({
        status: 'pending',
        provider: body.provider,
        client_reference: clientReference,
        quote_id: offer.quote_id,
        supplier_booking_ref: null,
        confirmation_number: null,
        transfer_type: offer.transfer_type,
        vehicle: json(offer.vehicle),
        pickup: json(offer.pickup),
        dropoff: json(offer.dropoff),
        passengers: json(body.passengers),
        contact: json(body.contact),
        flight_number: body.flight_number ?? null,
        hotel_name: body.hotel_name ?? null,
        special_requests: body.special_requests ?? null,
        currency: offer.price.currency,
        total_minor: offer.price.total_minor,
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
      TRANSPORT_KIND,
      bookingId,
      new Date(now.getTime() + (deps.reconcileAfterMs ?? 10 * 60_000)),
      deps.clock,
    );
    await writeAudit(trx as unknown as Db, ctx, {
      entity: TRANSPORT_KIND.entity,
      entityId: bookingId,
      action: 'created',
      changes: { to: 'pending', provider: body.provider, client_reference: clientReference },
      companyId: auth.companyId,
    });
    return bookingId;
  });

  let outcome: SupplierTransferBooking | SupplierError;
  try {
    outcome = await supplier.book(
      {
        quote_id: offer.quote_id,
        passengers: body.passengers,
        contact: body.contact,
        ...(body.flight_number ? { flight_number: body.flight_number } : {}),
        ...(body.hotel_name ? { hotel_name: body.hotel_name } : {}),
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
  deps: TransportDeps,
  ctx: RequestContext,
  trx: ServiceDb,
  id: number,
  outcome: SupplierTransferBooking | SupplierError,
): Promise<HandlerResult> {
  const row = await getRow(trx, TRANSPORT_KIND, id, true);
  if (!row) throw new Error(`transport booking ${id} vanished`);
  const from = row.status as TransportBookingStatus;
  const error = (status: number, code: string, detail: string) => ({
    status,
    body: { detail, code, request_id: ctx.requestId, booking_id: id },
  });
  if (outcome instanceof SupplierError) {
    const refusal = REFUSALS[outcome.kind];
    if (refusal && from === 'pending') {
      const [event, code] = refusal;
      await moveStatus(trx, TRANSPORT_KIND, row, nextTransportStatus(from, event), deps.clock, {
        ctx,
        action: event,
        reason: supplierReason(outcome),
      });
      await dropReconcile(trx, TRANSPORT_KIND, id);
      logSupplierError(ctx.log, outcome, code);
      return error(400, code, sentenceFor(code));
    }
    await runReconcileAt(trx, TRANSPORT_KIND, id, deps.clock.now());
    return pending(ctx, id);
  }
  const event = EVENT_OF[outcome.status];
  if (!event || from !== 'pending') {
    await trx
      .updateTable('transport_bookings')
      .set({ supplier_booking_ref: outcome.booking_ref, updated_at: deps.clock.now() })
      .where('id', '=', id)
      .execute();
    await runReconcileAt(trx, TRANSPORT_KIND, id, deps.clock.now());
    return pending(ctx, id);
  }
  await moveStatus(trx, TRANSPORT_KIND, row, nextTransportStatus(from, event), deps.clock, {
    ctx,
    action: event,
    set: {
      supplier_booking_ref: outcome.booking_ref,
      confirmation_number: outcome.confirmation_number,
      currency: outcome.total.currency,
      total_minor: outcome.total.amount_minor,
    },
  });
  await dropReconcile(trx, TRANSPORT_KIND, id);
  if (event === 'supplier_rejected')
    return error(400, 'supplier_rejected', 'The supplier rejected the reservation.');
  const fresh = await getRow(trx, TRANSPORT_KIND, id);
  return { status: 200, body: transportBookingView(fresh ?? row) };
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
