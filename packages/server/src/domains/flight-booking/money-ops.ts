/**
 * Intent rows of money and ticket-state operations (migration 0060, `booking_money_ops`).
 *
 * Every operation that moves money or changes a booking's payment or ticket state runs in three steps:
 * 1. `beginOp`: one short transaction locks the booking row (`SELECT … FOR UPDATE`), refuses a booking with
 *    an operation already in flight (409 `operation_in_progress`), runs the operation's own checks on the
 *    locked row (its 400s), and commits the intent row (`requested`) with its deterministic `reference`
 *    (the provider's Idempotency-Key), the idempotency lease of the request that owns it (`owner_scope`),
 *    and a `money.reconcile` job due after `moneyReconcileDelayMs()` (a few seconds).
 * 2. The provider or supplier call, outside any transaction (PGlite is one connection; see its dialect).
 * 3. `settleOp` in the transaction that records the outcome (`done` / `failed`), or `markPending` when the
 *    outcome is unknown: the job is re-armed to run at once and settles it by asking the provider.
 * A crash between 1 and 3 leaves the row `requested` and its job due: the job settles it the same way.
 * The job leaves an op alone while its owner is alive (the request's idempotency lease is held: its
 * heartbeat renews it, see idempotency-store.ts; a request without a key counts as alive for
 * KEYLESS_OWNER_MS); once the lease lapses (the process died) it settles the op at once, and a request that
 * meets the op pulls its job forward. So a booking answers 409 `operation_in_progress` for at most about one
 * lease (IDEMPOTENCY_LEASE_SECONDS) plus the job's poll after its owner died.
 * The partial unique index `booking_money_ops_one_in_flight` backs the lock: one in-flight op per booking.
 */
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { idempotencyStatements, isLeaseHeld } from '../../idempotency/idempotency-store.ts';
import type { Clock } from '../../internal/clock.ts';
import { callWindowMs, moneyReconcileDelayMs } from '../../internal/config.ts';
import { enqueue, finishQueued } from '../../jobs/runner.ts';
import { jobStatements } from '../../jobs/statements.ts';
import { conflict, HttpError } from '../../kernel/errors.ts';
import type { JsonResult, RequestContext } from '../../kernel/types.ts';
import type { Db } from '../../storage/schema.ts';
import { json } from '../../storage/schema.ts';
import { SupplierError } from '../../suppliers/ports/errors.ts';
import { type BookingRow, findBooking } from './store.ts';

export const MONEY_RECONCILE_QUEUE = 'money.reconcile';

/** The key a money or servicing operation of this request is written ahead under. */
export const idemKey = (ctx: RequestContext) => ctx.headers['idempotency-key'] ?? ctx.requestId;

/** A provider failure after which the provider may have acted: settle by asking, never report failed. */
export const isAmbiguous = (err: unknown): err is SupplierError =>
  err instanceof SupplierError && (err.kind === 'unknown_outcome' || err.kind === 'timeout');

/** What one provider call of a payment movement came to (payment/service.ts `callMovement`). */
export type MoveResult =
  | { ok: true; provider_ref: string | null; amount: number }
  | { ok: false; ambiguous: true; reason: string }
  | { ok: false; ambiguous: false; error: SupplierError };

/** The op kinds the ancillary sub-aggregate writes ahead (settled by ancillary/reconcile.ts). */
export const SERVICE_OP_KINDS: readonly string[] = ['seats_issue', 'ancillary_purchase', 'emd'];
/**
 * A request without an Idempotency-Key holds no lease: its op counts as owned this long after its intent
 * (longer than any provider call). The SDK and CLI always send a key on money calls.
 */
export const KEYLESS_OWNER_MS = 60_000;
/** An op answered pending is looked at again this soon (then the runner's backoff). */
export const RECONCILE_PENDING_DELAY_MS = 2_000;
export const RECONCILE_MAX_ATTEMPTS = 20;

