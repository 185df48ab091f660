/**
 * Reads of the markup_rules table (migration 0011) for the search engine and anyone pricing an offer.
 * The admin/company CRUD lives elsewhere; it writes the same table.
 */
import type { components } from '@travel/contract';
import type { ColumnType, Kysely } from 'kysely';
import type { Db } from '../../storage/schema.ts';
import type { MarkupRule, RuleType } from './engine.ts';

export interface MarkupRulesTable {
  id: ColumnType<number, number | undefined, never>;
  company_id: number | null;
  rule_type: RuleType;
  amount: number;
  currency: string | null;
  origin: string | null;
  destination: string | null;
  /** check constraint: the contract's MarkupCabinClass (0011). */
  cabin_class: components['schemas']['MarkupCabinClass'] | null;
  airline: string | null;
  gds_provider: string | null;
  min_fare: number | null;
  max_fare: number | null;
  priority: ColumnType<number, number | undefined, number>;
  is_active: ColumnType<boolean, boolean | undefined, boolean>;
  description: string | null;
  created_by: string | null;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
  deleted_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export type MarkupTables = {
  markup_rules: MarkupRulesTable;
};

export const markupDb = (db: Db | Kysely<unknown>): Kysely<MarkupTables> =>
  (db as Db).withTables<MarkupTables>() as never;

/**
 * Every rule that may apply to a caller of `companyId`: active, not deleted, platform-wide or the
 * company's own. One query per search; the engine filters per offer.
 */
export async function loadMarkupRules(
  db: Db | Kysely<unknown>,
  companyId: number | null,
): Promise<MarkupRule[]> {
  let q = markupDb(db)
    .selectFrom('markup_rules')
    .selectAll()
    .where('is_active', '=', true)
    .where('deleted_at', 'is', null);
  q =
    companyId === null
      ? q.where('company_id', 'is', null)
      : q.where((eb) => eb.or([eb('company_id', 'is', null), eb('company_id', '=', companyId)]));
  const rows = await q.orderBy('id').execute();
  return rows.map((r) => ({
    id: r.id,
    company_id: r.company_id,
    rule_type: r.rule_type,
    amount: Number(r.amount),
    currency: r.currency ? r.currency.trim() : null,
    origin: r.origin,
    destination: r.destination,
    cabin_class: r.cabin_class,
    airline: r.airline,
    gds_provider: r.gds_provider,
    min_fare: r.min_fare === null ? null : Number(r.min_fare),
    max_fare: r.max_fare === null ? null : Number(r.max_fare),
    priority: r.priority,
    is_active: r.is_active,
  }));
}
