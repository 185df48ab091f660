/**
 * Cancelling a hotel or transport booking at its provider, written ahead like the booking itself:
 *
 * 1. **Write ahead.** Under the row lock the state is checked and the intent is committed
 *    (`cancel_requested_at`, the idempotency scope of the request that asked) with a durable
 *    `<entity>.cancel_check` job.
 * 2. **Call** the provider's cancellation.
 * 3. **Settle** in the transaction that stores the response: cancelled -> `cancelled` with the fee; a
 *    refusal (not cancellable, not found) or "nothing happened" (unreachable) withdraws the intent and
 *    answers 400 / 503; anything ambiguous (timeout, reset, 5xx after the provider may have acted) keeps
 *    the intent, brings the job forward and answers 502 `cancellation_pending`: never a stored failure.
 *
 * A cancel asked while an intent is pending (a retry after a crash, or a second caller) asks the provider
 * how the booking stands: cancelled -> settled now, 200; otherwise 502 `cancellation_pending`. The job
 * waits while the asking request holds its lease, then asks the provider: cancelled -> settled (the fee
 * the booking's cancellation policy set at the time of the request, where it has one); still active once
 * the call window (`BOOKING_CALL_WINDOW_SECONDS`) since the request has passed -> the intent is withdrawn
 * (the cancellation did not happen; the booking stands and may be cancelled again).
 */

import { writeAudit } from '../../audit/audit-log.ts';
import { isLeaseHeld } from '../../idempotency/idempotency-store.ts';
import { callWindowMs, leaseSecondsFromEnv } from '../../internal/config.ts';
import { type FaultBoundary, faultPoint } from '../../internal/fault-hooks.ts';
import { badRequest, type ErrorCode, HttpError } from '../../kernel/errors.ts';
import { errorResult } from '../../kernel/reply.ts';
import type { HandlerResult, RequestContext } from '../../kernel/types.ts';
import { type CodeMap, logSupplierError, sentenceFor } from '../../suppliers/http-errors.ts';
import { type CallOptions, SupplierError } from '../../suppliers/ports/errors.ts';
import { visibleOrNotFound } from './access.ts';
import type { ReservationDeps, ReservationRow } from './book.ts';
import { cancelledAnswer, markCancelled } from './cancel-settled.ts';
import type { BookingKind } from './kind.ts';
import { getRow } from './queries.ts';
import type { ReservationStatus } from './state-machine.ts';
import { nextStatus } from './state-machine.ts';
import { dropCancelCheck, enqueueCancelCheck, runCancelCheckAt } from './status-change.ts';
import { type ServiceDb, serviceDb } from './tables.ts';

export interface Money {
  currency: string;
  amount_minor: number;
}

export interface ProviderCancellation {
  cancelled: boolean;
  fee: Money;
  refund: Money;
}

/** The part of a provider port the engine asks how a booking stands. */
interface BookingLookup {
  /** The booking at the provider; `cancellation_fee` once cancelled, where the provider says what it kept. */
  getBooking(bookingRef: string, opts?: CallOptions): Promise<ProviderBooking>;
}
type ProviderBooking = { status: string; cancellation_fee?: Money };

/** What differs between hotel and transport cancellations. */
export interface CancelKind<S extends BookingLookup = BookingLookup> {
  kind: BookingKind;
  hook: 'hotelCancel' | 'transportCancel';
  /** The provider's port, or undefined when it is not configured. */
  supplier(provider: string): S | undefined;
  /** The provider's cancellation (throws SupplierError). */
  cancel(supplier: S, row: ReservationRow, signal?: AbortSignal): Promise<ProviderCancellation>;
  /** The fee and refund when the provider's answer was lost, from what the booking knows; null if unknown. */
  feeAt(row: ReservationRow, at: Date): { fee: Money; refund: Money } | null;
}

const reachable = (k: CancelKind, row: ReservationRow) => k.supplier(row.provider as string) !== undefined;

function supplierOf(k: CancelKind, row: ReservationRow): BookingLookup {
  const s = k.supplier(row.provider as string);
  if (!s) throw new Error(`${k.kind.noun} provider ${row.provider} is not configured`);
  return s;
}

/** The booking at the provider now (status `cancelled`, `confirmed`, …). */
export const providerBooking = (k: CancelKind, row: ReservationRow, signal?: AbortSignal) =>
  supplierOf(k, row).getBooking(row.supplier_booking_ref as string, { signal });

/**
 * The fee and refund of a cancellation found at the provider (its answer was lost): the fee the provider
 * reports it kept, else what the booking knows (`feeAt`); null if neither says.
 */
