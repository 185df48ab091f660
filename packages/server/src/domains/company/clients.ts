/** Company: clients (the agency's customers). A client's bookings are those whose contact email is theirs. */
import { sql } from 'kysely';
import { writeAudit } from '../../audit/audit-log.ts';
import { fromMinor, toMinor } from '../../internal/money.ts';
import { badRequest, notFound } from '../../kernel/errors.ts';
import { tenantCompanyId } from '../../kernel/tenant.ts';
import type { RequestContext, Routes } from '../../kernel/types.ts';
import type { Db } from '../../storage/schema.ts';
import type { AccountsDeps } from '../admin/deps.ts';
import { iso, ok, pageBody, paging } from '../admin/http.ts';
import { accountsDb } from '../admin/tables.ts';
import { toRow } from '../booking/store.ts';
import { bookingView } from '../booking/view.ts';

/** Company surfaces always act for the caller's own company (x-roles excludes super_admin). */
export const ownCompany = (ctx: RequestContext): number => tenantCompanyId(ctx) as number;

async function currencyOf(db: Db, companyId: number) {
  const c = await db
    .selectFrom('companies')
    .select('currency')
    .where('id', '=', companyId)
    .executeTakeFirstOrThrow();
  return c.currency.trim();
}

type ClientRow = Awaited<ReturnType<typeof findClient>>;

function clientView(r: ClientRow, currency: string) {
  return {
    client_id: r.id,
    company_id: r.company_id,
    email: r.email,
    full_name: r.full_name,
    client_type: r.client_type,
    phone: r.phone,
    company_name: r.company_name,
    credit_limit: r.credit_limit_minor === null ? null : fromMinor(Number(r.credit_limit_minor), currency),
    notes: r.notes,
    is_active: r.is_active,
    created_at: iso(r.created_at) as string,
    updated_at: iso(r.updated_at) as string,
  };
}

/** Another company's client is exactly a missing one. */
async function findClient(db: Db, companyId: number, id: number) {
  const r = await accountsDb(db)
    .selectFrom('clients')
    .selectAll()
    .where('id', '=', id)
    .where('company_id', '=', companyId)
    .executeTakeFirst();
  if (!r) throw notFound('client_not_found', 'Client not found.');
  return r;
}

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
      const q = accountsDb(db)
        .selectFrom('flight_bookings')
        .where('company_id', '=', cid)
        .where(sql`lower(contact->>'email')`, '=', c.email.toLowerCase());
      const { n } = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      const rows = await q
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(p.page_size)
        .offset(p.offset)
        .execute();
      const items = rows.map((r) => bookingView(toRow(r as never)));
      return ok(pageBody(items, n, p));
    },
  };
}
