/** The intent rows of money and ticket-state operations (`booking_money_ops`): their shape and reads. */

import { createHash } from 'node:crypto';
import { callWindowMs } from '../../../internal/config.ts';
import { conflict } from '../../../kernel/errors.ts';
import type { RequestContext } from '../../../kernel/types.ts';
import type { Db } from '../../../storage/schema.ts';
import { SupplierError } from '../../../suppliers/ports/errors.ts';

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

export const toOp = (r: Record<string, unknown>): MoneyOp => ({
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

export const inProgress = (kind: string) =>
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
