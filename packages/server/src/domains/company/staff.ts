/**
 * Company: staff (company_admin). Staff are the company's users with a company role; `company_staff`
 * gives each an integer id and holds permissions, and also records invitations not yet accepted
 * (status `pending`, user_id empty until the invitee registers with the code from the mail).
 */
import { sql } from 'kysely';
import { writeAudit } from '../../audit/audit-log.ts';
import { badRequest, notFound } from '../../kernel/errors.ts';
import type { OperationContext, Routes } from '../../kernel/types.ts';
import type { Db } from '../../storage/schema.ts';
import { json } from '../../storage/schema.ts';
import type { AccountsDeps } from '../admin/deps.ts';
import { iso, ok, pageBody, paging } from '../admin/http.ts';
import { accountsDb } from '../admin/tables.ts';
import { createInvitation } from '../auth/invitations.ts';
import { ownCompany } from './clients.ts';

/** Gives every company user a staff row and links accepted invitations to their user. */
async function syncStaff(trx: Db, cid: number) {
  await sql`
    update company_staff s set user_id = u.id
      from users u
     where s.company_id = ${cid} and s.user_id is null and u.company_id = ${cid}
       and lower(u.email) = lower(s.email) and u.role in ('company_admin', 'company_staff')`.execute(trx);
  await sql`
    insert into company_staff (company_id, user_id, email)
    select u.company_id, u.id, u.email from users u
     where u.company_id = ${cid} and u.role in ('company_admin', 'company_staff')
       and not exists (select 1 from company_staff s where s.user_id = u.id)
       and not exists (select 1 from company_staff s where s.company_id = ${cid} and lower(s.email) = lower(u.email))
    on conflict do nothing`.execute(trx);
}

function staffQuery(db: Db, cid: number) {
  return accountsDb(db)
    .selectFrom('company_staff as s')
    .leftJoin('users as u', 'u.id', 's.user_id')
    .where('s.company_id', '=', cid)
    .select([
      's.id',
      's.user_id',
      's.email',
      's.permissions',
      's.invited_at',
      's.invite_role',
      's.invite_full_name',
      's.invite_department',
      's.invite_phone',
      'u.full_name',
      'u.role',
      'u.department',
      'u.phone',
      'u.is_active',
      'u.status',
      'u.last_login_at',
    ]);
}

type StaffRow = Awaited<ReturnType<ReturnType<typeof staffQuery>['executeTakeFirstOrThrow']>>;

function staffView(r: StaffRow) {
  const joined = r.user_id !== null;
  const perms =
    typeof r.permissions === 'string' ? (JSON.parse(r.permissions) as string[]) : (r.permissions as string[]);
  return {
    staff_id: r.id,
    user_id: r.user_id ?? '',
    email: r.email,
    full_name: (joined ? r.full_name : r.invite_full_name) ?? r.email,
    role: (joined ? r.role : r.invite_role) ?? 'company_staff',
    department: joined ? (r.department ?? null) : r.invite_department,
    phone: joined ? (r.phone ?? null) : r.invite_phone,
    permissions: perms ?? [],
    is_active: joined ? Boolean(r.is_active) : true,
    status: joined ? (r.status ?? 'active') : 'pending',
    invited_at: iso(r.invited_at),
    last_login_at: iso(r.last_login_at ?? null),
  };
}

async function findStaff(db: Db, cid: number, id: number) {
  const r = await staffQuery(db, cid).where('s.id', '=', id).executeTakeFirst();
  if (!r) throw notFound('staff_not_found', 'Staff member not found.');
  return r;
}

async function activeAdmins(db: Db, cid: number): Promise<number> {
  const r = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('company_id', '=', cid)
    .where('role', '=', 'company_admin')
    .where('is_active', '=', true)
    .where('status', '=', 'active')
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Removing the last active company_admin would lock the company out of its own administration. */
async function guardLastAdmin(db: Db, cid: number, s: StaffRow) {
  if (
    s.role === 'company_admin' &&
    s.is_active &&
    s.status === 'active' &&
    (await activeAdmins(db, cid)) <= 1
  ) {
    throw badRequest('cannot_demote_last_admin', 'The company needs at least one active company_admin.');
  }
}

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
        .select('id')
        .where(sql`lower(email)`, '=', email)
        .executeTakeFirst();
      if (existing) throw badRequest('email_already_registered', 'A user with this email already exists.');
      const company = await trx
        .selectFrom('companies')
        .select(['company_name', 'company_code'])
        .where('id', '=', cid)
        .executeTakeFirstOrThrow();
      // The invitation grants exactly this role in this company (the auth domain enforces it at registration).
      const { code, expiresAt } = await createInvitation(
        trx,
        { email, role, companyId: cid, invitedBy: ctx.auth?.userId ?? null, fullName: b.full_name },
        clock,
      );
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
      const link = `${config.publicBaseUrl}/join?invite_code=${encodeURIComponent(code)}&email=${encodeURIComponent(email)}`;
      await mailer.send({
        to: email,
        subject: `You are invited to join ${company.company_name}`,
        text:
          `Hello ${b.full_name},\n\nYou have been invited to join ${company.company_name} (${company.company_code}) as ${role}.\n\n` +
          `Join by opening this link:\n\n${link}\n\nor register at POST /api/v1/auth/register with invite_code ${code}.\n\n` +
          `The invitation expires on ${expiresAt.toISOString()}.\n`,
      });
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
