/** Payment reads joined to their booking, for the admin and customer payment lists. */

import { type SelectQueryBuilder, sql } from 'kysely';
import type { Db } from '../../../storage/schema.ts';
import { bookingDb } from '../tables.ts';
import { type PaymentRow, paymentView, type TransactionView } from './store.ts';

export interface PaymentFilters {
  state?: string;
  provider?: string;
  companyId?: number;
  userId?: string;
  from?: Date;
  to?: Date;
  sortBy?: string;
  sortOrder?: 'asc' | 'desc';
  limit: number;
  offset: number;
}

const SORTS: Record<string, string> = {
  created_at: 'p.created_at',
  updated_at: 'p.updated_at',
  amount_minor: 'p.amount_minor',
  state: 'p.state',
};

const toRow = (r: Record<string, unknown>): PaymentRow => ({
  id: Number(r.id),
  booking_id: Number(r.booking_id),
  state: r.state as PaymentRow['state'],
  amount_minor: Number(r.amount_minor),
  captured_minor: Number(r.captured_minor),
  refunded_minor: Number(r.refunded_minor),
  currency: String(r.currency).trim(),
  provider: String(r.provider),
  provider_payment_ref: (r.provider_payment_ref as string | null) ?? null,
  created_at: new Date(r.created_at as string),
  updated_at: new Date(r.updated_at as string),
});

/** Payments with their transactions (oldest first), as the contract's `Payment`. */
export async function paymentsWithTransactions(db: Db, rows: PaymentRow[]) {
  if (rows.length === 0) return [];
  const txs = await bookingDb(db)
    .selectFrom('booking_payment_transactions')
    .selectAll()
    .where(
      'payment_id',
      'in',
      rows.map((r) => r.id),
    )
    .orderBy('id')
    .execute();
  const views: TransactionView[] = txs.map((t) => ({
    transaction_id: Number(t.id),
    payment_id: Number(t.payment_id),
    type: t.type,
    status: t.status,
    amount_minor: Number(t.amount_minor),
    currency: String(t.currency).trim(),
    provider_ref: t.provider_ref,
    failure_code: t.failure_code,
    reason: t.reason,
    created_at: new Date(t.created_at).toISOString(),
  }));
  return rows.map((p) => paymentView(p, views));
}

export async function listPaymentRows(db: Db, f: PaymentFilters) {
  // biome-ignore lint/suspicious/noExplicitAny: the joined builder's type is not worth spelling out
  let q: SelectQueryBuilder<any, any, object> = bookingDb(db)
    .selectFrom('booking_payments as p')
    .innerJoin('flight_bookings as b', 'b.id', 'p.booking_id');
  if (f.state) q = q.where('p.state', '=', f.state);
  if (f.provider) q = q.where('p.provider', '=', f.provider);
  if (f.companyId !== undefined) q = q.where('b.company_id', '=', f.companyId);
  if (f.userId !== undefined) q = q.where('b.user_id', '=', f.userId);
  if (f.from) q = q.where('p.created_at', '>=', f.from);
  if (f.to) q = q.where('p.created_at', '<', f.to);
  const { n } = (await q.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()) as { n: number };
  const dir = f.sortOrder === 'asc' ? 'asc' : 'desc';
  const rows = await q
    .selectAll('p')
    .orderBy(sql.ref(SORTS[f.sortBy ?? 'created_at'] ?? 'p.created_at'), dir)
    .orderBy('p.id', dir)
    .limit(f.limit)
    .offset(f.offset)
    .execute();
  return { rows: rows.map((r) => toRow(r as Record<string, unknown>)), total: Number(n) };
}

export async function findPayment(db: Db, id: number, forUpdate = false) {
  let q = bookingDb(db).selectFrom('booking_payments').selectAll().where('id', '=', id);
  if (forUpdate) q = q.forUpdate();
  const r = await q.executeTakeFirst();
  return r ? toRow(r as unknown as Record<string, unknown>) : undefined;
}
