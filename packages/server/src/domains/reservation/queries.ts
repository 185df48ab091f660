/**
 * Reads shared by hotel and transport bookings: one row, filtered pages, status counts and the audit
 * trail. The two tables share these columns, so the queries are written once against the hotel table's
 * type and run on either (the cast is the price of Kysely not typing a union of tables).
 */
import { sql } from 'kysely';
import type { BookingKind } from './kind.ts';
import type { ServiceDb } from './tables.ts';
import { iso, parseJson } from './tables.ts';

type Row = Record<string, unknown> & {
  id: number;
  status: string;
  user_id: string;
  company_id: number | null;
};

const from = (db: ServiceDb, k: BookingKind) => db.selectFrom(k.table as 'hotel_bookings');

export async function getRow(
  db: ServiceDb,
  k: BookingKind,
  id: number,
  lock = false,
): Promise<Row | undefined> {
  let q = from(db, k).selectAll().where('id', '=', id);
  if (lock) q = q.forUpdate();
  return (await q.executeTakeFirst()) as Row | undefined;
}

export interface ListFilter {
  userId?: string;
  companyId?: number | null;
  status?: string;
  statuses?: string[];
  provider?: string;
  dateFrom?: string;
  dateTo?: string;
  search?: string;
  sortBy?: 'created_at' | 'updated_at' | 'status' | 'total';
  sortOrder?: 'asc' | 'desc';
  page?: number;
  pageSize?: number;
}

export async function listRows(
  db: ServiceDb,
  k: BookingKind,
  f: ListFilter,
): Promise<{ rows: Row[]; total: number }> {
  let q = from(db, k);
  if (f.userId !== undefined) q = q.where('user_id', '=', f.userId);
  if (f.companyId !== undefined && f.companyId !== null) q = q.where('company_id', '=', f.companyId);
  if (f.status) q = q.where('status', '=', f.status);
  if (f.statuses) q = q.where('status', 'in', f.statuses);
  if (f.provider) q = q.where('provider', '=', f.provider);
  // date_to is inclusive: everything before the next day starts (UTC)
  if (f.dateFrom) q = q.where('created_at', '>=', new Date(`${f.dateFrom}T00:00:00Z`));
  if (f.dateTo) q = q.where('created_at', '<', new Date(Date.parse(`${f.dateTo}T00:00:00Z`) + 86_400_000));
  if (f.search) {
    const like = `%${f.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where(
      sql<boolean>`(id::text = ${f.search.trim()} or coalesce(supplier_booking_ref, '') ilike ${like}
        or ${sql.ref(k.people)}::text ilike ${like} or coalesce(${k.email}, '') ilike ${like})`,
    );
  }
  const count = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const page = f.page ?? 1;
  const size = f.pageSize ?? 20;
  const sortCol = f.sortBy === 'total' ? 'total_minor' : (f.sortBy ?? 'created_at');
  const dir = f.sortOrder ?? 'desc';
  const rows = await q
    .selectAll()
    .orderBy(sortCol, dir)
    .orderBy('id', dir)
    .limit(size)
    .offset((page - 1) * size)
    .execute();
  return { rows: rows as Row[], total: Number(count.n) };
}

/** Counts by status (every status present) and booked value per currency (nothing-booked states excluded). */
export async function stats(db: ServiceDb, k: BookingKind, now: Date) {
  const byStatus = await from(db, k)
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('status')
    .execute();
  const values = await from(db, k)
    .select(['currency', (eb) => eb.fn.sum<number>('total_minor').as('amount')])
    .where('status', 'not in', ['cancelled', 'rejected', 'failed'])
    .groupBy('currency')
    .orderBy('currency')
    .execute();
  const by_status: Record<string, number> = Object.fromEntries(k.statuses.map((s) => [s, 0]));
  let total = 0;
  for (const r of byStatus) {
    by_status[r.status] = Number(r.n);
    total += Number(r.n);
  }
  return {
    total,
    by_status,
    value_by_currency: values.map((v) => ({ currency: v.currency, amount_minor: Number(v.amount) })),
    generated_at: now.toISOString(),
  };
}

/** The booking's audit rows in the contract's `AuditEntry` shape, oldest first. */
export async function auditTrail(db: ServiceDb, k: BookingKind, id: number) {
  const rows = await db
    .selectFrom('audit_log')
    .selectAll()
    .where('entity_type', '=', k.entity)
    .where('entity_id', '=', String(id))
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    audit_id: Number(r.id),
    event: `${k.entity}.${r.action}`,
    actor_user_id: r.actor_id,
    impersonator_id: r.impersonator_id,
    company_id: r.company_id,
    target_type: r.entity_type,
    target_id: r.entity_id,
    details: {
      actor_role: r.actor_role,
      ...(r.reason ? { reason: r.reason } : {}),
      ...(parseJson<Record<string, unknown> | null>(r.changes) ?? {}),
    },
    ip: r.ip,
    request_id: r.request_id,
    created_at: iso(r.at as Date),
  }));
}
