/**
 * The reservation booker shared by hotel and transport bookings (POST /hotel/book, /transport/book) and
 * its reconciliation job (reconcile.ts). A database transaction is never held across a supplier call, so the intent is
 * written down first:
 *
 * 1. **Write ahead.** One transaction commits the booking `pending` with its reconciliation job. The
 *    supplier's client reference is derived from the caller's idempotency scope and request (`ctx.idempotency.effect`:
 *    every retry of the same request derives the same one; unique column `client_reference`), and the
 *    row keeps the scope, so reconciliation can tell a live request from a dead one.
 * 2. **Call** the supplier with that client reference.
 * 3. **Settle** in the transaction that stores the Idempotency-Key's response: an answer moves the row
 *    through the state machine; a refusal records it as refused (400); anything ambiguous (timeout,
 *    reset, 5xx after the supplier may have acted) leaves it `pending`, brings the job forward and
 *    answers 502 `booking_pending` with the booking_id: never a stored failure.
 *
 * A retry of the key after its process died (the lease lapsed) finds the row by the reference before
 * anything else (no rate re-check, no second booking): settled, it is answered as it stands; pending, the
 * supplier is asked by the reference (found and settled: settled now; otherwise 502). The job does
 * nothing while the writing request holds its lease; then it asks the supplier by the reference: found ->
 * settled as the supplier says; not found -> retried until the call window (`BOOKING_CALL_WINDOW_SECONDS`)
 * since the row was written has passed, then `failed` (no call of ours can still create it).
 */

import { randomBytes } from 'node:crypto';
import { writeAudit } from '../../audit/audit-log.ts';
import type { Clock } from '../../internal/clock.ts';
import { leaseSecondsFromEnv } from '../../internal/config.ts';
import { type FaultBoundary, faultPoint } from '../../internal/fault-hooks.ts';
import { type ErrorCode, HttpError } from '../../kernel/errors.ts';
import { errorResult } from '../../kernel/reply.ts';
import type { ErrorResult, JsonResult, RequestContext } from '../../kernel/types.ts';
import type { Db } from '../../storage/schema.ts';
import { logSupplierError, sentenceFor } from '../../suppliers/http-errors.ts';
import { type CallOptions, SupplierError, type SupplierErrorKind } from '../../suppliers/ports/errors.ts';
import { recordReservationChange } from './events.ts';
import type { BookingKind } from './kind.ts';
import { getRow } from './queries.ts';
import type { ReservationEvent, ReservationStatus } from './state-machine.ts';
import { nextStatus } from './state-machine.ts';
import { dropReconcile, enqueueReconcile, moveStatus, runReconcileAt } from './status-change.ts';
import { type ServiceDb, serviceDb } from './tables.ts';

export type ReservationRow = NonNullable<Awaited<ReturnType<typeof getRow>>>;

/** What a supplier answers about one reservation (hotel or transfer). */
export interface SupplierReservation {
  status: string;
  booking_ref: string;
  total: { currency: string; amount_minor: number };
}

/**
 * Supplier refusals at book time, the same for hotels and transfers but for the code of a reference the
 * supplier does not know (`invalid_rate_key`, `invalid_quote`).
 */
export const bookingRefusals = (
  invalidReference: ErrorCode,
): Partial<Record<SupplierErrorKind, [ReservationEvent, ErrorCode]>> => ({
  rejected: ['supplier_rejected', 'supplier_rejected'],
  declined: ['supplier_rejected', 'supplier_rejected'],
  sold_out: ['supplier_failed', 'sold_out'],
  price_changed: ['supplier_failed', 'price_changed'],
  offer_expired: ['supplier_failed', 'offer_expired'],
  invalid_request: ['supplier_failed', invalidReference],
  not_found: ['supplier_failed', invalidReference],
});

/**
 * The columns a supplier's answer fills: the kind's own (its confirmation) and the supplier's total. The
 * booking keeps the total it was shown and charged; the supplier's own is recorded beside it.
 */
export const settled = <B extends SupplierReservation>(k: ReservationKind<B>, b: B) => ({
  supplier_booking_ref: b.booking_ref,
  ...k.settledColumns(b),
  supplier_currency: b.total.currency,
  supplier_total_minor: b.total.amount_minor,
});

export interface ReservationFinder<B> {
  findBookingByClientReference(clientReference: string, opts?: CallOptions): Promise<B | null>;
}

/** The booker's answer: the booking (the vertical's view) or an error (pending 502, refused 400). */
export type BookAnswer<V> = JsonResult<V> | ErrorResult;