export type OpKind =
  | 'authorize'
  | 'capture'
  | 'void'
  | 'refund'
  | 'manual_refund'
  | 'ticket'
  | 'ticket_void'
  | 'ticket_refund'
  | 'seats_issue'
  | 'ancillary_purchase'
  | 'emd'
  | 'cancel';

export type OpStatus = 'requested' | 'pending' | 'done' | 'failed';

export interface MoneyOp {
  id: number;
  booking_id: number;
  kind: OpKind;
  status: OpStatus;
  reference: string;
  payment_id: number | null;
  detail: Record<string, unknown>;
  request_id: string | null;
  outcome: string | null;
  /** The idempotency scope of the request that owns the op (null: no key). */
  owner_scope: string | null;
  /** How many times the job asked the provider. */
  looks: number;
  created_at: Date;
  updated_at: Date;
}

interface MoneyOpsTable {
  id: import('kysely').Generated<number>;
  booking_id: number;
  kind: string;
  status: string;
  reference: string;
  payment_id: number | null;
  detail: import('kysely').ColumnType<Record<string, unknown>, string | undefined, string>;
  request_id: string | null;
  outcome: string | null;
  owner_scope: string | null;
  looks: import('kysely').ColumnType<number, number | undefined, number>;
  created_at: import('kysely').ColumnType<Date, Date | undefined, Date>;
  updated_at: import('kysely').ColumnType<Date, Date | undefined, Date>;
}

export const opsDb = (db: Db) =>
  db.withTables<{ booking_money_ops: MoneyOpsTable }>() as unknown as import('kysely').Kysely<{
    booking_money_ops: MoneyOpsTable;
  }>;

const toOp = (r: Record<string, unknown>): MoneyOp => ({
  ...(r as unknown as MoneyOp),
  id: Number(r.id),
  booking_id: Number(r.booking_id),
  payment_id: r.payment_id === null ? null : Number(r.payment_id),
  looks: Number(r.looks ?? 0),
  owner_scope: (r.owner_scope as string | null | undefined) ?? null,
  detail: (typeof r.detail === 'string' ? JSON.parse(r.detail) : r.detail) as Record<string, unknown>,
  created_at: new Date(r.created_at as string),
  updated_at: new Date(r.updated_at as string),
});

/** A provider reference short enough for metadata and search queries, derived from the full key. */
export const referenceOf = (key: string) =>
  `mo_${createHash('sha256').update(key).digest('hex').slice(0, 32)}`;

export const IN_PROGRESS = 'operation_in_progress';

const inProgress = (kind: string) =>
  conflict(
    IN_PROGRESS,
    `Another money or ticketing operation (${kind}) on this booking is in flight; retry once it has settled.`,
  );

export async function inFlightOp(db: Db, bookingId: number): Promise<MoneyOp | undefined> {
  const r = await opsDb(db)
    .selectFrom('booking_money_ops')
    .selectAll()
    .where('booking_id', '=', bookingId)
    .where('status', 'in', ['requested', 'pending'])
    .executeTakeFirst();
  return r ? toOp(r as never) : undefined;
}

export async function findOp(db: Db, id: number, forUpdate = false): Promise<MoneyOp | undefined> {
  let q = opsDb(db).selectFrom('booking_money_ops').selectAll().where('id', '=', id);
  if (forUpdate) q = q.forUpdate();
  const r = await q.executeTakeFirst();
  return r ? toOp(r as never) : undefined;
}

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

/** The job asked the provider once more (its "not found" verdicts count these). Returns the new count. */
export async function countLook(db: Db, op: MoneyOp): Promise<number> {
  await opsDb(db)
    .updateTable('booking_money_ops')
    .set({ looks: op.looks + 1 })
    .where('id', '=', op.id)
    .execute();
  op.looks += 1;
  return op.looks;
}

