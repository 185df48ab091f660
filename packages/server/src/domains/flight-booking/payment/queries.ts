/** Payment reads joined to their booking, for the admin and customer payment lists. */

import { sql } from 'kysely';
import { storedCurrency } from '../../../internal/money.ts';
import { columns, keysetList, type SortKey } from '../../../storage/keyset-list.ts';
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
  page: number;
  page_size: number;
  /** The id of the last payment of the previous page (keyset paging). */
  startingAfter?: number;
}

/** The sort keys, each ending in the id: the indexes of migration 0231 on booking_payments. */
const SORTS: Record<string, SortKey> = {
  created_at: columns('created_at', 'id'),
  updated_at: columns('updated_at', 'id'),
  amount_minor: columns('amount_minor', 'id'),
  state: columns('state', 'id'),
};

const toRow = (row: object): PaymentRow => {
  const r = row as Record<string, unknown>;
  return {
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
  };
};

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
    currency: storedCurrency(t.currency),
    provider_ref: t.provider_ref,
    failure_code: t.failure_code,
    reason: t.reason,
    created_at: new Date(t.created_at).toISOString(),
  }));
  return rows.map((p) => paymentView(p, views));
}

/**
 * A page of payments (issue 31), keyset-paged on one of the sort keys above. The tenant filters (company,
 * user) live on the booking: the planner either walks the sort's payment index and probes each booking by
 * its primary key (a large tenant), or reads the tenant's bookings by their (company_id|user_id, …)
 * indexes of 0180 and each one's payments by (booking_id, id) before a top-N sort (a small one); both are
 * bounded by the page and the tenant, never by the whole table (measured in docs, bench/scale.ts
 * "payments"). The `starting_after` payment is read in the same tenant: another tenant's id gives an empty
 * page and does not reveal where it sorts.
 */
export async function listPaymentRows(db: Db, f: PaymentFilters) {
  let q = bookingDb(db)
    .selectFrom('booking_payments as p')
    .innerJoin('flight_bookings as b', 'b.id', 'p.booking_id');
  if (f.state) q = q.where('p.state', '=', f.state);
  if (f.provider) q = q.where('p.provider', '=', f.provider);
  if (f.companyId !== undefined) q = q.where('b.company_id', '=', f.companyId);
  if (f.userId !== undefined) q = q.where('b.user_id', '=', f.userId);
  if (f.from) q = q.where('p.created_at', '>=', f.from);
  if (f.to) q = q.where('p.created_at', '<', f.to);
  const scope = [
    ...(f.companyId !== undefined ? [sql`cb.company_id = ${f.companyId}`] : []),
    ...(f.userId !== undefined ? [sql`cb.user_id = ${f.userId}`] : []),
  ];
  const r = await keysetList(
    db,
    {
      matches: q,
      table: 'booking_payments',
      alias: 'p',
      key: SORTS[f.sortBy ?? 'created_at'] ?? (SORTS.created_at as SortKey),
      desc: f.sortOrder !== 'asc',
      page: f.page,
      page_size: f.page_size,
      ...(f.startingAfter !== undefined ? { starting_after: f.startingAfter } : {}),
      ...(scope.length
        ? {
            scope: [
              sql`exists (select 1 from flight_bookings cb where cb.id = cur.booking_id and ${sql.join(scope, sql` and `)})`,
            ],
          }
        : {}),
    },
    (rows) => rows.selectAll('p'),
  );
  return { ...r, items: r.items.map((x) => toRow(x as Record<string, unknown>)) };
}

export async function findPayment(db: Db, id: number, forUpdate = false) {
  let q = bookingDb(db).selectFrom('booking_payments').selectAll().where('id', '=', id);
  if (forUpdate) q = q.forUpdate();
  const r = await q.executeTakeFirst();
  return r ? toRow(r) : undefined;
}