/** What differs between hotel and transport bookings for the booker. */
/** `V`: the vertical's view, the contract's type of its booking (HotelBooking, TransportBooking). */
export interface ReservationKind<B extends SupplierReservation, V extends object = object> {
  kind: BookingKind;
  /** Fault-hook prefix: `<hook>:before-supplier`, `:after-supplier`, `:before-commit`. */
  hook: 'hotelBook' | 'transportBook';
  /** Two characters before the reference's digest (20 characters in all, Hotelbeds' limit). */
  prefix: string;
  /** The event a supplier status is; null: still pending at the supplier. */
  eventOf(status: B['status']): ReservationEvent | null;
  /** Supplier refusals at book time: the event they are and the answer's code. */
  refusals: Partial<Record<SupplierErrorKind, [ReservationEvent, ErrorCode]>>;
  /** The kind's own columns the supplier's answer fills (its confirmation). */
  settledColumns(b: B): Record<string, unknown>;
  view(row: Record<string, unknown>): V;
  /** The provider's lookup by client reference, or undefined when it is not configured. */
  finder(provider: string): ReservationFinder<B> | undefined;
}

export interface ReservationDeps {
  db: Db;
  clock: Clock;
  /** When the write-ahead job first looks (default: one idempotency lease after the write). */
  reconcileAfterMs?: number;
}

/** What the handler prepares once no earlier attempt exists: the row's columns and the supplier call. */
export interface PreparedReservation<B> {
  values: Record<string, unknown>;
  book(clientReference: string): Promise<B>;
}

/** What the audit trail keeps of a refusal: its kind and the supplier's code, not its prose. */
export const supplierReason = (e: SupplierError): string =>
  e.supplierCode ? `${e.kind} (${e.supplier} ${e.supplierCode})` : e.kind;

/**
 * The supplier's client reference of this request: `prefix` + 18 hex of the effect digest (the same for
 * every retry of the same caller, operation, Idempotency-Key and request), random without a key.
 */
export function clientReferenceFor(
  ctx: Pick<RequestContext, 'idempotency'>,
  prefix: string,
): { reference: string; scope: string | null } {
  const key = ctx.idempotency;
  const tail = key ? key.effect.slice(0, 18) : randomBytes(9).toString('hex');
  return { reference: `${prefix}${tail}`, scope: key?.scope ?? null };
}

const hook = (k: { hook: string }, at: string) => faultPoint(`${k.hook}:${at}` as FaultBoundary);

async function byReference(db: ServiceDb, k: BookingKind, reference: string) {
  return (await db
    .selectFrom(k.table as 'hotel_bookings')
    .selectAll()
    .where('client_reference', '=', reference)
    .executeTakeFirst()) as ReservationRow | undefined;
}

export async function bookReservation<B extends SupplierReservation, V extends object>(
  d: ReservationDeps,
  ctx: RequestContext,
  k: ReservationKind<B, V>,
  prepare: () => Promise<PreparedReservation<B>>,
): Promise<BookAnswer<V>> {
  const auth = ctx.auth;
  if (!auth) throw new Error(`${k.hook} needs an authenticated caller`);
  const db = serviceDb(d.db);
  const { reference, scope } = clientReferenceFor(ctx, k.prefix);
  // An earlier attempt of this very request wrote the booking and died: its truth, never a second booking.
  const earlier = await byReference(db, k.kind, reference);
  if (earlier) return resume(d, ctx, k, earlier);

  const p = await prepare();
  const now = d.clock.now();
  const id = await db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto(k.kind.table as 'hotel_bookings')
      .values({
        ...p.values,
        status: 'pending',
        client_reference: reference,
        idempotency_scope: scope,
        supplier_booking_ref: null,
        cancellation_fee: null,
        user_id: auth.userId,
        company_id: auth.companyId,
        created_at: now,
        updated_at: now,
      } as never)
      .onConflict((oc) => oc.column('client_reference').doNothing())
      .returningAll()
      .executeTakeFirst();
    if (!row) return undefined;
    const bookingId = Number(row.id);
    await recordReservationChange(trx, k.kind, null, row as Record<string, unknown>, {
      action: 'created',
      job: false,
    });
    const firstLook = d.reconcileAfterMs ?? leaseSecondsFromEnv() * 1000;
    await enqueueReconcile(trx, k.kind, bookingId, new Date(now.getTime() + firstLook), d.clock);
    await writeAudit(trx, ctx, {
      entity: k.kind.entity,
      entityId: bookingId,
      action: 'created',
      changes: { to: 'pending', provider: p.values.provider, client_reference: reference },
      companyId: auth.companyId,
    });
    return bookingId;
  });
  if (id === undefined) {
    // A concurrent attempt of the same request wrote it between our look and our insert.
    const row = await byReference(db, k.kind, reference);
    if (!row) throw new Error(`${k.kind.entity} with reference ${reference} vanished`);
    return resume(d, ctx, k, row);
  }

  await hook(k, 'before-supplier');
  let outcome: B | SupplierError;
  try {
    outcome = await p.book(reference);
  } catch (err) {
    // Anything but a SupplierError is our bug: the row stays pending and its job settles it.
    if (!(err instanceof SupplierError)) throw err;
    outcome = err;
  }
  await hook(k, 'after-supplier');
  return ctx.transaction((trx) => settle(d, ctx, k, serviceDb(trx), id, outcome));
}

