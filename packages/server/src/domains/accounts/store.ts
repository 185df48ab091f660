/**
 * The accounts store: the reads of companies, users, staff and saved travelers that the surfaces (admin,
 * company, customer) and the flight-booking aggregate build on. The tables are in tables.ts.
 */
import type { components } from '@travel/contract';
import { sql } from 'kysely';
import { fromMinor } from '../../internal/money.ts';
import { type Members, member } from '../../internal/narrow.ts';
import { badRequest, notFound } from '../../kernel/errors.ts';
import type { Db } from '../../storage/schema.ts';
import { userView } from '../auth/index.ts';
import { iso, isoDate } from './http.ts';
import { accountsDb } from './tables.ts';
import { companyView } from './views.ts';

export async function loadCompany(db: Db, id: number, forUpdate = false) {
  let q = db.selectFrom('companies').selectAll().where('id', '=', id);
  if (forUpdate) q = q.forUpdate();
  const c = await q.executeTakeFirst();
  if (!c) throw notFound('company_not_found', 'Company not found.');
  return c;
}

export async function companyWithProfile(db: Db, id: number) {
  const c = await loadCompany(db, id);
  const p = await accountsDb(db)
    .selectFrom('company_profiles')
    .selectAll()
    .where('company_id', '=', id)
    .executeTakeFirst();
  return companyView(c, p);
}

export async function loadUser(db: Db, id: string, forUpdate = false) {
  let q = db.selectFrom('users').selectAll().where('id', '=', id);
  if (forUpdate) q = q.forUpdate();
  const u = await q.executeTakeFirst();
  if (!u) throw notFound('user_not_found', 'User not found.');
  return u;
}

export async function userWithCompany(db: Db, id: string) {
  const u = await loadUser(db, id);
  const c =
    u.company_id === null
      ? undefined
      : await db
          .selectFrom('companies')
          .select('company_code')
          .where('id', '=', u.company_id)
          .executeTakeFirst();
  return userView(u, c?.company_code ?? null);
}

/** A saved traveler as createPnr reads it (traveler_id on a passenger). */
export interface BookableTraveler {
  traveler_id: number;
  first_name: string;
  last_name: string;
  date_of_birth: string;
  gender: 'M' | 'F' | 'O';
  nationality: string | null;
  email: string | null;
  phone: string | null;
  doc_type: 'passport' | 'id_card' | 'visa' | null;
  doc_number: string | null;
  doc_expiry: string | null;
  doc_issuing_country: string | null;
}

/**
 * A saved traveler the caller may book: their own, or, for company staff, one saved by a customer who is
 * an active client of the caller's company (a client is linked to a customer by e-mail, as a client's
 * bookings are). Anything else, another company's client's included, is null (answered as not found).
 */
