/**
 * Admin: users. Role, status and company changes are audited and take effect at once (the cached
 * standing is dropped). Impersonation issues a normal access token carrying the impersonator, so every
 * later action is audited with both identities (the audit writer reads `impersonatorId`).
 */
import { sql } from 'kysely';
import { writeAudit } from '../../audit/audit-log.ts';
import { badRequest, notFound } from '../../kernel/errors.ts';
import type { RequestContext, Role, Routes } from '../../kernel/types.ts';
import { columns, keysetBody, keysetList, likeContains, type SortKey } from '../../storage/keyset-list.ts';
import { type AccountsDeps, loadUser, ok, paging, userWithCompany } from '../accounts/index.ts';
import { userView } from '../auth/index.ts';

/**
 * The sort keys (indexes of migration 0230), each ending in the id. A user who never logged in sorts as
 * the oldest login: last when newest first, first when oldest first.
 */
/** Verbatim the expression of the trigram index users_list_search (0230), on alias `t`. */
export const USER_SEARCH = sql`lower(t.email || ' ' || t.full_name)`;

const USER_KEYS: Record<string, SortKey> = {
  created_at: columns('created_at', 'id'),
  email: columns('email', 'id'),
  full_name: columns('full_name', 'id'),
  last_login_at: (a) => [
    sql`coalesce(${sql.ref(`${a}.last_login_at`)}, '-infinity'::timestamptz)`,
    sql.ref(`${a}.id`),
  ],
};
const COMPANY_ROLES = new Set(['company_admin', 'company_staff']);
/** Impersonation tokens are short-lived: 15 minutes at most. */
const IMPERSONATION_TTL_SECONDS = 15 * 60;