/**
 * A retry whose earlier attempt wrote the row: answered as the row stands, after asking the supplier by
 * the reference when it is still pending. Never a second supplier call that books.
 */
async function resume<B extends SupplierReservation, V extends object>(
  d: ReservationDeps,
  ctx: RequestContext,
  k: ReservationKind<B, V>,
  row: ReservationRow,
): Promise<BookAnswer<V>> {
  let outcome: B | null = null;
  if (row.status === 'pending') {
    try {
      const found = await k
        .finder(row.provider as string)
        ?.findBookingByClientReference(row.client_reference as string, { signal: ctx.signal });
      if (found && k.eventOf(found.status)) outcome = found;
    } catch (err) {
      ctx.log.warn({ err, booking_id: row.id }, 'reservation lookup on a retry failed');
    }
  }
  return ctx.transaction((trx) => settle(d, ctx, k, serviceDb(trx), row.id, outcome));
}

/**
 * Settles the booking with the supplier's answer (null: not known) in the transaction that stores the
 * response. A booking something else settled first (reconciliation, a retry) is answered as it stands.
 */
async function settle<B extends SupplierReservation, V extends object>(
  d: ReservationDeps,
  ctx: RequestContext,
  k: ReservationKind<B, V>,
  trx: ServiceDb,
  id: number,
  outcome: B | SupplierError | null,
): Promise<BookAnswer<V>> {
  const row = await getRow(trx, k.kind, id, true);
  if (!row) throw new Error(`${k.kind.entity} ${id} vanished`);
  const from = row.status as ReservationStatus;
  const now = d.clock.now();
  let result: BookAnswer<V>;
  if (from !== 'pending') {
    result = await answer(ctx, k, trx, id);
  } else if (outcome instanceof SupplierError) {
    const refusal = k.refusals[outcome.kind];
    if (refusal) {
      const [event, code] = refusal;
      await moveStatus(trx, k.kind, row, nextStatus(k.kind)(from, event), d.clock, {
        ctx,
        action: event,
        reason: supplierReason(outcome),
      });
      await dropReconcile(trx, k.kind, id);
      logSupplierError(ctx.log, outcome, code);
      result = failure(ctx, 400, code, id);
    } else {
      // timeout, reset, 5xx after acting, unavailable: the supplier may hold it; reconciliation finds out
      logSupplierError(ctx.log, outcome, 'booking_pending');
      await runReconcileAt(trx, k.kind, id, now);
      result = pending(ctx, id);
    }
  } else if (outcome === null || !k.eventOf(outcome.status)) {
    if (outcome) {
      await trx
        .updateTable(k.kind.table as 'hotel_bookings')
        .set({ supplier_booking_ref: outcome.booking_ref, updated_at: now })
        .where('id', '=', id)
        .execute();
    }
    await runReconcileAt(trx, k.kind, id, now);
    result = pending(ctx, id);
  } else {
    const event = k.eventOf(outcome.status) as ReservationEvent;
    await moveStatus(trx, k.kind, row, nextStatus(k.kind)(from, event), d.clock, {
      ctx,
      action: event,
      set: settled(k, outcome),
    });
    await dropReconcile(trx, k.kind, id);
    result = await answer(ctx, k, trx, id);
  }
  await hook(k, 'before-commit');
  return result;
}

/** The answer for a booking as it stands: pending 502, rejected 400, otherwise 200 with the booking. */
async function answer<B extends SupplierReservation, V extends object>(
  ctx: RequestContext,
  k: ReservationKind<B, V>,
  trx: ServiceDb,
  id: number,
): Promise<BookAnswer<V>> {
  const row = (await getRow(trx, k.kind, id)) as ReservationRow;
  if (row.status === 'pending') return pending(ctx, id);
  if (row.status === 'rejected') return failure(ctx, 400, 'supplier_rejected', id);
  return { status: 200, body: k.view(row) };
}

function failure(ctx: RequestContext, status: number, code: ErrorCode, id: number): ErrorResult {
  return errorResult(new HttpError(status, code, sentenceFor(code), { extra: { booking_id: id } }), ctx);
}

function pending(ctx: RequestContext, id: number): ErrorResult {
  return errorResult(
    new HttpError(
      502,
      'booking_pending',
      'The supplier has neither confirmed nor rejected the booking yet; poll the booking, do not retry.',
      { extra: { booking_id: id, status: 'pending' } },
    ),
    ctx,
  );
}
