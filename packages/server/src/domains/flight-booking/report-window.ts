/**
 * A report window split for the booking rollups (migration 0240, docs/decisions/0008-report-rollups.md):
 * the whole UTC days inside it come from the daily rollup tables, the two partial days at its edges from
 * flight_bookings by an index range of created_at. A rolling "30d" (now - 30 days .. now) is not
 * day-aligned; so split, a report answers exactly what a scan of every booking of the window answers.
 */
import { type RawBuilder, sql } from 'kysely';

const DAY = 86_400_000;

const startOfDay = (t: Date) => new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate()));
const isoDay = (t: Date) => t.toISOString().slice(0, 10);

/** A range of created_at read from flight_bookings: `from` inclusive, `to` inclusive or not. */
interface Edge {
  from: Date;
  to: Date | null;
  toInclusive: boolean;
}

interface SplitWindow {
  /** Whole days read from a rollup: `day >= first` and (unless null) `day < end`; null: none. */
  days: { first: string; end: string | null } | null;
  /** The partial days, read from flight_bookings (none, one or two ranges). */
  edges: Edge[];
}

/** `from` .. `to` (both inclusive; `to` null: no upper bound) as whole days and edge ranges. */
export function splitWindow(from: Date, to: Date | null): SplitWindow {
  const aligned = startOfDay(from).getTime() === from.getTime();
  const first = aligned ? from : new Date(startOfDay(from).getTime() + DAY);
  const end = to === null ? null : startOfDay(to);
  if (end !== null && first.getTime() >= end.getTime())
    return { days: null, edges: [{ from, to, toInclusive: true }] };
  const edges: Edge[] = [];
  if (!aligned) edges.push({ from, to: first, toInclusive: false });
  if (end !== null) edges.push({ from: end, to, toInclusive: true });
  return { days: { first: isoDay(first), end: end === null ? null : isoDay(end) }, edges };
}

/** The SQL condition of one edge on `b.created_at`. */
function edgeRange(e: Edge): RawBuilder<boolean> {
  const upper =
    e.to === null ? sql`true` : e.toInclusive ? sql`b.created_at <= ${e.to}` : sql`b.created_at < ${e.to}`;
  return sql<boolean>`b.created_at >= ${e.from} and ${upper}`;
}

/** The SQL condition of the whole days on a rollup's `r.day`. */
function wholeDays(days: NonNullable<SplitWindow['days']>): RawBuilder<boolean> {
  return days.end === null
    ? sql<boolean>`r.day >= ${days.first}::date`
    : sql<boolean>`r.day >= ${days.first}::date and r.day < ${days.end}::date`;
}

/**
 * `parts` joined by UNION ALL: one per edge (`edge(range)`) and, when the window holds whole days,
 * `rollup(wholeDays)`. Never empty: a window always has an edge or whole days.
 */
export function windowParts(
  w: SplitWindow,
  edge: (range: RawBuilder<boolean>) => RawBuilder<unknown>,
  rollup: (range: RawBuilder<boolean>) => RawBuilder<unknown>,
): RawBuilder<unknown> {
  const parts = w.edges.map((e) => edge(edgeRange(e)));
  if (w.days) parts.push(rollup(wholeDays(w.days)));
  return sql.join(
    parts.map((p) => sql`(${p})`),
    sql` union all `,
  );
}
