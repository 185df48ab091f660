/**
 * The flight booking lists (admin, company, customer): one query per page whose cost does not grow with
 * the table (issue 31). Every filter and sort has an index (migration 0180); a page after `starting_after`
 * is a keyset seek on (sort key, id); a `page` number is an OFFSET (correct at any depth, but it reads the
 * skipped rows); `total` is exact up to a bound (storage/bounded-total.ts). Rows carry only the columns
 * the list shows (not `offer`).
 */
import { type RawBuilder, sql } from 'kysely';
import { boundedTotal } from '../../storage/bounded-total.ts';
import type { Db } from '../../storage/schema.ts';
import { type BookingViewRow, toViewRow, VIEW_COLUMNS } from './store.ts';
import { bookingDb } from './tables.ts';
import { bookingView } from './view.ts';

export interface ListFilters {
  page: number;
  page_size: number;
  /** The booking_id of the last item of the previous page (same filters and sort): a keyset page. */
  starting_after?: number;
  status?: string;
  company_id?: number | null;
  user_id?: string;
  supplier?: string;
  pnr?: string;
  /** The bookings of a client: the contact email, case-insensitive. */
  contact_email?: string;
  date_from?: string;
  date_to?: string;
  search?: string;
  sort_by?: string;
  sort_order?: 'asc' | 'desc';
}

export interface BookingListPage {
  items: BookingViewRow[];
  total: number;
  total_estimated: boolean;
  has_more: boolean;
}

/** The sort keys, each ending in the id tie-breaker; the same expressions as migration 0180's indexes. */
const KEYS: Record<string, RawBuilder<unknown>[]> = {
  created_at: [sql`created_at`, sql`id`],
  updated_at: [sql`updated_at`, sql`id`],
  status: [sql`status`, sql`created_at`, sql`id`],
  total_minor: [sql`((pricing->>'total_minor')::bigint)`, sql`id`],
  ticketing_deadline: [sql`(coalesce(ticketing_deadline, 'infinity'::timestamptz))`, sql`id`],
};

/** Verbatim the expression of the trigram index flight_bookings_list_search (migration 0180). */
const SEARCH_TEXT = sql`lower(coalesce(pnr, '') || ' ' || passengers::text || ' ' || coalesce(contact->>'email', '') || ' '
        || coalesce(client_ref, ''))`;

/** Escapes LIKE's wildcards, so a search for `50%` or `a_b` means those characters. */
const likeLiteral = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

function matches(db: Db, f: ListFilters) {
  let q = bookingDb(db).selectFrom('flight_bookings');
  if (f.status) q = q.where('status', '=', f.status);
  if (f.company_id !== undefined && f.company_id !== null) q = q.where('company_id', '=', f.company_id);
  if (f.user_id) q = q.where('user_id', '=', f.user_id);
  if (f.supplier) q = q.where('supplier', '=', f.supplier);
  if (f.pnr) q = q.where('pnr', '=', f.pnr);
  if (f.contact_email) q = q.where(sql`lower(contact->>'email')`, '=', f.contact_email.toLowerCase());
  if (f.date_from) q = q.where('created_at', '>=', new Date(`${f.date_from}T00:00:00Z`));
  if (f.date_to)
    q = q.where('created_at', '<', new Date(new Date(`${f.date_to}T00:00:00Z`).getTime() + 86_400_000));
  if (f.search) {
    const like = `%${likeLiteral(f.search.toLowerCase())}%`;
    const id = /^[0-9]{1,15}$/.test(f.search) ? Number(f.search) : null;
    q = q.where((eb) =>
      id === null ? eb(SEARCH_TEXT, 'like', like) : eb.or([eb('id', '=', id), eb(SEARCH_TEXT, 'like', like)]),
    );
  }
  return q;
}

/** The page's query (`rows`, limit page_size + 1) and the filtered matches it counts (`matches`). */
export function pageQuery(db: Db, f: ListFilters) {
  const q = matches(db, f);
  const desc = f.sort_order !== 'asc';
  const key = KEYS[f.sort_by ?? ''] ?? (KEYS.created_at as RawBuilder<unknown>[]);
  let rows = q.select(VIEW_COLUMNS);
  if (f.starting_after !== undefined) {
    // The cursor row's sort key, read in the same scope (a booking the caller cannot list matches nothing,
    // so the page is empty rather than revealing where another tenant's booking sorts). Each value is an
    // initplan, which PostgreSQL treats as a constant: the row comparison seeks the index.
    const scope = [
      sql`c.id = ${f.starting_after}`,
      ...(f.company_id !== undefined && f.company_id !== null ? [sql`c.company_id = ${f.company_id}`] : []),
      ...(f.user_id ? [sql`c.user_id = ${f.user_id}`] : []),
    ];
    const at = key.map((k) => sql`(select ${k} from flight_bookings c where ${sql.join(scope, sql` and `)})`);
    // Unqualified columns inside the subquery resolve to its own alias `c` first.
    rows = rows.where(sql<boolean>`(${sql.join(key)}) ${sql.raw(desc ? '<' : '>')} (${sql.join(at)})`);
  } else {
    rows = rows.offset((f.page - 1) * f.page_size);
  }
  for (const k of key) rows = rows.orderBy(k, desc ? 'desc' : 'asc');
  return { rows: rows.limit(f.page_size + 1), matches: q };
}

export async function listBookings(db: Db, f: ListFilters): Promise<BookingListPage> {
  const { rows, matches } = pageQuery(db, f);
  const [items, total] = await Promise.all([rows.execute(), boundedTotal(db, matches)]);
  return {
    items: items.slice(0, f.page_size).map((r) => toViewRow(r as never)),
    total: total.total,
    total_estimated: total.estimated,
    has_more: items.length > f.page_size,
  };
}

/** The response envelope of a booking list (openapi `FlightBookingPage`). */
export const keysetBody = (r: BookingListPage, p: { page: number; page_size: number }) => ({
  items: r.items.map(bookingView),
  total: r.total,
  total_estimated: r.total_estimated,
  has_more: r.has_more,
  page: p.page,
  page_size: p.page_size,
});