export function foundMoney(k: CancelKind, row: ReservationRow, found: ProviderBooking) {
  const fee = found.cancellation_fee;
  if (!fee) return k.feeAt(row, new Date(row.cancel_requested_at as Date | string));
  // In the provider's currency, as its fee is (the booking's own currency may differ: 0090).
  const total = Number(row.supplier_total_minor ?? row.total_minor);
  return { fee, refund: { currency: fee.currency, amount_minor: Math.max(0, total - fee.amount_minor) } };
}

/** Provider refusals of a cancellation and the 400 code each answers (hotels and transfers alike). */
export const CANCEL_REFUSALS: CodeMap = {
  invalid_request: [400, 'not_cancellable'],
  unsupported: [400, 'not_cancellable'],
  not_found: [400, 'cancellation_failed'],
  rejected: [400, 'cancellation_failed'],
  declined: [400, 'cancellation_failed'],
};

const hook = (k: CancelKind) => faultPoint(`${k.hook}:after-supplier` as FaultBoundary);
export const table = (k: CancelKind) => k.kind.table as 'hotel_bookings';
export const CLEAR = { cancel_requested_at: null, cancel_scope: null };

export async function cancelReservation(
  d: ReservationDeps,
  ctx: RequestContext,
  k: CancelKind,
  owner: 'user' | 'any',
): Promise<HandlerResult> {
  const id = Number(ctx.params.booking_id);
  const db = serviceDb(d.db);
  const row = visibleOrNotFound(ctx, k.kind, await getRow(db, k.kind, id), owner) as ReservationRow;
  const scope = ctx.idempotency?.scope ?? null;
  if (row.cancel_requested_at) {
    const resumed = await resumeCancel(d, ctx, k, id);
    if (resumed) return resumed;
    return cancelReservation(d, ctx, k, owner);
  }
  // A same-key retry of a cancel that reconciliation settled after its request died: that cancellation.
  if (row.status === 'cancelled' && scope && row.cancel_scope === scope) return cancelledAnswer(row);
  nextStatus(k.kind)(row.status as ReservationStatus, 'cancel');
  if (!row.supplier_booking_ref || !reachable(k, row))
    throw badRequest('cancellation_failed', 'The provider booking cannot be reached for cancellation.');
  const now = d.clock.now();
  const wrote = await db.transaction().execute(async (trx) => {
    const locked = await getRow(trx, k.kind, id, true);
    if (!locked || locked.cancel_requested_at) return false;
    nextStatus(k.kind)(locked.status as ReservationStatus, 'cancel');
    await trx
      .updateTable(table(k))
      .set({ cancel_requested_at: now, cancel_scope: scope, updated_at: now })
      .where('id', '=', id)
      .execute();
    const firstLook = new Date(now.getTime() + (d.reconcileAfterMs ?? leaseSecondsFromEnv() * 1000));
    await enqueueCancelCheck(trx, k.kind, id, firstLook, d.clock);
    await writeAudit(trx, ctx, {
      entity: k.kind.entity,
      entityId: id,
      action: 'cancel_requested',
      changes: { status: locked.status },
      companyId: locked.company_id,
    });
    return true;
  });
  // Another request wrote its intent between our read and our lock: the booking as that one left it.
  if (!wrote) return (await resumeCancel(d, ctx, k, id)) ?? cancelReservation(d, ctx, k, owner);

  let outcome: ProviderCancellation | SupplierError;
  try {
    outcome = await k.cancel(supplierOf(k, row), row, ctx.signal);
  } catch (err) {
    // Anything but a SupplierError is our bug: the intent stays and its job settles it.
    if (!(err instanceof SupplierError)) throw err;
    outcome = err;
  }
  await hook(k);
  return ctx.transaction((trx) => settleCancel(d, ctx, k, serviceDb(trx), id, outcome));
}

/**
 * A cancel while an intent is pending: the provider is asked how the booking stands, never cancelled twice.
 * Still held by the provider once the call window since the intent has passed, and its request gone (the
 * middleware let this one in): the earlier call never cancelled it. The intent is withdrawn on the record
 * and undefined returned: the caller cancels anew, so the client's cancel is carried out, not dropped.
 */
