/**
 * Company: staff (company_admin). Staff are the company's users with a company role; `company_staff`
 * gives each an integer id and holds permissions, and also records invitations not yet accepted
 * (status `pending`, user_id empty until the invitee registers with the code from the mail).
 */
import { sql } from 'kysely';
import { writeAudit } from '../../audit/audit-log.ts';
import { badRequest } from '../../kernel/errors.ts';
import type { OperationContext, Routes } from '../../kernel/types.ts';
import { json } from '../../storage/schema.ts';
import {
  type AccountsDeps,
  accountsDb,
  findStaff,
  guardLastAdmin,
  ok,
  pageBody,
  paging,
  staffQuery,
  staffView,
  syncStaff,
} from '../accounts/index.ts';
import { createInvitation } from '../auth/index.ts';
import { ownCompany } from './clients.ts';

/** How long an invitation lasts (`createInvitation`'s default). */
const INVITATION_TTL_HOURS = 72;

export function companyStaffRoutes(d: AccountsDeps): Routes {
  const { db, clock, mailer, config, principals } = d;

  const invite = async (ctx: OperationContext<'companyInviteStaff'>) => {
    const cid = ownCompany(ctx);
    const b = ctx.body;
    const role = b.role ?? 'company_staff';
    const email = b.email.trim().toLowerCase();
    return ctx.transaction(async (trx) => {
      const existing = await trx
        .selectFrom('users')
        .select(['id', 'company_id'])
        .where(sql`lower(email)`, '=', email)
        .executeTakeFirst();
      // Only this company's own members are named as such: an account elsewhere (another company, a
      // traveller) gets the answer a new address gets, so the call reveals nothing beyond the tenant.
      if (existing && existing.company_id === cid)
        throw badRequest(
          'email_already_registered',
          'This address already belongs to a member of your company.',
        );
      const company = await trx
        .selectFrom('companies')
        .select(['company_name', 'company_code'])
        .where('id', '=', cid)
        .executeTakeFirstOrThrow();
      const invitation = existing
        ? undefined
        : // The invitation grants exactly this role in this company (the auth domain enforces it at registration).
          await createInvitation(
            trx,
            {
              email,
              role,
              companyId: cid,
              invitedBy: ctx.auth?.userId ?? null,
              fullName: b.full_name,
              ttlHours: INVITATION_TTL_HOURS,
            },
            clock,
          );
      const expiresAt =
        invitation?.expiresAt ?? new Date(clock.now().getTime() + INVITATION_TTL_HOURS * 3600_000);
      const now = clock.now();
      const values = {
        permissions: json(b.permissions ?? []),
        invited_at: now,
        invited_by: ctx.auth?.userId ?? null,
        invite_role: role,
        invite_full_name: b.full_name,
        invite_department: b.department ?? null,
        invite_phone: b.phone ?? null,
      };
      const row = await accountsDb(trx)
        .insertInto('company_staff')
        .values({ company_id: cid, email, ...values })
        .onConflict((oc) => oc.expression(sql`company_id, lower(email)`).doUpdateSet(values))
        .returning('id')
        .executeTakeFirstOrThrow();
      if (invitation) {
        const { code } = invitation;
        const link = `${config.publicBaseUrl}/join?invite_code=${encodeURIComponent(code)}&email=${encodeURIComponent(email)}`;
        await mailer.send({
          to: email,
          subject: `You are invited to join ${company.company_name}`,
          text:
            `Hello ${b.full_name},\n\nYou have been invited to join ${company.company_name} (${company.company_code}) as ${role}.\n\n` +
            `Join by opening this link:\n\n${link}\n\nor register at POST /api/v1/auth/register with invite_code ${code}.\n\n` +
            `The invitation expires on ${expiresAt.toISOString()}.\n`,
        });
      } else {
        // The address's owner learns of it; the inviting company does not learn the account exists.
        await mailer.send({
          to: email,
          subject: `You are invited to join ${company.company_name}`,
          text:
            `Hello,\n\n${company.company_name} (${company.company_code}) invited this address to join them as ${role}, ` +
            `but it already has an account here, and an account belongs to one company at most.\n\n` +
            `If you want to join them, ask them to invite another address. If you did not expect this, ignore this mail.\n`,
        });
      }
      await writeAudit(trx, ctx, {
        entity: 'staff',
        entityId: row.id,
        action: 'invited',
        changes: { email, role },
        companyId: cid,
      });
      return ok(
        {
          staff: staffView(await findStaff(trx, cid, row.id)),
          invitation_sent: true,
          expires_at: expiresAt.toISOString(),
        },
        201,
      );
    });
  };

  return {
    companyListStaff: async (ctx) => {
      const cid = ownCompany(ctx);
      const p = paging(ctx);
      await syncStaff(db, cid);
      const { n } = await accountsDb(db)
        .selectFrom('company_staff')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('company_id', '=', cid)
        .executeTakeFirstOrThrow();
      const rows = await staffQuery(db, cid).orderBy('s.id').limit(p.page_size).offset(p.offset).execute();
      return ok(pageBody(rows.map(staffView), n, p));
    },

    companyInviteStaff: invite,

    companyUpdateStaff: async (ctx) => {
      const cid = ownCompany(ctx);
      const b = ctx.body;
      const res = await ctx.transaction(async (trx) => {
        await syncStaff(trx, cid);
        const s = await findStaff(trx, cid, ctx.params.staff_id);
        if ((b.role === 'company_staff' || b.is_active === false) && s.user_id)
          await guardLastAdmin(trx, cid, s);
        if (s.user_id && s.user_id === ctx.auth?.userId && (b.role !== undefined || b.is_active === false)) {
          throw badRequest(
            'cannot_demote_last_admin',
            'You cannot change your own role or deactivate yourself.',
          );
        }
        if (b.permissions)
          await accountsDb(trx)
            .updateTable('company_staff')
            .set({ permissions: json(b.permissions) })
            .where('id', '=', s.id)
            .execute();
        if (s.user_id) {
          const set: Record<string, unknown> = {};
          if (b.role) set.role = b.role;
          if (b.department !== undefined) set.department = b.department;
          if (b.phone !== undefined) set.phone = b.phone;
          if (b.is_active !== undefined) {
            set.is_active = b.is_active;
            set.status = b.is_active ? 'active' : 'inactive';
          }
          if (Object.keys(set).length)
            await trx
              .updateTable('users')
              .set({ ...set, updated_at: clock.now() })
              .where('id', '=', s.user_id)
              .execute();
        } else {
          const set: Record<string, unknown> = {};
          if (b.role) set.invite_role = b.role;
          if (b.department !== undefined) set.invite_department = b.department;
          if (b.phone !== undefined) set.invite_phone = b.phone;
          if (Object.keys(set).length)
            await accountsDb(trx).updateTable('company_staff').set(set).where('id', '=', s.id).execute();
          // The pending invitation must grant what the admin now intends.
          if (b.role) {
            await trx
              .updateTable('invitations')
              .set({ role: b.role })
              .where('company_id', '=', cid)
              .where('email', '=', s.email)
              .where('used_at', 'is', null)
              .execute();
          }
        }
        const action = b.role && b.role !== s.role ? 'role_changed' : 'updated';
        await writeAudit(trx, ctx, {
          entity: 'staff',
          entityId: s.id,
          action,
          changes: { ...b, user_id: s.user_id },
          companyId: cid,
        });
        return ok(staffView(await findStaff(trx, cid, s.id)));
      });
      principals.invalidate();
      return res;
    },

    companyDeactivateStaff: async (ctx) => {
      const cid = ownCompany(ctx);
      const out = await ctx.transaction(async (trx) => {
        await syncStaff(trx, cid);
        const s = await findStaff(trx, cid, ctx.params.staff_id);
        if (s.user_id && s.user_id === ctx.auth?.userId)
          throw badRequest('cannot_deactivate_self', 'You cannot deactivate yourself.');
        if (s.user_id) {
          await guardLastAdmin(trx, cid, s);
          await trx
            .updateTable('users')
            .set({ is_active: false, status: 'inactive', updated_at: clock.now() })
            .where('id', '=', s.user_id)
            .execute();
        } else {
          // A pending invitation is withdrawn: its code stops working.
          await trx
            .updateTable('invitations')
            .set({ expires_at: clock.now() })
            .where('company_id', '=', cid)
            .where('email', '=', s.email)
            .where('used_at', 'is', null)
            .execute();
        }
        await writeAudit(trx, ctx, {
          entity: 'staff',
          entityId: s.id,
          action: 'deactivated',
          changes: { user_id: s.user_id },
          companyId: cid,
        });
        return ok(staffView(await findStaff(trx, cid, s.id)));
      });
      principals.invalidate();
      return out;
    },
  };
}