export async function bookableTraveler(
  db: Db,
  caller: { userId: string; role: string; companyId: number | null },
  travelerId: number,
): Promise<BookableTraveler | null> {
  const staff = caller.role === 'company_admin' || caller.role === 'company_staff';
  const companyId = caller.companyId;
  const r = await accountsDb(db)
    .selectFrom('saved_travelers as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .selectAll('t')
    .where('t.id', '=', travelerId)
    .where((eb) =>
      staff && companyId !== null
        ? eb.or([
            eb('t.user_id', '=', caller.userId),
            eb.and([
              eb('u.role', '=', 'customer'),
              eb.exists(
                eb
                  .selectFrom('clients as c')
                  .select('c.id')
                  .where('c.company_id', '=', companyId)
                  .where('c.is_active', '=', true)
                  .where(sql<boolean>`lower(c.email) = lower(u.email)`),
              ),
            ]),
          ])
        : eb('t.user_id', '=', caller.userId),
    )
    .executeTakeFirst();
  if (!r) return null;
  return {
    traveler_id: r.id,
    first_name: r.first_name,
    last_name: r.last_name,
    date_of_birth: isoDate(r.date_of_birth),
    gender: r.gender,
    nationality: r.nationality,
    email: r.email,
    phone: r.phone,
    doc_type: r.doc_type,
    doc_number: r.doc_number,
    doc_expiry: isoDate(r.doc_expiry),
    doc_issuing_country: r.doc_issuing_country,
  };
}

// Company staff: users with a company role, plus invitations not yet accepted (company_staff).

/** Gives every company user a staff row and links accepted invitations to their user. */
export async function syncStaff(trx: Db, cid: number) {
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

export function staffQuery(db: Db, cid: number) {
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

export type StaffRow = Awaited<ReturnType<ReturnType<typeof staffQuery>['executeTakeFirstOrThrow']>>;

type Schemas = components['schemas'];
const STAFF_ROLES: Members<Schemas['StaffRole']> = { company_admin: true, company_staff: true };

/** permissions (jsonb, written from the contract's string list): its strings. */
function permissionsOf(v: unknown): string[] {
  const list: unknown = typeof v === 'string' ? JSON.parse(v) : v;
  return Array.isArray(list) ? list.filter((x) => typeof x === 'string') : [];
}

/** A staff member; a pending invitation (no account yet) has no user_id (null). */
export function staffView(r: StaffRow): Schemas['StaffMember'] {
  const joined = r.user_id !== null;
  return {
    staff_id: r.id,
    user_id: r.user_id,
    email: r.email,
    full_name: (joined ? r.full_name : r.invite_full_name) ?? r.email,
    role: member(STAFF_ROLES, (joined ? r.role : r.invite_role) ?? 'company_staff', 'staff role'),
    department: joined ? (r.department ?? null) : r.invite_department,
    phone: joined ? (r.phone ?? null) : r.invite_phone,
    permissions: permissionsOf(r.permissions),
    is_active: joined ? Boolean(r.is_active) : true,
    status: joined ? (r.status ?? 'active') : 'pending',
    invited_at: iso(r.invited_at),
    last_login_at: iso(r.last_login_at ?? null),
  };
}

export async function findStaff(db: Db, cid: number, id: number) {
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
export async function guardLastAdmin(db: Db, cid: number, s: StaffRow) {
  if (
    s.role === 'company_admin' &&
    s.is_active &&
    s.status === 'active' &&
    (await activeAdmins(db, cid)) <= 1
  ) {
    throw badRequest('cannot_demote_last_admin', 'The company needs at least one active company_admin.');
  }
}

// Company clients (the agency's customers).

export async function currencyOf(db: Db, companyId: number) {
  const c = await db
    .selectFrom('companies')
    .select('currency')
    .where('id', '=', companyId)
    .executeTakeFirstOrThrow();
  return c.currency.trim();
}

export type ClientRow = Awaited<ReturnType<typeof findClient>>;

export function clientView(r: ClientRow, currency: string): Schemas['Client'] {
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
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}

/** Another company's client is exactly a missing one. */
export async function findClient(db: Db, companyId: number, id: number) {
  const r = await accountsDb(db)
    .selectFrom('clients')
    .selectAll()
    .where('id', '=', id)
    .where('company_id', '=', companyId)
    .executeTakeFirst();
  if (!r) throw notFound('client_not_found', 'Client not found.');
  return r;
}

// Saved travelers of a customer.

type TravelerRow = NonNullable<Awaited<ReturnType<typeof findTraveler>>>;

export async function findTraveler(db: Db, userId: string, id: number) {
  return accountsDb(db)
    .selectFrom('saved_travelers')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** A saved traveler as the customer surface shows it. */
export function travelerView(r: TravelerRow): Schemas['SavedTraveler'] {
  return {
    traveler_id: r.id,
    first_name: r.first_name,
    last_name: r.last_name,
    date_of_birth: isoDate(r.date_of_birth),
    gender: r.gender,
    nationality: r.nationality,
    email: r.email,
    phone: r.phone,
    doc_type: r.doc_type,
    doc_number: r.doc_number,
    doc_expiry: isoDate(r.doc_expiry),
    doc_issuing_country: r.doc_issuing_country,
    is_primary: r.is_primary,
    nickname: r.nickname,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}

/** One primary traveler per customer: making one primary clears the others. */
export async function clearPrimaryTraveler(db: Db, userId: string, exceptId: number) {
  await accountsDb(db)
    .updateTable('saved_travelers')
    .set({ is_primary: false })
    .where('user_id', '=', userId)
    .where('id', '!=', exceptId)
    .execute();
}
