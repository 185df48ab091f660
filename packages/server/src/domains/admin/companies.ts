/** Admin: companies. Suspension and deletion block every user of the company (the kernel reads status). */
import { sql } from 'kysely';
import { writeAudit } from '../../audit/audit-log.ts';
import { toMinor } from '../../internal/money.ts';
import { badRequest } from '../../kernel/errors.ts';
import type { OperationContext, Routes } from '../../kernel/types.ts';
import { columns, keysetBody, keysetList, likeContains, type SortKey } from '../../storage/keyset-list.ts';
import { json } from '../../storage/schema.ts';
import {
  type AccountsDeps,
  accountsDb,
  companyView,
  companyWithProfile,
  loadCompany,
  ok,
  paging,
} from '../accounts/index.ts';

/** The sort keys (indexes of migration 0230), each ending in the id; status sorts newest first within. */
/** Verbatim the expression of the trigram index companies_list_search (0230), on alias `t`. */
export const COMPANY_SEARCH = sql`lower(t.company_name || ' ' || t.company_code || ' ' || t.contact_email)`;

const COMPANY_KEYS: Record<string, SortKey> = {
  created_at: columns('created_at', 'id'),
  company_name: columns('company_name', 'id'),
  company_code: columns('company_code', 'id'),
  status: columns('status', 'created_at', 'id'),
};

export function adminCompanyRoutes(d: AccountsDeps): Routes {
  const { db, clock } = d;

  const setStatus = async (
    ctx: OperationContext<'adminDeleteCompany' | 'adminActivateCompany' | 'adminSuspendCompany'>,
    to: 'active' | 'suspended' | 'deleted',
    allowedFrom: string[],
    action: string,
  ) => {
    const id = ctx.params.company_id;
    const reason = ctx.body?.reason ?? null;
    const res = await ctx.transaction(async (trx) => {
      const c = await loadCompany(trx, id, true);
      if (!allowedFrom.includes(c.status)) {
        throw badRequest('invalid_company_state', `A company in status ${c.status} cannot be ${action}.`);
      }
      await trx
        .updateTable('companies')
        .set({ status: to, updated_at: clock.now() })
        .where('id', '=', id)
        .execute();
      await writeAudit(trx, ctx, {
        entity: 'company',
        entityId: id,
        action,
        reason,
        changes: { from: c.status, to },
        companyId: id,
      });
      return ok(await companyWithProfile(trx, id));
    });
    // Every user of the company is affected: drop cached standings so the change applies at once here.
    d.principals.invalidate();
    return res;
  };

  return {
    adminListCompanies: async (ctx) => {
      const p = paging(ctx);
      const q0 = ctx.query;
      let q = db.selectFrom('companies as t');
      if (q0.status) q = q.where('t.status', '=', q0.status as 'active');
      if (q0.company_type) q = q.where('t.company_type', '=', q0.company_type as string);
      if (q0.search) {
        q = q.where(COMPANY_SEARCH, 'like', likeContains(String(q0.search)));
      }
      const r = await keysetList(
        db,
        {
          matches: q,
          table: 'companies',
          alias: 't',
          key: COMPANY_KEYS[String(q0.sort_by)] ?? (COMPANY_KEYS.created_at as SortKey),
          desc: q0.sort_order !== 'asc',
          page: p.page,
          page_size: p.page_size,
          ...(q0.starting_after ? { starting_after: q0.starting_after } : {}),
        },
        (rows) => rows.selectAll('t'),
      );
      const rows = r.items;
      const profiles = rows.length
        ? await accountsDb(db)
            .selectFrom('company_profiles')
            .selectAll()
            .where(
              'company_id',
              'in',
              rows.map((r) => r.id),
            )
            .execute()
        : [];
      const byId = new Map(profiles.map((x) => [x.company_id, x]));
      return ok(
        keysetBody(
          rows.map((c) => companyView(c, byId.get(c.id))),
          r,
          p,
        ),
      );
    },

    adminCreateCompany: async (ctx) => {
      const b = ctx.body;
      const currency = b.currency ?? 'USD';
      return ctx.transaction(async (trx) => {
        const taken = await trx
          .selectFrom('companies')
          .select('id')
          .where(sql`lower(company_code)`, '=', b.company_code.toLowerCase())
          .executeTakeFirst();
        if (taken) throw badRequest('company_code_taken', `The company code ${b.company_code} is taken.`);
        if (b.parent_company_id !== undefined) {
          const parent = await trx
            .selectFrom('companies')
            .select('status')
            .where('id', '=', b.parent_company_id)
            .executeTakeFirst();
          if (!parent || parent.status === 'deleted')
            throw badRequest('invalid_parent_company', 'The parent company does not exist.');
        }
        const now = clock.now();
        const c = await trx
          .insertInto('companies')
          .values({
            company_name: b.company_name,
            company_code: b.company_code,
            contact_email: b.contact_email,
            company_type: b.company_type ?? 'travel_agency',
            contact_phone: b.contact_phone ?? null,
            currency,
            credit_limit_minor: toMinor(b.credit_limit ?? 0, currency),
            address: b.address ? json(b.address) : null,
            parent_company_id: b.parent_company_id ?? null,
            settings: json(b.settings ?? {}),
            created_at: now,
            updated_at: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await writeAudit(trx, ctx, {
          entity: 'company',
          entityId: c.id,
          action: 'created',
          changes: { company_code: c.company_code },
          companyId: c.id,
        });
        return ok(companyView(c, null), 201);
      });
    },

    adminGetCompany: async (ctx) => ok(await companyWithProfile(db, ctx.params.company_id)),

    adminUpdateCompany: async (ctx) => {
      const id = ctx.params.company_id;
      const b = ctx.body;
      return ctx.transaction(async (trx) => {
        const c = await loadCompany(trx, id, true);
        const currency = b.currency ?? c.currency.trim();
        const set: Record<string, unknown> = { updated_at: clock.now() };
        for (const k of ['company_name', 'contact_email', 'contact_phone', 'currency'] as const)
          if (b[k] !== undefined) set[k] = b[k];
        if (b.credit_limit !== undefined) set.credit_limit_minor = toMinor(b.credit_limit, currency);
        if (b.address !== undefined) set.address = json(b.address);
        if (b.settings !== undefined)
          set.settings = json({ ...(c.settings as object), ...(b.settings as object) });
        await trx.updateTable('companies').set(set).where('id', '=', id).execute();
        const changes = { ...b };
        await writeAudit(trx, ctx, {
          entity: 'company',
          entityId: id,
          action: 'updated',
          changes,
          companyId: id,
        });
        return ok(await companyWithProfile(trx, id));
      });
    },

    adminDeleteCompany: async (ctx) => {
      const id = ctx.params.company_id;
      await setStatus(ctx, 'deleted', ['active', 'suspended', 'deleted'], 'deleted');
      return ok({ id, deleted: true as const });
    },
    adminActivateCompany: (ctx) => setStatus(ctx, 'active', ['suspended'], 'activated'),
    adminSuspendCompany: (ctx) => setStatus(ctx, 'suspended', ['active'], 'suspended'),
  };
}
