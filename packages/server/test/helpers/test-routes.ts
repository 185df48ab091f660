import { type Generated, sql } from 'kysely';
import type { SharedServices } from '../../src/app.ts';
import { writeAudit } from '../../src/audit/audit-log.ts';
import { badRequest } from '../../src/kernel/errors.ts';
import { ownedOrNotFound, tenantCompanyId } from '../../src/kernel/tenant.ts';
import type { HandlerTable, SseMessage } from '../../src/kernel/types.ts';
import type { Db } from '../../src/storage/schema.ts';

// A `type`, not an `interface`: Kysely's withTables<T> needs T to have an implicit index signature.
type WidgetTables = {
  widgets: { id: Generated<number>; name: string; company_id: number | null; user_id: string | null };
};

export async function createWidgetTable(db: Db) {
  await sql`create table if not exists widgets (id serial primary key, name text not null, company_id integer, user_id text)`.execute(
    db,
  );
}

/** Handlers for the fixture contract's test operations, written the way a domain writes them. */
export function testRoutes(
  s: SharedServices,
  hooks: { gate?: Promise<void>; streamItems?: number } = {},
): HandlerTable {
  return {
    createWidget: async (ctx) => {
      const body = ctx.body as { name: string; fail?: string };
      if (body.fail === 'bad') throw badRequest('validation_error', 'No.');
      if (hooks.gate) await hooks.gate;
      return ctx.transaction(async (trx) => {
        const w = await trx
          .withTables<WidgetTables>()
          .insertInto('widgets')
          .values({
            name: body.name,
            company_id: ctx.auth?.companyId ?? null,
            user_id: ctx.auth?.userId ?? null,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await writeAudit(trx, ctx, { entity: 'widget', entityId: w.id, action: 'created', reason: 'test' });
        if (body.fail === 'crash') throw new Error('database exploded: password=hunter2');
        if (body.fail === 'pending') {
          return {
            status: 502,
            body: { detail: 'pending', code: 'booking_pending', request_id: ctx.requestId, booking_id: w.id },
          };
        }
        return { status: 201, body: w };
      });
    },
    listWidgets: async (ctx) => {
      const cid = tenantCompanyId(ctx);
      let q = s.db.withTables<WidgetTables>().selectFrom('widgets').selectAll();
      if (cid !== null) q = q.where('company_id', '=', cid);
      return { status: 200, body: await q.execute() };
    },
    getWidget: async (ctx) => {
      const row = await s.db
        .withTables<WidgetTables>()
        .selectFrom('widgets')
        .selectAll()
        .where('id', '=', ctx.params.widget_id as number)
        .executeTakeFirst();
      return { status: 200, body: ownedOrNotFound(ctx, row, { what: 'Widget' }) };
    },
    createOrder: async (ctx) => ({ status: 201, body: { ok: true, body: ctx.body } }),
    getItem: async (ctx) => ({
      status: 200,
      body: { params: ctx.params, query: ctx.query, trace: ctx.headers['x-trace'] ?? null },
    }),
    adminOnly: async () => ({ status: 200, body: { ok: true } }),
    startTestSearch: async () => ({ status: 202, body: { search_id: 's1' } }),
    boom: async () => {
      throw new Error('secret stack detail');
    },
    streamThings: async (ctx) => {
      const n = hooks.streamItems ?? 3;
      async function* gen(): AsyncGenerator<SseMessage> {
        for (let i = 1; i <= n; i++) {
          yield { id: String(i), event: 'item', data: { i } };
          await new Promise((r) => setTimeout(r, 20));
          if (ctx.signal.aborted) return;
        }
        if (n < 1000) yield { event: 'done', data: { status: 'completed' } };
      }
      return { status: 200, sse: gen() };
    },
  };
}
