/**
 * The accounts store: the reads of companies, users and saved travelers that more than one surface (admin,
 * company, customer) or aggregate (flight-booking) builds on. The tables are in tables.ts.
 */
import { sql } from 'kysely';
import { notFound } from '../../kernel/errors.ts';
import type { Db } from '../../storage/schema.ts';
import { userView } from '../auth/user-view.ts';
import { isoDate } from './http.ts';
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
    date_of_birth: isoDate(r.date_of_birth) as string,
    gender: r.gender as BookableTraveler['gender'],
    nationality: r.nationality,
    email: r.email,
    phone: r.phone,
    doc_type: r.doc_type as BookableTraveler['doc_type'],
    doc_number: r.doc_number,
    doc_expiry: isoDate(r.doc_expiry),
    doc_issuing_country: r.doc_issuing_country,
  };
}