/** Step 3: the op's outcome, in the transaction that records it. A settled op is left alone. */
export async function settleOp(
  trx: Db,
  opId: number,
  status: 'done' | 'failed',
  now: Date,
  patch: { outcome?: string; payment_id?: number | null; detail?: Record<string, unknown> } = {},
): Promise<boolean> {
  const r = await opsDb(trx)
    .updateTable('booking_money_ops')
    .set({
      status,
      updated_at: now,
      ...(patch.outcome !== undefined ? { outcome: patch.outcome } : {}),
      ...(patch.payment_id !== undefined ? { payment_id: patch.payment_id } : {}),
      ...(patch.detail !== undefined ? { detail: json(patch.detail) } : {}),
    })
    .where('id', '=', opId)
    .where('status', 'in', ['requested', 'pending'])
    .executeTakeFirst();
  const settled = Number(r.numUpdatedRows) > 0;
  // Settled in the request: its reconciliation job has nothing left to do (a running job ends by itself).
  if (settled) await finishQueued(trx, `${MONEY_RECONCILE_QUEUE}:${opId}`, now);
  return settled;
}

/** The outcome is unknown: the op stays in flight as `pending` and its job runs at once. */
export async function markPending(
  trx: Db,
  clock: Clock,
  opId: number,
  reason: string,
  detail?: Record<string, unknown>,
): Promise<void> {
  const now = clock.now();
  await opsDb(trx)
    .updateTable('booking_money_ops')
    .set({
      status: 'pending',
      outcome: reason.slice(0, 500),
      updated_at: now,
      ...(detail ? { detail: json(detail) } : {}),
    })
    .where('id', '=', opId)
    .where('status', 'in', ['requested', 'pending'])
    .execute();
  const runAt = new Date(now.getTime() + RECONCILE_PENDING_DELAY_MS);
  await jobStatements.reschedule(trx, `${MONEY_RECONCILE_QUEUE}:${opId}`, runAt, { now }).execute();
}

/** Ends an op that could not start (a refusal after the intent row, e.g. the provider said no at once). */
export async function failOp(db: Db, clock: Clock, opId: number, outcome: string): Promise<void> {
  await settleOp(db, opId, 'failed', clock.now(), { outcome: outcome.slice(0, 500) });
}

export async function opsOf(db: Db, bookingId: number): Promise<MoneyOp[]> {
  const rows = await opsDb(db)
    .selectFrom('booking_money_ops')
    .selectAll()
    .where('booking_id', '=', bookingId)
    .orderBy('id')
    .execute();
  return rows.map((r) => toOp(r as never));
}

/**
 * A settled op rewrites the pending answer (202, or a cancel's 502) stored under its owner's Idempotency-Key, so a same-key
 * retry gets the settled truth instead of "pending" forever: `answer` is what the request would have
 * answered had the provider's answer arrived. `null` means nothing happened at the provider: the stored
 * pending answer is dropped and a same-key retry runs anew (contracts §3: a response that committed no
 * effect is not kept). Any other stored answer (the request settled it itself) is left alone.
 */
export async function rewritePendingAnswer(
  trx: Db,
  op: MoneyOp,
  answer: { status: number; body: unknown } | null,
): Promise<void> {
  await recordAnswer(trx, op.id, answer);
  if (!op.owner_scope) return;
  if (answer === null)
    await idempotencyStatements.dropPending(trx, op.owner_scope, PENDING_STATUSES).execute();
  else await idempotencyStatements.rewritePending(trx, op.owner_scope, answer, PENDING_STATUSES).execute();
}

/** The stored answers that say "pending": 202 (money), 502 (a cancel whose supplier answer was lost). */
const PENDING_STATUSES = [202, 502];

/**
 * Keeps on the op what its request would have answered (`detail.answer`; null: nothing happened, a retry
 * runs anew), so a same-key retry of a request that died before storing any answer gets it (answerRetry).
 */
