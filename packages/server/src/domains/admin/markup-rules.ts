/** Admin: markup rules of every scope, and the calculate preview through the same engine as search. */
import { toMinor } from '../../internal/money.ts';
import type { Routes } from '../../kernel/types.ts';
import { type AccountsDeps, loadCompany, ok, paging } from '../accounts/index.ts';
import {
  applyMarkup,
  createRule,
  deleteRule,
  listRules,
  loadMarkupRules,
  updateRule,
} from '../markup/index.ts';

export function adminMarkupRoutes(d: AccountsDeps): Routes {
  const { db, clock } = d;
  return {
    adminListMarkupRules: async (ctx) =>
      ok(
        await listRules(db, paging(ctx), {
          ...(ctx.query.company_id !== undefined ? { companyId: ctx.query.company_id } : {}),
          ...(ctx.query.is_active !== undefined ? { isActive: ctx.query.is_active } : {}),
        }),
      ),
    adminCreateMarkupRule: async (ctx) => {
      const b = ctx.body;
      return ctx.transaction(async (trx) => {
        if (b.company_id != null) await loadCompany(trx, b.company_id);
        const { company_id, ...rest } = b;
        return ok(await createRule(ctx, trx, company_id ?? null, rest, clock.now()), 201);
      });
    },
    adminUpdateMarkupRule: (ctx) =>
      ctx.transaction(async (trx) =>
        ok(await updateRule(ctx, trx, ctx.params.rule_id, undefined, ctx.body, clock.now())),
      ),
    adminDeleteMarkupRule: (ctx) =>
      ctx.transaction(async (trx) =>
        ok(await deleteRule(ctx, trx, ctx.params.rule_id, undefined, clock.now())),
      ),

    adminCalculateMarkup: async (ctx) => {
      const q = ctx.query;
      const currency = q.currency ?? 'USD';
      const companyId = q.company_id ?? null;
      const base = toMinor(Number(q.base_price), currency);
      const rules = await loadMarkupRules(db, companyId);
      const r = applyMarkup(rules, {
        company_id: companyId,
        base_total_minor: base,
        currency,
        origin: q.origin ?? null,
        destination: q.destination ?? null,
        cabin_class: q.cabin_class ?? null,
        airline: q.airline ?? null,
        gds_provider: q.gds_provider ?? null,
        // The preview prices one passenger on one segment; per_pax/per_segment rules show their unit amount.
        pax_count: 1,
        segment_count: 1,
      });
      return ok({
        currency,
        base_minor: base,
        markup_minor: r.markup_minor,
        total_minor: Math.max(0, base + r.markup_minor),
        applied_rule_ids: r.applied_rule_ids.map(Number),
        breakdown: r.breakdown.map((x) => ({ ...x, rule_id: Number(x.rule_id) })),
      });
    },
  };
}
