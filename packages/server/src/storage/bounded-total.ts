/**
 * The `total` of a list page without counting every match (issue 31): the matches are counted exactly up
 * to `TOTAL_EXACT_UP_TO`; beyond it the count stops there and the total is the planner's row estimate
 * (never less than the bound + 1), flagged `total_estimated: true` in the page. The cost of a page thus
 * stays bounded however many rows match.
 */
import { CompiledQuery, type SelectQueryBuilder, sql } from 'kysely';
import { envNumber } from '../internal/config.ts';
import type { Db } from './schema.ts';

/** Exact totals up to this many matches (contract: `total_estimated`). */
export const TOTAL_EXACT_UP_TO = 1000;

/**
 * The bound every list uses, read per request: `LIST_TOTAL_EXACT_UP_TO` when set (tests set it low to see
 * the estimate; an operator may trade exact totals for cost), else `TOTAL_EXACT_UP_TO`, the contract's.
 */
export const listTotalBound = (): number =>
  Math.max(1, Math.floor(envNumber('LIST_TOTAL_EXACT_UP_TO', TOTAL_EXACT_UP_TO)));

export interface BoundedTotal {
  total: number;
  estimated: boolean;
}

/** `matches` is the list's filtered query before any select, sort or page. */
export async function boundedTotal<DB, TB extends keyof DB>(
  db: Db,
  matches: SelectQueryBuilder<DB, TB, object>,
  bound = listTotalBound(),
): Promise<BoundedTotal> {
  const ones = matches.select(sql<number>`1`.as('one'));
  const capped = await db
    .selectFrom(ones.limit(bound + 1).as('m'))
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  const n = Number(capped.n);
  if (n <= bound) return { total: n, estimated: false };
  const plain = ones.compile();
  const plan = await db.executeQuery<Record<string, unknown>>(
    CompiledQuery.raw(`explain (format json) ${plain.sql}`, [...plain.parameters]),
  );
  return { total: Math.max(bound + 1, planRows(plan.rows[0])), estimated: true };
}

/** `Plan Rows` of the top node of `explain (format json)`, whichever way the driver returns the json. */
function planRows(row: Record<string, unknown> | undefined): number {
  const raw = row ? Object.values(row)[0] : undefined;
  const doc = (typeof raw === 'string' ? JSON.parse(raw) : raw) as [{ Plan?: { 'Plan Rows'?: number } }];
  return Math.round(Number(doc?.[0]?.Plan?.['Plan Rows'] ?? 0));
}
