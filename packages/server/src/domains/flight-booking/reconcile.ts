/**
 * Reconciliation of bookings whose supplier outcome is unknown: createPnr's 502, and the `initiated` row
 * createPnr writes ahead of its supplier call when the process died before settling it. The queue is the
 * durable job table (`booking.reconcile`): a job is enqueued in the same transaction as the row, so it
 * survives a restart, and the kernel's runner retries it with exponential backoff.
 */

import { sql } from 'kysely';
import { writeAudit } from '../../audit/audit-log.ts';
import { isLeaseHeld } from '../../idempotency/idempotency-store.ts';
import type { Clock } from '../../internal/clock.ts';
import { callWindowMs } from '../../internal/config.ts';
import { enqueueOrRearm, finishQueued, type Job, type JobHandler } from '../../jobs/runner.ts';
import { jobStatements } from '../../jobs/statements.ts';
import type { Db } from '../../storage/schema.ts';
import type { SupplierFlightOrder } from '../../suppliers/ports/flight.ts';
import type { BookingDeps } from './deps.ts';
import { type BookingEvent, type BookingStatus, canTransition, nextStatus } from './state-machine.ts';
import { type BookingRow, findBooking, setStatus, transition, updateBooking } from './store.ts';
import { bookingDb } from './tables.ts';

export const RECONCILE_QUEUE = 'booking.reconcile';
/** Attempts of a reconciliation job before it fails for good. */
export const RECONCILE_MAX_ATTEMPTS = 8;
/** The dedupe key of a booking's reconciliation job: at most one per booking. */
export const reconcileDedupe = (id: number | string) => `${RECONCILE_QUEUE}:${id}`;
const dedupe = reconcileDedupe;

/**
 * Queues (or re-queues) the booking; an existing job row is reset with fresh attempts. It runs now, or at
 * `runAt` (createPnr's write-ahead job: at the end of the call window, unless the call settles first).
 */
export async function queueReconcile(
  db: Db,
  bookingId: number,
  clock: Clock,
  opts: { force?: boolean; runAt?: Date } = {},
) {
  await enqueueOrRearm(
    db,
    RECONCILE_QUEUE,
    { booking_id: bookingId, force: !!opts.force },
    {
      dedupeKey: dedupe(bookingId),
      maxAttempts: RECONCILE_MAX_ATTEMPTS,
      ...(opts.runAt ? { runAt: opts.runAt } : {}),
    },
    clock,
  );
}

/**
 * CTE body: the reconciliation job of each booking the CTE `from` inserted (`returning id`), due at
 * `runAt`; none for a booking that has one. For createPnr's write-ahead: the row and its job, one statement.
 */
export const reconcileJobEach = (from: string, runAt: Date) =>
  jobStatements.enqueueEach(from, {
    queue: RECONCILE_QUEUE,
    payload: sql`jsonb_build_object('booking_id', ${sql.ref(`${from}.id`)}, 'force', false)`,
    dedupeKey: sql<string>`${reconcileDedupe('')}::text || ${sql.ref(`${from}.id`)}`,
    runAt,
    maxAttempts: RECONCILE_MAX_ATTEMPTS,
  });

/** The booking settled without the job (its createPnr call answered): the queued job is done. */
export async function reconcileSettled(db: Db, bookingId: number, clock: Clock) {
  await finishQueued(db, dedupe(bookingId), clock.now());
}

/**
 * What a supplier order changes on a booking in status `from`: the order's fields, and the status it moves
 * to (`from` itself when no transition applies).
 */
export function orderChange(
  b: Pick<BookingRow, 'status' | 'payment_mode'>,
  order: SupplierFlightOrder,
): { patch: Record<string, unknown>; to: BookingStatus } {
  const patch = {
    pnr: order.pnr,
    supplier_order_ref: order.order_ref,
    supplier_total_minor: order.total.amount_minor,
    supplier_currency: order.total.currency,
    ticketing_deadline: order.ticketing_deadline,
  };
  const event: BookingEvent =
    order.status === 'rejected' || order.status === 'cancelled'
      ? 'pnr_rejected'
      : b.payment_mode === 'PNR_ONLY' && order.status === 'on_hold'
        ? 'pnr_held'
        : 'pnr_confirmed';
  return { patch, to: canTransition(b.status, event) ? nextStatus(b.status, event) : b.status };
}