export function adminUserRoutes(d: AccountsDeps): Routes {
  const { db, clock, tokens, principals } = d;

  return {
    adminListUsers: async (ctx) => {
      const p = paging(ctx);
      const q0 = ctx.query;
      let q = db.selectFrom('users as t').leftJoin('companies as c', 'c.id', 't.company_id');
      if (q0.status) q = q.where('t.status', '=', q0.status as 'active');
      if (q0.role) q = q.where('t.role', '=', q0.role);
      if (q0.company_id !== undefined) q = q.where('t.company_id', '=', q0.company_id as number);
      if (q0.is_active !== undefined) q = q.where('t.is_active', '=', q0.is_active as boolean);
      if (q0.search) {
        q = q.where(USER_SEARCH, 'like', likeContains(String(q0.search)));
      }
      const r = await keysetList(
        db,
        {
          matches: q,
          table: 'users',
          alias: 't',
          key: USER_KEYS[String(q0.sort_by)] ?? (USER_KEYS.created_at as SortKey),
          desc: q0.sort_order !== 'asc',
          page: p.page,
          page_size: p.page_size,
          ...(q0.starting_after ? { starting_after: q0.starting_after } : {}),
        },
        (rows) => rows.selectAll('t').select('c.company_code'),
      );
      return ok(
        keysetBody(
          r.items.map((u) => userView(u, u.company_code ?? null)),
          r,
          p,
        ),
      );
    },

    adminGetUser: async (ctx) => ok(await userWithCompany(db, String(ctx.params.user_id))),

    adminUpdateUser: async (ctx) => {
      const id = String(ctx.params.user_id);
      const b = ctx.body;
      const res = await ctx.transaction(async (trx) => {
        const u = await loadUser(trx, id, true);
        if (
          id === ctx.auth?.userId &&
          (b.role !== undefined ||
            b.status !== undefined ||
            b.is_active !== undefined ||
            b.company_id !== undefined)
        ) {
          throw badRequest('cannot_modify_self', 'You cannot change your own role, status or company.');
        }
        if (b.company_id !== undefined) {
          const c = await trx
            .selectFrom('companies')
            .select('status')
            .where('id', '=', b.company_id)
            .executeTakeFirst();
          if (!c || c.status === 'deleted') throw notFound('company_not_found', 'Company not found.');
        }
        const role = b.role ?? u.role;
        const companyId = b.company_id ?? u.company_id;
        if (COMPANY_ROLES.has(role) && companyId === null)
          throw badRequest('company_required', `The role ${role} needs a company.`);
        const set: Record<string, unknown> = { updated_at: clock.now() };
        const changes: Record<string, unknown> = {};
        for (const k of [
          'full_name',
          'role',
          'status',
          'company_id',
          'is_active',
          'phone',
          'department',
        ] as const) {
          if (b[k] !== undefined && b[k] !== u[k]) {
            set[k] = b[k];
            changes[k] = { from: u[k], to: b[k] };
          }
        }
        // Re-activation clears a suspension and its reason.
        if (b.status === 'active') Object.assign(set, { suspended_until: null, status_reason: null });
        if (b.role === 'super_admin') set.company_id = null;
        await trx.updateTable('users').set(set).where('id', '=', id).execute();
        const action = changes.role
          ? 'role_changed'
          : changes.status || changes.is_active
            ? 'status_changed'
            : 'updated';
        await writeAudit(trx, ctx, { entity: 'user', entityId: id, action, changes, companyId });
        return ok(await userWithCompany(trx, id));
      });
      principals.invalidate(id);
      return res;
    },

    adminImpersonateUser: async (ctx) => {
      const id = String(ctx.params.user_id);
      const reason = ctx.body.reason;
      const admin = ctx.auth as NonNullable<RequestContext['auth']>;
      return ctx.transaction(async (trx) => {
        const u = await loadUser(trx, id);
        if (id === admin.userId || u.role === 'super_admin')
          throw badRequest('cannot_impersonate', 'A super_admin cannot be impersonated.');
        if (admin.impersonatorId)
          throw badRequest(
            'cannot_impersonate',
            'An impersonation token cannot start another impersonation.',
          );
        if (u.status !== 'active' || !u.is_active)
          throw badRequest(
            'cannot_impersonate',
            `The user is ${u.status}; only active users can be impersonated.`,
          );
        // Short-lived: at most 15 minutes, never longer than an ordinary access token.
        const ttl = Math.min(IMPERSONATION_TTL_SECONDS, tokens.accessTokenTtl());
        const token = await tokens.signAccess(
          {
            userId: u.id,
            email: u.email,
            role: u.role as Role,
            companyId: u.company_id,
            impersonatorId: admin.userId,
          },
          ttl,
        );
        await writeAudit(trx, ctx, {
          entity: 'user',
          entityId: id,
          action: 'impersonated',
          reason,
          changes: { impersonator_id: admin.userId, expires_in: ttl },
          companyId: u.company_id,
        });
        return ok({
          access_token: token,
          token_type: 'bearer' as const,
          expires_in: ttl,
          user: await userWithCompany(trx, id),
          impersonator_id: admin.userId,
        });
      });
    },

    adminSuspendUser: async (ctx) => {
      const id = String(ctx.params.user_id);
      const b = ctx.body;
      if (id === ctx.auth?.userId) throw badRequest('cannot_suspend_self', 'You cannot suspend yourself.');
      const res = await ctx.transaction(async (trx) => {
        const u = await loadUser(trx, id, true);
        const now = clock.now();
        const until =
          b.duration_hours === undefined ? null : new Date(now.getTime() + b.duration_hours * 3_600_000);
        await trx
          .updateTable('users')
          .set({ status: 'suspended', suspended_until: until, status_reason: b.reason, updated_at: now })
          .where('id', '=', id)
          .execute();
        await writeAudit(trx, ctx, {
          entity: 'user',
          entityId: id,
          action: 'suspended',
          reason: b.reason,
          changes: { from: u.status, to: 'suspended', suspended_until: until?.toISOString() ?? null },
          companyId: u.company_id,
        });
        return ok(await userWithCompany(trx, id));
      });
      principals.invalidate(id);
      return res;
    },
  };
}
