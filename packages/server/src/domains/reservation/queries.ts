/**
 * Reads shared by hotel and transport bookings: one row, filtered pages, status counts and the audit
 * trail. The two tables share these columns, so the queries are written once against the hotel table's
 * type and run on either (the cast is the price of Kysely not typing a union of tables).
 */
import { type RawBuilder, sql } from 'kysely';
import { storedCurrency } from '../../internal/money.ts';
import { boundedTotal } from '../../storage/bounded-total.ts';
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
  /** The id of the last item of the previous page (same filters and sort): a keyset page. */
  startingAfter?: number;
}

/** Each sort key ends in the id tie-breaker; the same columns as migration 0181's indexes. */
const KEYS: Record<string, RawBuilder<unknown>[]> = {
  created_at: [sql`created_at`, sql`id`],
  updated_at: [sql`updated_at`, sql`id`],
  status: [sql`status`, sql`created_at`, sql`id`],
  total: [sql`total_minor`, sql`id`],
};

/**
 * A page of a hotel or transport list (issue 31): indexed filters and sorts, a keyset seek after
 * `startingAfter` (a `page` number is an OFFSET: correct, but it reads the rows it skips), and a total
 * exact up to a bound (storage/bounded-total.ts).
 */
export async function listRows(
  db: ServiceDb,
  k: BookingKind,
  f: ListFilter,
): Promise<{ rows: Row[]; total: number; estimated: boolean; hasMore: boolean }> {
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
    const like = `%${f.search
      .trim()
      .toLowerCase()
      .replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const id = /^[0-9]{1,15}$/.test(f.search.trim()) ? Number(f.search.trim()) : null;
    q = q.where(
      id === null
        ? sql<boolean>`${k.searchText} like ${like}`
        : sql<boolean>`(id = ${id} or ${k.searchText} like ${like})`,
    );
  }
  const size = f.pageSize ?? 20;
  const desc = (f.sortOrder ?? 'desc') === 'desc';
  const key = KEYS[f.sortBy ?? 'created_at'] ?? (KEYS.created_at as RawBuilder<unknown>[]);
  let rows = q.selectAll();
  if (f.startingAfter !== undefined) {
    // The cursor row's key in the caller's scope (initplans: the row comparison seeks the index); a row
    // the caller cannot list matches nothing, so the page is empty.
    const scope = [
      sql`c.id = ${f.startingAfter}`,
      ...(f.companyId !== undefined && f.companyId !== null ? [sql`c.company_id = ${f.companyId}`] : []),
      ...(f.userId !== undefined ? [sql`c.user_id = ${f.userId}`] : []),
    ];
    const at = key.map(
      (c) => sql`(select ${c} from ${sql.table(k.table)} c where ${sql.join(scope, sql` and `)})`,
    );
    rows = rows.where(sql<boolean>`(${sql.join(key)}) ${sql.raw(desc ? '<' : '>')} (${sql.join(at)})`);
  } else {
    rows = rows.offset(((f.page ?? 1) - 1) * size);
  }
  for (const c of key) rows = rows.orderBy(c, desc ? 'desc' : 'asc');
  const [items, total] = await Promise.all([rows.limit(size + 1).execute(), boundedTotal(db as never, q)]);
  return {
    rows: items.slice(0, size) as Row[],
    total: total.total,
    estimated: total.estimated,
    hasMore: items.length > size,
  };
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
    value_by_currency: values.map((v) => ({
      currency: storedCurrency(v.currency),
      amount_minor: Number(v.amount),
    })),
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