/** Applies a supplier order to a booking that was waiting for it. */
export async function applyOrder(
  db: Db,
  b: BookingRow,
  order: SupplierFlightOrder,
  now: Date,
): Promise<BookingRow> {
  const { patch, to } = orderChange(b, order);
  return to === b.status ? updateBooking(db, b.id, now, patch) : setStatus(db, b, to, now, patch);
}

export function reconcileHandler(d: BookingDeps): JobHandler {
  return async (job: Job) => {
    const { booking_id: id, force } = job.payload as { booking_id: number; force?: boolean };
    const b = await findBooking(d.db, id);
    if (!b) return;
    const waiting = b.status === 'pending_pnr' || b.status === 'initiated';
    if (!waiting && !force) return;
    // PAYMENT_FIRST: createPnr never calls the supplier (authorize does), so there is nothing to find.
    if (b.status === 'initiated' && b.payment_mode === 'PAYMENT_FIRST') return;
    if (b.status === 'initiated') {
      // Written ahead of a supplier call: while the request that wrote it lives, it settles the row itself.
      if (b.idempotency_scope && (await isLeaseHeld(d.db, b.idempotency_scope, d.clock.now())))
        throw new Error('the request that wrote the booking is still running');
      if (d.clock.now().getTime() < b.created_at.getTime() + callWindowMs())
        throw new Error('the supplier call may still be under way');
    }
    const supplier = d.suppliers.flight(b.supplier);
    if (!supplier) throw new Error(`supplier ${b.supplier} unavailable`);
    const order = b.supplier_order_ref
      ? await supplier.getOrder(b.supplier_order_ref)
      : await supplier.findOrderByClientReference(b.client_reference);
    if (order?.status === 'pending') throw new Error('the supplier has not settled the order yet');
    await d.db.transaction().execute(async (trx) => {
      const fresh = (await findBooking(trx, id, { forUpdate: true })) as BookingRow;
      // Settled meanwhile (the request answered, or a retry of it found the order): nothing to do.
      if (!force && fresh.status !== 'pending_pnr' && fresh.status !== 'initiated') return;
      const now = d.clock.now();
      let after: BookingRow;
      if (order) after = await applyOrder(trx, fresh, order, now);
      // After the call window an `initiated` booking without an order has none: the call never acted.
      else if (fresh.status !== 'initiated' && job.attempts < job.maxAttempts)
        throw new Error('no supplier order found for the client reference yet');
      else
        after = canTransition(fresh.status, 'pnr_rejected')
          ? await transition(trx, fresh, 'pnr_rejected', now)
          : fresh;
      await writeAudit(trx, null, {
        entity: 'booking',
        entityId: id,
        action: 'reconciled',
        reason: order ? `supplier order ${order.order_ref} is ${order.status}` : 'no supplier order exists',
        changes: { from: fresh.status, to: after.status },
        companyId: fresh.company_id,
      });
    });
  };
}

export function bookingJobHandlers(d: BookingDeps): Record<string, JobHandler> {
  return { [RECONCILE_QUEUE]: reconcileHandler(d) };
}

/** The admin queue: jobs not yet done (queued, running or failed for good), oldest first. */
export async function reconcileQueuePage(db: Db, page: number, pageSize: number) {
  const q = bookingDb(db).selectFrom('booking_reconciliation_queue').where('job_status', '!=', 'done');
  const total = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await q
    .selectAll()
    .orderBy('queued_at')
    .orderBy('booking_id')
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
  return {
    items: rows.map(itemView),
    total: Number(total.n),
    page,
    page_size: pageSize,
  };
}

export function itemView(r: {
  booking_id: number;
  booking_status: string;
  attempts: number;
  job_status: string;
  run_at: Date;
  last_error: string | null;
  queued_at: Date;
}) {
  return {
    booking_id: Number(r.booking_id),
    booking_type: 'flight' as const,
    status: r.booking_status,
    attempts: Number(r.attempts),
    next_attempt_at: r.job_status === 'queued' ? new Date(r.run_at).toISOString() : null,
    last_error: r.last_error,
    queued_at: new Date(r.queued_at).toISOString(),
  };
}
