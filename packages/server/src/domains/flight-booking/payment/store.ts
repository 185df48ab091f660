/** Payment rows and their transaction rows (one per money movement, failed ones included). */
import type { components } from '@travel/contract';
import { sql } from 'kysely';
import { type EventType, record } from '../../../events/record.ts';
import { storedCurrency } from '../../../internal/money.ts';
import type { Db } from '../../../storage/schema.ts';
import { bookingDb } from '../tables.ts';
import type { PaymentState } from './state-machine.ts';

export interface PaymentRow {
  id: number;
  booking_id: number;
  state: PaymentState;
  amount_minor: number;
  captured_minor: number;
  refunded_minor: number;
  currency: string;
  provider: string;
  provider_payment_ref: string | null;
  created_at: Date;
  updated_at: Date;
}

const num = (r: Record<string, unknown>) =>
  ({
    ...r,
    id: Number(r.id),
    booking_id: Number(r.booking_id),
    amount_minor: Number(r.amount_minor),
    captured_minor: Number(r.captured_minor),
    refunded_minor: Number(r.refunded_minor),
    created_at: new Date(r.created_at as string),
    updated_at: new Date(r.updated_at as string),
  }) as PaymentRow;

export async function latestPayment(
  db: Db,
  bookingId: number,
  forUpdate = false,
): Promise<PaymentRow | undefined> {
  let q = bookingDb(db)
    .selectFrom('booking_payments')
    .selectAll()
    .where('booking_id', '=', bookingId)
    .orderBy('id', 'desc')
    .limit(1);
  if (forUpdate) q = q.forUpdate();
  const r = await q.executeTakeFirst();
  return r ? num(r as never) : undefined;
}

export async function listPayments(db: Db, bookingId: number): Promise<PaymentRow[]> {
  const rows = await bookingDb(db)
    .selectFrom('booking_payments')
    .selectAll()
    .where('booking_id', '=', bookingId)
    .orderBy('id')
    .execute();
  return rows.map((r) => num(r as never));
}

export async function insertPayment(
  db: Db,
  p: Omit<PaymentRow, 'id' | 'created_at' | 'updated_at'>,
  now: Date,
): Promise<PaymentRow> {
  const r = await bookingDb(db)
    .insertInto('booking_payments')
    .values({ ...p, created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
  return num(r as never);
}

export async function updatePayment(
  db: Db,
  id: number,
  patch: Partial<PaymentRow>,
  now: Date,
): Promise<PaymentRow> {
  const { id: _i, created_at: _c, ...rest } = patch;
  const before = await bookingDb(db)
    .selectFrom('booking_payments')
    .select(['state', 'refunded_minor'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  const r = await bookingDb(db)
    .updateTable('booking_payments')
    .set({ ...rest, updated_at: now })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  const after = num(r as never);
  // The payment's event commits with its state (the caller's transaction): see paymentEventType.
  const type = paymentEventType(before.state as PaymentState, Number(before.refunded_minor), after);
  if (type) {
    await record(db, {
      type,
      companyId: sql<number | null>`(select company_id from flight_bookings where id = ${after.booking_id})`,
      resource: { type: 'payment', id: after.id, data: await paymentWithTransactions(db, after) },
      at: now,
    });
  }
  return after;
}

/**
 * The event of a payment's move (issue 30): authorized, declined (the authorization failed), captured,
 * voided, refunded (each refund, partial ones included). Settlement (CAPTURED -> SETTLED) emits none.
 */
export function paymentEventType(
  from: PaymentState,
  refundedBefore: number,
  p: Pick<PaymentRow, 'state' | 'refunded_minor'>,
): EventType | null {
  if (p.refunded_minor > refundedBefore) return 'payment.refunded';
  if (p.state === from) return null;
  const by: Partial<Record<PaymentState, EventType>> = {
    AUTHORIZED: 'payment.authorized',
    FAILED: 'payment.declined',
    CAPTURED: 'payment.captured',
    VOIDED: 'payment.voided',
    REFUNDED: 'payment.refunded',
  };
  return by[p.state] ?? null;
}

export interface TxInput {
  payment_id: number;
  booking_id: number;
  type: 'authorization' | 'capture' | 'void' | 'refund';
  status: 'succeeded' | 'failed' | 'pending';
  amount_minor: number;
  currency: string;
  provider_ref?: string | null;
  failure_code?: string | null;
  reason?: string | null;
  idempotency_key?: string | null;
}

export async function insertTransaction(db: Db, t: TxInput, now: Date) {
  await bookingDb(db)
    .insertInto('booking_payment_transactions')
    .values({
      provider_ref: null,
      failure_code: null,
      reason: null,
      idempotency_key: null,
      ...t,
      created_at: now,
    })
    .execute();
}

/** Settles the pending transaction row of one movement (matched by its provider idempotency key). */
export async function settleTransaction(
  db: Db,
  paymentId: number,
  key: string,
  patch: {
    status: 'succeeded' | 'failed';
    provider_ref?: string | null;
    failure_code?: string | null;
    amount_minor?: number;
  },
) {
  await bookingDb(db)
    .updateTable('booking_payment_transactions')
    .set(patch)
    .where('payment_id', '=', paymentId)
    .where('idempotency_key', '=', key)
    .where('status', '=', 'pending')
    .execute();
}

export async function findPaymentById(
  db: Db,
  id: number,
  forUpdate = false,
): Promise<PaymentRow | undefined> {
  let q = bookingDb(db).selectFrom('booking_payments').selectAll().where('id', '=', id);
  if (forUpdate) q = q.forUpdate();
  const r = await q.executeTakeFirst();
  return r ? num(r as never) : undefined;
}

export async function transactionsOf(db: Db, bookingId: number) {
  const rows = await bookingDb(db)
    .selectFrom('booking_payment_transactions')
    .selectAll()
    .where('booking_id', '=', bookingId)
    .orderBy('id')
    .execute();
  return rows.map((t) => ({
    transaction_id: Number(t.id),
    payment_id: Number(t.payment_id),
    type: t.type,
    status: t.status,
    amount_minor: Number(t.amount_minor),
    currency: storedCurrency(t.currency),
    provider_ref: t.provider_ref,
    failure_code: t.failure_code,
    reason: t.reason,
    created_at: new Date(t.created_at).toISOString(),
  }));
}

export type TransactionView = Awaited<ReturnType<typeof transactionsOf>>[number];

export function paymentView(p: PaymentRow, txs: TransactionView[]): components['schemas']['Payment'] {
  return {
    payment_id: p.id,
    booking_id: p.booking_id,
    state: p.state,
    amount_minor: p.amount_minor,
    captured_minor: p.captured_minor,
    refunded_minor: p.refunded_minor,
    currency: storedCurrency(p.currency),
    provider: 'stripe' as const,
    provider_payment_ref: p.provider_payment_ref,
    transactions: txs.filter((t) => t.payment_id === p.id),
    created_at: p.created_at.toISOString(),
    updated_at: p.updated_at.toISOString(),
  };
}

export async function paymentWithTransactions(db: Db, p: PaymentRow) {
  return paymentView(p, await transactionsOf(db, p.booking_id));
}
