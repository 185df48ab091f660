/** Step 1 of a money operation (../money-ops.ts): the intent row, under the booking's lock, with its job. */

import { isLeaseHeld } from '../../../idempotency/idempotency-store.ts';
import type { Clock } from '../../../internal/clock.ts';
import { moneyReconcileDelayMs } from '../../../internal/config.ts';
import { enqueue } from '../../../jobs/runner.ts';
import { jobStatements } from '../../../jobs/statements.ts';
import { HttpError } from '../../../kernel/errors.ts';
import type { RequestContext } from '../../../kernel/types.ts';
import type { Db } from '../../../storage/schema.ts';
import { json } from '../../../storage/schema.ts';
import { type BookingRow, findBooking } from '../store.ts';

import {
  inFlightOp,
  inProgress,
  KEYLESS_OWNER_MS,
  MONEY_RECONCILE_QUEUE,
  type MoneyOp,
  type OpKind,
  opsDb,
  RECONCILE_MAX_ATTEMPTS,
  toOp,
} from './ops.ts';

const isUniqueViolation = (err: unknown) => (err as { code?: string })?.code === '23505';

export interface BeginOptions<T> {
  db: Db;
  clock: Clock;
  bookingId: number;
  kind: OpKind;
  /** The provider's Idempotency-Key (or the supplier reference) this op carries. */
  key: string;
  requestId?: string | null;
  /** The request that owns the op (its idempotency lease says whether it is alive); null for a job. */
  ctx?: RequestContext | null;
  /** The operation's checks on the locked booking; throws its 400s; may write in `trx` (e.g. a PENDING payment). */
  check: (trx: Db, b: BookingRow) => Promise<T>;
  /** What the op row records besides (payment id, amounts...). */
  detail?: (r: T) => { payment_id?: number | null; detail?: Record<string, unknown> };
}

/**
 * Step 1: locks the booking, refuses a concurrent op (409), runs `check` under the lock and commits the
 * intent row with its reconciliation job. Returns the op and the check's result.
 */
export async function beginOp<T>(
  o: BeginOptions<T>,
): Promise<{ op: MoneyOp; booking: BookingRow; result: T }> {
  let orphan: number | undefined;
  try {
    return await o.db.transaction().execute(async (trx) => {
      const b = await findBooking(trx, o.bookingId, { forUpdate: true });
      if (!b) throw new HttpError(404, 'booking_not_found', 'Booking not found.');
      const busy = await inFlightOp(trx, b.id);
      if (busy) {
        if (!(await ownerAlive(trx, busy, o.clock.now()))) orphan = busy.id;
        throw inProgress(busy.kind);
      }
      const result = await o.check(trx, b);
      const extra = o.detail?.(result) ?? {};
      const now = o.clock.now();
      const row = await opsDb(trx)
        .insertInto('booking_money_ops')
        .values({
          booking_id: b.id,
          kind: o.kind,
          status: 'requested',
          reference: o.key,
          payment_id: extra.payment_id ?? null,
          detail: json(extra.detail ?? {}),
          request_id: o.requestId ?? null,
          outcome: null,
          owner_scope: o.ctx?.idempotency?.scope ?? null,
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      const op = toOp(row as never);
      await enqueue(
        trx,
        MONEY_RECONCILE_QUEUE,
        { op_id: op.id, booking_id: b.id, kind: o.kind },
        {
          dedupeKey: `${MONEY_RECONCILE_QUEUE}:${op.id}`,
          runAt: new Date(now.getTime() + moneyReconcileDelayMs()),
          maxAttempts: RECONCILE_MAX_ATTEMPTS,
        },
        o.clock,
      );
      return { op, booking: b, result };
    });
  } catch (err) {
    // The op in the way has no live owner (its process died): its job settles it now, not at its backoff.
    if (orphan !== undefined) await pullJobForward(o.db, orphan, o.clock.now());
    // Two transactions that passed the lock at once (only possible without it): the index decides.
    if (isUniqueViolation(err)) throw inProgress(o.kind);
    throw err;
  }
}

/**
 * Whether the request that wrote `op` may still be working on it: its idempotency lease is held (renewed by
 * its heartbeat), or, without a key, the op is younger than KEYLESS_OWNER_MS. A finished request holds no
 * lease: an op it left open is the job's at once.
 */
export async function ownerAlive(db: Db, op: MoneyOp, now: Date): Promise<boolean> {
  if (op.owner_scope) return isLeaseHeld(db, op.owner_scope, now);
  if (op.status === 'pending') return false; // answered pending: the request is over
  return now.getTime() < op.created_at.getTime() + KEYLESS_OWNER_MS;
}

async function pullJobForward(trx: Db, opId: number, now: Date): Promise<void> {
  await jobStatements
    .reschedule(trx, `${MONEY_RECONCILE_QUEUE}:${opId}`, now, { onlyEarlier: true })
    .execute();
}