async function resumeCancel(
  d: ReservationDeps,
  ctx: RequestContext,
  k: CancelKind,
  id: number,
): Promise<HandlerResult | undefined> {
  const row = (await getRow(serviceDb(d.db), k.kind, id)) as ReservationRow;
  let found: ProviderBooking | null = null;
  if (row.cancel_requested_at && reachable(k, row)) {
    try {
      found = await providerBooking(k, row, ctx.signal);
    } catch (err) {
      ctx.log.warn({ err, booking_id: id }, 'provider status on a pending cancellation failed');
    }
  }
  const status = found?.status ?? null;
  const asked = row.cancel_requested_at ? new Date(row.cancel_requested_at as Date | string).getTime() : 0;
  const owner = row.cancel_scope as string | null;
  const ownerGone = !owner || !(await isLeaseHeld(d.db, owner, d.clock.now()));
  if (status && status !== 'cancelled' && ownerGone && d.clock.now().getTime() >= asked + callWindowMs()) {
    const withdrawn = await serviceDb(d.db)
      .transaction()
      .execute(async (trx) => {
        const locked = (await getRow(trx, k.kind, id, true)) as ReservationRow;
        if (String(locked.cancel_requested_at) !== String(row.cancel_requested_at)) return false;
        await trx
          .updateTable(table(k))
          .set({ ...CLEAR, updated_at: d.clock.now() })
          .where('id', '=', id)
          .execute();
        await dropCancelCheck(trx, k.kind, id, d.clock.now());
        await writeAudit(trx, ctx, {
          entity: k.kind.entity,
          entityId: id,
          action: 'cancel_withdrawn',
          reason: `the provider still holds the booking (${status}): the earlier cancel never reached it; cancelling anew`,
          changes: { status: locked.status },
          companyId: locked.company_id,
        });
        return true;
      });
    if (withdrawn) return undefined;
  }
  return ctx.transaction((trx) =>
    settleCancel(d, ctx, k, serviceDb(trx), id, found?.status === 'cancelled' ? { found } : 'unknown'),
  );
}

async function settleCancel(
  d: ReservationDeps,
  ctx: RequestContext,
  k: CancelKind,
  trx: ServiceDb,
  id: number,
  outcome: ProviderCancellation | SupplierError | { found: ProviderBooking } | 'unknown',
): Promise<HandlerResult> {
  const row = (await getRow(trx, k.kind, id, true)) as ReservationRow;
  const now = d.clock.now();
  const error = (status: number, code: ErrorCode, detail = sentenceFor(code)): HandlerResult =>
    errorResult(new HttpError(status, code, detail), ctx);
  if (!row.cancel_requested_at) {
    // Settled before us (the job, or another request): answered as it stands.
    if (row.status === 'cancelled') return cancelledAnswer(row);
    return error(400, 'cancellation_failed');
  }
  const withdraw = async (reason: string) => {
    await trx
      .updateTable(table(k))
      .set({ ...CLEAR, updated_at: now })
      .where('id', '=', id)
      .execute();
    await dropCancelCheck(trx, k.kind, id, now);
    await writeAudit(trx, ctx, {
      entity: k.kind.entity,
      entityId: id,
      action: 'cancel_withdrawn',
      reason,
      changes: { status: row.status },
      companyId: row.company_id,
    });
  };
  if (outcome === 'unknown') {
    await runCancelCheckAt(trx, k.kind, id, now);
    return cancellationPending(ctx, row);
  }
  if (outcome instanceof SupplierError) {
    const hit = CANCEL_REFUSALS[outcome.kind];
    if (hit) {
      logSupplierError(ctx.log, outcome, hit[1]);
      await withdraw(`provider refused: ${outcome.kind}`);
      return error(hit[0], hit[1]);
    }
    if (outcome.kind === 'unavailable' || outcome.kind === 'auth_failed') {
      // Nothing reached the provider: the intent goes, and the caller may try again.
      logSupplierError(ctx.log, outcome, 'supplier_unavailable');
      await withdraw(`provider unreachable: ${outcome.kind}`);
      return errorResult(
        new HttpError(
          503,
          'supplier_unavailable',
          'The supplier is not reachable right now; try again shortly.',
          {
            headers: { 'retry-after': '5' },
          },
        ),
        ctx,
      );
    }
    // timeout, reset, 5xx after the provider may have cancelled: the job asks it
    logSupplierError(ctx.log, outcome, 'cancellation_pending');
    await runCancelCheckAt(trx, k.kind, id, now);
    return cancellationPending(ctx, row);
  }
  if (!('found' in outcome) && !outcome.cancelled) {
    await withdraw('the provider did not cancel the booking');
    return error(400, 'cancellation_failed');
  }
  const money =
    'found' in outcome ? foundMoney(k, row, outcome.found) : { fee: outcome.fee, refund: outcome.refund };
  const after = await markCancelled(trx, k, row, d.clock, ctx, money);
  await dropCancelCheck(trx, k.kind, id, now);
  return cancelledAnswer(after);
}

function cancellationPending(ctx: RequestContext, row: ReservationRow): HandlerResult {
  return errorResult(
    new HttpError(
      502,
      'cancellation_pending',
      'The provider has not confirmed the cancellation yet; it is being settled with the provider. Poll the booking, or retry with the same Idempotency-Key: a retry asks the provider, cancels at most once, and cancels anew if the earlier call never reached it.',
      { extra: { booking_id: row.id, status: row.status } },
    ),
    ctx,
  );
}
