/** Company: clients (the agency's customers). A client's bookings are those whose contact email is theirs. */
import { sql } from 'kysely';
import { writeAudit } from '../../audit/audit-log.ts';
import { toMinor } from '../../internal/money.ts';
import { badRequest } from '../../kernel/errors.ts';
import { tenantCompanyId } from '../../kernel/tenant.ts';
import type { RequestContext, Routes } from '../../kernel/types.ts';
import { columns, keysetBody, keysetList, likeContains } from '../../storage/keyset-list.ts';
import {
  type AccountsDeps,
  accountsDb,
  clientView,
  currencyOf,
  findClient,
  ok,
  paging,
} from '../accounts/index.ts';
import { keysetBody as bookingPage, listBookings } from '../flight-booking/index.ts';

/** Company surfaces always act for the caller's own company (x-roles excludes super_admin). */
export const ownCompany = (ctx: RequestContext): number => tenantCompanyId(ctx) as number;

/** Verbatim the expression of the trigram index clients_list_search (0230), on alias `t`. */
export const CLIENT_SEARCH = sql`lower(t.full_name || ' ' || t.email || ' ' || coalesce(t.company_name, ''))`;

export function companyClientRoutes(d: AccountsDeps): Routes {
  const { db, clock } = d;
  return {
    companyListClients: async (ctx) => {
      const cid = ownCompany(ctx);
      const p = paging(ctx);
      // Newest first, keyset on (created_at, id), indexes of migration 0230.
      let q = accountsDb(db).selectFrom('clients as t').where('t.company_id', '=', cid);
      if (ctx.query.client_type) q = q.where('t.client_type', '=', ctx.query.client_type);
      if (ctx.query.search) {
        q = q.where(CLIENT_SEARCH, 'like', likeContains(String(ctx.query.search)));
      }
      const r = await keysetList(
        db,
        {
          matches: q,
          table: 'clients',
          alias: 't',
          key: columns('created_at', 'id'),
          desc: true,
          page: p.page,
          page_size: p.page_size,
          ...(ctx.query.starting_after ? { starting_after: ctx.query.starting_after } : {}),
          scope: [sql`cur.company_id = ${cid}`],
        },
        (rows) => rows.selectAll('t'),
      );
      const cur = await currencyOf(db, cid);
      return ok(
        keysetBody(
          r.items.map((c) => clientView(c, cur)),
          r,
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
      return ok(bookingPage(r, p));
    },
  };
}
