/** Company: the company's own markup rules. company_id is always the caller's (a foreign one is 403 in the kernel). */
import type { Routes } from '../../kernel/types.ts';
import { type AccountsDeps, ok, paging } from '../accounts/index.ts';
import { createRule, deleteRule, listRules, updateRule } from '../markup/index.ts';
import { ownCompany } from './clients.ts';

export function companyMarkupRoutes(d: AccountsDeps): Routes {
  const { db, clock } = d;
  return {
    companyListMarkupRules: async (ctx) =>
      ok(await listRules(db, paging(ctx), { companyId: ownCompany(ctx) })),
    companyCreateMarkupRule: async (ctx) => {
      const cid = ownCompany(ctx);
      const { company_id: _ignored, ...b } = ctx.body;
      return ctx.transaction(async (trx) => ok(await createRule(ctx, trx, cid, b, clock.now()), 201));
    },
    companyUpdateMarkupRule: async (ctx) => {
      const cid = ownCompany(ctx);
      return ctx.transaction(async (trx) =>
        ok(await updateRule(ctx, trx, ctx.params.rule_id, cid, ctx.body, clock.now())),
      );
    },
    companyDeleteMarkupRule: async (ctx) => {
      const cid = ownCompany(ctx);
      return ctx.transaction(async (trx) =>
        ok(await deleteRule(ctx, trx, ctx.params.rule_id, cid, clock.now())),
      );
    },
  };
}
