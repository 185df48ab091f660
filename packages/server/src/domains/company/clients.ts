/** Company: clients (the agency's customers). A client's bookings are those whose contact email is theirs. */
import { sql } from 'kysely';
import { writeAudit } from '../../audit/audit-log.ts';
import { toMinor } from '../../internal/money.ts';
import { badRequest } from '../../kernel/errors.ts';
import { tenantCompanyId } from '../../kernel/tenant.ts';
import type { RequestContext, Routes } from '../../kernel/types.ts';
import {
  type AccountsDeps,
  accountsDb,
  clientView,
  currencyOf,
  findClient,
  ok,
  pageBody,
  paging,
} from '../accounts/index.ts';
import { keysetBody, listBookings } from '../flight-booking/index.ts';

/** Company surfaces always act for the caller's own company (x-roles excludes super_admin). */
export const ownCompany = (ctx: RequestContext): number => tenantCompanyId(ctx) as number;

export function companyClientRoutes(d: AccountsDeps): Routes {
  const { db, clock } = d;
  return {
    companyListClients: async (ctx) => {
      const cid = ownCompany(ctx);
      const p = paging(ctx);
      let q = accountsDb(db).selectFrom('clients').where('company_id', '=', cid);
      if (ctx.query.client_type) q = q.where('client_type', '=', ctx.query.client_type);
      if (ctx.query.search) {
        const like = `%${String(ctx.query.search).toLowerCase()}%`;
        q = q.where((eb) =>
          eb.or([
            eb(sql`lower(full_name)`, 'like', like),
            eb(sql`lower(email)`, 'like', like),
            eb(sql`lower(coalesce(company_name, ''))`, 'like', like),
          ]),
        );
      }
      const { n } = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      const rows = await q
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(p.page_size)
        .offset(p.offset)
        .execute();
      const cur = await currencyOf(db, cid);
      return ok(
        pageBody(
          rows.map((r) => clientView(r, cur)),
          n,
          p,
        ),
      );
    },

    companyCreateClient: async (ctx) => {
      const cid = ownCompany(ctx);
      const b = ctx.body;
      return ctx.transaction(async (trx) => {
        const cur = await currencyOf(trx, cid);
        const dup = await accountsDb(trx)
          .selectFrom('clients')
          .select('id')
          .where('company_id', '=', cid)
          .where(sql`lower(email)`, '=', b.email.toLowerCase())
          .executeTakeFirst();
        if (dup) throw badRequest('client_email_taken', 'A client with this email already exists.');
        const now = clock.now();
        const r = await accountsDb(trx)
          .insertInto('clients')
          .values({
            company_id: cid,
            email: b.email,
            full_name: b.full_name,
            client_type: b.client_type ?? 'traveler',
            phone: b.phone ?? null,
            company_name: b.company_name ?? null,
            credit_limit_minor: b.credit_limit === undefined ? null : toMinor(b.credit_limit, cur),
            notes: b.notes ?? null,
            created_at: now,
            updated_at: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await writeAudit(trx, ctx, { entity: 'client', entityId: r.id, action: 'created', companyId: cid });
        return ok(clientView(r, cur), 201);
      });
    },

    companyGetClient: async (ctx) => {
      const cid = ownCompany(ctx);
      return ok(clientView(await findClient(db, cid, ctx.params.client_id), await currencyOf(db, cid)));
    },

    companyUpdateClient: async (ctx) => {
      const cid = ownCompany(ctx);
      const b = ctx.body;
      return ctx.transaction(async (trx) => {
        const c = await findClient(trx, cid, ctx.params.client_id);
        const cur = await currencyOf(trx, cid);
        const { credit_limit, ...rest } = b;
        const r = await accountsDb(trx)
          .updateTable('clients')
          .set({
            ...rest,
            ...(credit_limit === undefined ? {} : { credit_limit_minor: toMinor(credit_limit, cur) }),
            updated_at: clock.now(),
          })
          .where('id', '=', c.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        await writeAudit(trx, ctx, {
          entity: 'client',
          entityId: c.id,
          action: 'updated',
          changes: { ...b },
          companyId: cid,
        });
        return ok(clientView(r, cur));
      });
    },

    companyListClientBookings: async (ctx) => {
      const cid = ownCompany(ctx);
      const c = await findClient(db, cid, ctx.params.client_id);
      const p = paging(ctx);
      const r = await listBookings(db, {
        page: p.page,
        page_size: p.page_size,
        company_id: cid,
        contact_email: c.email,
        ...(ctx.query.starting_after ? { starting_after: ctx.query.starting_after } : {}),
      });
      return ok(keysetBody(r, p));
    },
  };
}
