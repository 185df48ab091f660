/**
 * The settlement of a createPnr: the supplier's answer applied to the row written ahead, with its
 * `created` audit row and event, and the answer stored with the Idempotency-Key: in the common case one
 * statement composed of the owners' builders (`settleWritten`), else in a transaction (`settlePnr`).
 */

import { sql } from 'kysely';
import { auditStatements, writeAudit } from '../../audit/audit-log.ts';
import { deliveriesFor, deliveryJobsFor, recordWhen } from '../../events/record.ts';
import { idempotencyStatements } from '../../idempotency/idempotency-store.ts';
import { faultPoint } from '../../internal/fault-hooks.ts';
import { jobStatements } from '../../jobs/statements.ts';
import { HttpError } from '../../kernel/errors.ts';
import { errorResult } from '../../kernel/reply.ts';
import type { HandlerResult, RequestContext } from '../../kernel/types.ts';
import { executeNamed } from '../../storage/prepared.ts';
import type { Db } from '../../storage/schema.ts';
import type { SupplierFlightOrder } from '../../suppliers/ports/flight.ts';
import { bagsOncePaid, bookedBags, saveBookedBags } from './bags.ts';
import { bookingEvent } from './booking-events.ts';
import type { BookingDeps } from './deps.ts';
import type { Outcome } from './place-order.ts';
import { applyOrder, orderChange, queueReconcile, reconcileDedupe, reconcileSettled } from './reconcile.ts';
import { type BookingRow, findBooking, transition } from './store.ts';
import { bookingDb } from './tables.ts';
import { bookingView } from './view.ts';

/** An instant with its offset, which the database reads as this process does (`timestamptz`). */
const INSTANT = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d{1,3})?)?(Z|[+-]\d\d:?\d\d)$/;

/**
 * Settles the booking with the supplier's answer (`null`: PAYMENT_FIRST, no call) in the transaction
 * that stores the response. A booking something else settled first (reconciliation) is answered as is.
 */
export async function settlePnr(
  d: BookingDeps,
  trx: Db,
  ctx: RequestContext,
  id: number,
  outcome: Outcome | null,
): Promise<HandlerResult> {
  const t = d.clock.now();
  let b = (await findBooking(trx, id, { forUpdate: true })) as BookingRow;
  const from = b.status;
  if (outcome?.bagsLater && from === 'initiated')
    b = await saveBookedBags(trx, b, bagsOncePaid(bookedBags(b)), t);
  if (outcome?.kind === 'order' && (from === 'initiated' || from === 'pending_pnr')) {
    b = await applyOrder(trx, b, outcome.order, t);
    await reconcileSettled(trx, b.id, d.clock);
  } else if (from === 'initiated') {
    if (outcome === null) b = await transition(trx, b, 'await_payment', t);
    else {
      b = await transition(trx, b, 'pnr_unknown', t);
      await queueReconcile(trx, b.id, d.clock);
    }
  }
  await faultPoint('createPnr:before-commit');
  if (from === 'initiated') {
    await writeAudit(trx, ctx, {
      entity: 'booking',
      entityId: b.id,
      action: 'created',
      changes: { status: b.status, payment_mode: b.payment_mode },
      companyId: b.company_id,
    });
  }
  if (b.status === 'pending_pnr') {
    return errorResult(
      new HttpError(
        502,
        'booking_pending',
        'Booking pending confirmation: the supplier neither confirmed nor rejected. Poll the booking; do not retry.',
        { extra: { booking_id: b.id, status: 'pending_pnr' } },
      ),
      ctx,
    );
  }
  return { status: 200, body: bookingView(b) };
}

/**
 * The common case of `settlePnr` as one statement, so one commit and no transaction to open: the row this
 * request wrote ahead is still `initiated` (nothing else settled it: reconciliation leaves it alone while
 * this request's lease is held), so the order is applied to it, its reconciliation job marked done, the
 * `created` audit row written and the answer stored with the Idempotency-Key, all or nothing. The answer
 * is the row as written with the order's fields, known before the statement. Undefined (nothing written)
 * when the row moved on meanwhile, without a claim on the key, or for a ticketing deadline the database
 * could read otherwise than here: `settlePnr` then settles it by locking and reading the row.
 */
export async function settleWritten(
  d: BookingDeps,
  ctx: RequestContext,
  written: BookingRow,
  order: SupplierFlightOrder,
): Promise<HandlerResult | undefined> {
  const own = ctx.idempotency?.ownAnswer();
  const deadline = order.ticketing_deadline;
  if (!own || (deadline != null && !INSTANT.test(deadline))) return undefined;
  const t = d.clock.now();
  const { patch, to } = orderChange(written, order);
  const after: BookingRow = {
    ...written,
    pnr: order.pnr ?? written.pnr,
    supplier_order_ref: order.order_ref ?? written.supplier_order_ref,
    supplier_total_minor: order.total.amount_minor ?? written.supplier_total_minor,
    supplier_currency: order.total.currency ?? written.supplier_currency,
    ticketing_deadline: deadline ? new Date(deadline) : null,
    status: to,
    updated_at: t,
  };
  const answer = { status: 200, body: bookingView(after), headers: {} };
  await faultPoint('createPnr:before-commit');
  // A prepared statement (parsed and planned once per connection): its text is the same every call.
  const db = bookingDb(d.db);
  const [settled] = await executeNamed(
    db,
    'flight_settle_written',
    db
      .with('b', (qb) =>
        qb
          .updateTable('flight_bookings')
          .set({ ...patch, status: to, updated_at: t })
          .where('id', '=', written.id)
          .where('status', '=', 'initiated')
          .returning('id'),
      )
      .with('j', (() => jobStatements.finishQueuedWhen('b', reconcileDedupe(written.id), t)) as never)
      .with('a', (() =>
        auditStatements.insertWhen('b', ctx, {
          entity: 'booking',
          entityId: sql<string>`b.id::text`,
          action: 'created',
          changes: { status: to, payment_mode: written.payment_mode },
          companyId: written.company_id,
        })) as never)
      // The `created` event, inserted only when `b` updated the row.
      .with('e', (() => recordWhen('b', bookingEvent('booking.created', after))) as never)
      .with('wd', (() => deliveriesFor('e')) as never)
      .with('wj', (() => deliveryJobsFor('wd')) as never)
      .with('k', (() => idempotencyStatements.storeAnswerWhen('b', own.scope, answer, t)) as never)
      .selectFrom('b')
      .select('b.id'),
  );
  if (!settled) return undefined;
  own.stored();
  return answer;
}
