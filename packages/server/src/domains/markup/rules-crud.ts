/**
 * Markup rule CRUD over the search engineer's `markup_rules` table (migration 0011), shared by the admin
 * surface (any scope) and the company surface (the caller's company only). Deletion is soft.
 */
import type { components } from '@travel/contract';
import type { Selectable } from 'kysely';
import { writeAudit } from '../../audit/audit-log.ts';
import { storedCurrency } from '../../internal/money.ts';
import { badRequest, notFound } from '../../kernel/errors.ts';
import type { RequestContext } from '../../kernel/types.ts';
import type { Db } from '../../storage/schema.ts';
import { iso, type Paging, pageBody } from '../accounts/index.ts';
import { type MarkupRulesTable, markupDb } from './markup-store.ts';

const n = (v: unknown) => (v === null || v === undefined ? null : Number(v));

export function ruleView(r: Selectable<MarkupRulesTable>): components['schemas']['MarkupRule'] {
  return {
    rule_id: r.id,
    company_id: r.company_id,
    rule_type: r.rule_type,
    amount: Number(r.amount),
    currency: r.currency ? storedCurrency(r.currency) : null,
    origin: r.origin,
    destination: r.destination,
    cabin_class: r.cabin_class,
    airline: r.airline,
    gds_provider: r.gds_provider,
    min_fare: n(r.min_fare),
    max_fare: n(r.max_fare),
    priority: r.priority,
    is_active: r.is_active,
    description: r.description,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}

/** `scope`: undefined = every rule (admin, optionally filtered by company_id), a number = that company only. */
export async function listRules(db: Db, p: Paging, f: { companyId?: number; isActive?: boolean }) {
  let q = markupDb(db).selectFrom('markup_rules').where('deleted_at', 'is', null);
  if (f.companyId !== undefined) q = q.where('company_id', '=', f.companyId);
  if (f.isActive !== undefined) q = q.where('is_active', '=', f.isActive);
  const { c } = await q.select((eb) => eb.fn.countAll<number>().as('c')).executeTakeFirstOrThrow();
  const rows = await q
    .selectAll()
    .orderBy('priority', 'desc')
    .orderBy('id')
    .limit(p.page_size)
    .offset(p.offset)
    .execute();
  return pageBody(rows.map(ruleView), c, p);
}

/** A rule as created (the contract's request, its scope aside). */
export type RuleInput = Omit<components['schemas']['CreateMarkupRuleRequest'], 'company_id'>;
/** A rule's changes (the contract's update request). */
export type RulePatch = components['schemas']['UpdateMarkupRuleRequest'];

function checkRange(min: number | null | undefined, max: number | null | undefined) {
  if (min !== null && min !== undefined && max !== null && max !== undefined && min > max) {
    throw badRequest('invalid_fare_range', 'min_fare must not exceed max_fare.');
  }
}

export async function createRule(
  ctx: RequestContext,
  trx: Db,
  companyId: number | null,
  b: RuleInput,
  now: Date,
) {
  checkRange(b.min_fare, b.max_fare);
  const r = await markupDb(trx)
    .insertInto('markup_rules')
    .values({
      company_id: companyId,
      rule_type: b.rule_type,
      amount: b.amount,
      currency: b.currency ?? null,
      origin: b.origin ?? null,
      destination: b.destination ?? null,
      cabin_class: b.cabin_class ?? null,
      airline: b.airline ?? null,
      gds_provider: b.gds_provider ?? null,
      min_fare: b.min_fare ?? null,
      max_fare: b.max_fare ?? null,
      priority: b.priority ?? 0,
      is_active: b.is_active ?? true,
      description: b.description ?? null,
      created_by: ctx.auth?.userId ?? null,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await writeAudit(trx, ctx, {
    entity: 'markup_rule',
    entityId: r.id,
    action: 'created',
    changes: { ...b, company_id: companyId },
    companyId,
  });
  return ruleView(r);
}

/** `companyId` set: the rule must belong to that company, else it does not exist for the caller. */
async function findRule(trx: Db, id: number, companyId: number | undefined) {
  let q = markupDb(trx)
    .selectFrom('markup_rules')
    .selectAll()
    .where('id', '=', id)
    .where('deleted_at', 'is', null);
  if (companyId !== undefined) q = q.where('company_id', '=', companyId);
  const r = await q.forUpdate().executeTakeFirst();
  if (!r) throw notFound('rule_not_found', 'Markup rule not found.');
  return r;
}

export async function updateRule(
  ctx: RequestContext,
  trx: Db,
  id: number,
  companyId: number | undefined,
  b: RulePatch,
  now: Date,
) {
  // The fare range is not among the changes (UpdateMarkupRuleRequest): it stays as created.
  const r = await findRule(trx, id, companyId);
  const u = await markupDb(trx)
    .updateTable('markup_rules')
    .set({ ...b, updated_at: now })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await writeAudit(trx, ctx, {
    entity: 'markup_rule',
    entityId: id,
    action: 'updated',
    changes: { ...b },
    companyId: r.company_id,
  });
  return ruleView(u);
}

export async function deleteRule(
  ctx: RequestContext,
  trx: Db,
  id: number,
  companyId: number | undefined,
  now: Date,
) {
  const r = await findRule(trx, id, companyId);
  await markupDb(trx)
    .updateTable('markup_rules')
    .set({ deleted_at: now, is_active: false, updated_at: now })
    .where('id', '=', id)
    .execute();
  await writeAudit(trx, ctx, {
    entity: 'markup_rule',
    entityId: id,
    action: 'deleted',
    companyId: r.company_id,
  });
  return { id, deleted: true as const };
}