export async function recordAnswer(
  trx: Db,
  opId: number,
  answer: { status: number; body: unknown } | null,
): Promise<void> {
  await opsDb(trx)
    .updateTable('booking_money_ops')
    .set({ detail: sql`detail || ${json({ answer })}::jsonb` as never })
    .where('id', '=', opId)
    .execute();
}

/** The answer recorded on a settled op: undefined when none was recorded, null for "run anew". */
export function recordedAnswer(op: MoneyOp): JsonResult | null | undefined {
  if (!('answer' in op.detail)) return undefined;
  const a = op.detail.answer as { status: number; body: unknown } | null;
  return a === null ? null : { status: a.status, body: a.body };
}

/**
 * Whether the provider call an op made can no longer be under way: its owner is known to be gone and the
 * call window (`BOOKING_CALL_WINDOW_SECONDS`, longer than any adapter's timeout) has passed since the op was
 * last moved by its request. Then one look that finds nothing at the provider is final.
 */
export function callWindowOver(op: MoneyOp, now: Date): boolean {
  const since = Math.max(op.created_at.getTime(), op.updated_at.getTime());
  return now.getTime() >= since + callWindowMs();
}

/** The latest op of `kind` on the booking written by a request with this idempotency scope. */
export async function opOfScope(
  db: Db,
  bookingId: number,
  kind: OpKind,
  scope: string,
): Promise<MoneyOp | undefined> {
  const r = await opsDb(db)
    .selectFrom('booking_money_ops')
    .selectAll()
    .where('booking_id', '=', bookingId)
    .where('kind', '=', kind)
    .where('owner_scope', '=', scope)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return r ? toOp(r as never) : undefined;
}

export interface RetryOptions {
  db: Db;
  ctx: RequestContext;
  bookingId: number;
  kind: OpKind;
  /** Settles an in-flight op by asking the provider: the reconciliation job's own code. Throws while unknown. */
  settle: (op: MoneyOp) => Promise<void>;
  /**
   * What the request would have answered for a settled op, built from the recorded answer or the rows;
   * null: nothing happened at the provider, the retry runs anew.
   */
  answer: (db: Db, op: MoneyOp) => Promise<JsonResult | null>;
  /** The answer while the outcome is still unknown after asking (the operation's 202 pending). */
  pending?: (db: Db, op: MoneyOp) => Promise<JsonResult>;
}

/** What a retry found: the answer to give, or (no `pending` answer given) an op still in flight to adopt. */
export type RetryOutcome = { answer: JsonResult } | { inFlight: MoneyOp } | undefined;

/**
 * A request whose idempotency scope already owns an op on this booking is a retry of a request that never
 * stored an answer (its process died, or a 5xx released the key after the intent): it must answer the
 * truth about that op instead of deciding again (which would see the settled state and refuse it, or act
 * twice). The middleware let this request in only because that earlier request is gone, so the op's owner
 * is dead: an op still in flight is settled now by asking the provider, as the job would; a settled op is
 * answered as its request would have answered it; "nothing happened" runs anew (undefined).
 */
export async function answerRetry(o: RetryOptions): Promise<RetryOutcome> {
  const scope = o.ctx.idempotency?.scope;
  if (!scope) return undefined;
  let op = await opOfScope(o.db, o.bookingId, o.kind, scope);
  if (!op) return undefined;
  if (op.status === 'requested' || op.status === 'pending') {
    try {
      await o.settle(op);
    } catch (err) {
      o.ctx.log.info({ op: op.id, err: (err as Error).message }, 'retry: outcome still unknown');
    }
    op = (await findOp(o.db, op.id)) as MoneyOp;
    if (op.status === 'requested' || op.status === 'pending') {
      if (!o.pending) return { inFlight: op };
      return { answer: await o.pending(o.db, op) };
    }
  }
  const answer = await o.answer(o.db, op);
  return answer ? { answer } : undefined;
}
