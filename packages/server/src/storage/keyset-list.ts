/**
 * One page of an admin, company or customer list whose cost does not grow with the table (issue 31), the
 * pattern of flight-booking/list-query.ts made generic: the rows are ordered by a sort key that ends in the
 * row's id (every key has an index, migrations 0182 and 0230); a page after `starting_after` is a keyset
 * seek on that key; a `page` number is an OFFSET (correct at any depth, but it reads the rows it skips);
 * `total` is exact up to a bound (bounded-total.ts); `page_size + 1` rows are read for `has_more`.
 */
import { type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import { boundedTotal } from './bounded-total.ts';
import type { Db } from './schema.ts';

/** A sort key: its column expressions, written for a table alias, ending in the id. */
export type SortKey = (alias: string) => RawBuilder<unknown>[];

/** The columns `cols` of `alias`, in order: the common sort key. */
export const columns =
  (...cols: string[]): SortKey =>
  (alias) =>
    cols.map((c) => sql.ref(`${alias}.${c}`));

// biome-ignore lint/suspicious/noExplicitAny: any table of the schema, joined or not
type Matches = SelectQueryBuilder<any, any, object>;

export interface KeysetRequest<Q extends Matches> {
  /** The filtered rows (no select, order or limit yet); the listed table is aliased `alias`. */
  matches: Q;
  /** The listed table and its alias in `matches` (the cursor row is read from the table as `cur`). */
  table: string;
  alias: string;
  key: SortKey;
  desc: boolean;
  page: number;
  page_size: number;
  /** The id of the last item of the previous page, sent with the same filters and sort. */
  starting_after?: number | string;
  /**
   * Conditions the cursor row must meet (written for alias `cur`), so a row the caller cannot list seeks
   * nothing and does not reveal where it sorts: typically the tenant's company.
   */
  scope?: RawBuilder<unknown>[];
}

export interface KeysetPage<R> {
  items: R[];
  total: number;
  total_estimated: boolean;
  has_more: boolean;
}

/** A page: `select` adds the columns the list shows to the filtered, ordered, limited rows. */
export async function keysetList<Q extends Matches, R>(
  db: Db,
  r: KeysetRequest<Q>,
  // biome-ignore lint/suspicious/noExplicitAny: the caller's builder, whatever tables it joined
  select: (q: Q) => SelectQueryBuilder<any, any, R>,
): Promise<KeysetPage<R>> {
  const key = r.key(r.alias);
  let rows = select(r.matches);
  if (r.starting_after !== undefined) {
    // The cursor's key, read in the caller's scope; each value is an initplan, which PostgreSQL treats as a
    // constant, so the row comparison seeks the index.
    const where = sql.join([sql`cur.id = ${r.starting_after}`, ...(r.scope ?? [])], sql` and `);
    const at = r.key('cur').map((k) => sql`(select ${k} from ${sql.table(r.table)} cur where ${where})`);
    rows = rows.where(sql<boolean>`(${sql.join(key)}) ${sql.raw(r.desc ? '<' : '>')} (${sql.join(at)})`);
  } else {
    rows = rows.offset((r.page - 1) * r.page_size);
  }
  for (const k of key) rows = rows.orderBy(k, r.desc ? 'desc' : 'asc');
  const [items, total] = await Promise.all([
    rows.limit(r.page_size + 1).execute(),
    boundedTotal(db, r.matches),
  ]);
  return {
    items: items.slice(0, r.page_size) as R[],
    total: total.total,
    total_estimated: total.estimated,
    has_more: items.length > r.page_size,
  };
}

/** Escapes LIKE's wildcards, so a search for `50%` or `a_b` means those characters; lower-cased. */
export const likeContains = (s: string) => `%${s.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The response envelope of a keyset list (contract `keysetPage`). */
export const keysetBody = <T>(
  items: T[],
  r: KeysetPage<unknown>,
  p: { page: number; page_size: number },
) => ({
  items,
  total: r.total,
  total_estimated: r.total_estimated,
  has_more: r.has_more,
  page: p.page,
  page_size: p.page_size,
});
