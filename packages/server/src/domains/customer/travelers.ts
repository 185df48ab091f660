/**
 * Customer: saved travelers. The contract validates shapes (date format, gender and document enums);
 * here the rules a schema cannot say: birth date in the past, document expiry not in the past, and a
 * document given whole (type and number together).
 */
import { sql } from 'kysely';
import { writeAudit } from '../../audit/audit-log.ts';
import { badRequest, notFound, ValidationError, type ValidationIssue } from '../../kernel/errors.ts';
import type { OperationContext, Routes } from '../../kernel/types.ts';
import type { Db } from '../../storage/schema.ts';
import type { AccountsDeps } from '../admin/deps.ts';
import { iso, isoDate, ok } from '../admin/http.ts';
import { accountsDb } from '../admin/tables.ts';

const MAX_TRAVELERS = 20;
const FIELDS = [
  'first_name',
  'last_name',
  'date_of_birth',
  'gender',
  'nationality',
  'email',
  'phone',
  'doc_type',
  'doc_number',
  'doc_expiry',
  'doc_issuing_country',
  'nickname',
] as const;

type TravelerInput = Partial<Record<(typeof FIELDS)[number], string>> & { is_primary?: boolean };
type Row = NonNullable<Awaited<ReturnType<typeof find>>>;

function view(r: Row) {
  return {
    traveler_id: r.id,
    first_name: r.first_name,
    last_name: r.last_name,
    date_of_birth: isoDate(r.date_of_birth) as string,
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
    created_at: iso(r.created_at) as string,
    updated_at: iso(r.updated_at) as string,
  };
}

/** Checks the merged record (existing values overlaid with the patch). */
function validate(t: TravelerInput, today: string) {
  const issues: ValidationIssue[] = [];
  if (t.date_of_birth && (t.date_of_birth > today || t.date_of_birth < '1900-01-01')) {
    issues.push({
      loc: ['body', 'date_of_birth'],
      msg: 'The date of birth must be in the past (after 1900).',
      type: 'value_error',
    });
  }
  if (t.doc_expiry && t.doc_expiry < today) {
    issues.push({ loc: ['body', 'doc_expiry'], msg: 'The document has expired.', type: 'value_error' });
  }
  if (t.doc_number && !t.doc_type)
    issues.push({ loc: ['body', 'doc_type'], msg: 'doc_type is required with doc_number.', type: 'missing' });
  if (t.doc_type && !t.doc_number)
    issues.push({
      loc: ['body', 'doc_number'],
      msg: 'doc_number is required with doc_type.',
      type: 'missing',
    });
  if (issues.length) throw new ValidationError(issues);
}

async function find(db: Db, userId: string, id: number) {
  return accountsDb(db)
    .selectFrom('saved_travelers')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

async function mine(db: Db, ctx: OperationContext<'customerUpdateTraveler' | 'customerDeleteTraveler'>) {
  const r = await find(db, ctx.auth?.userId as string, ctx.params.traveler_id);
  if (!r) throw notFound('traveler_not_found', 'Saved traveler not found.');
  return r;
}

/** One primary traveler per customer: making one primary clears the others. */
async function clearPrimary(db: Db, userId: string, exceptId: number) {
  await accountsDb(db)
    .updateTable('saved_travelers')
    .set({ is_primary: false })
    .where('user_id', '=', userId)
    .where('id', '!=', exceptId)
    .execute();
}

export function customerTravelerRoutes(d: AccountsDeps): Routes {
  const { db, clock } = d;
  const today = () => clock.now().toISOString().slice(0, 10);
  return {
    customerListTravelers: async (ctx) => {
      const rows = await accountsDb(db)
        .selectFrom('saved_travelers')
        .selectAll()
        .where('user_id', '=', ctx.auth?.userId as string)
        .orderBy('is_primary', 'desc')
        .orderBy('id')
        .execute();
      return ok({ items: rows.map(view), total: rows.length });
    },

    customerCreateTraveler: async (ctx) => {
      const b = ctx.body;
      validate(b, today());
      const userId = ctx.auth?.userId as string;
      return ctx.transaction(async (trx) => {
        const { n } = await accountsDb(trx)
          .selectFrom('saved_travelers')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('user_id', '=', userId)
          .executeTakeFirstOrThrow();
        if (Number(n) >= MAX_TRAVELERS)
          throw badRequest('traveler_limit_reached', `At most ${MAX_TRAVELERS} travelers can be saved.`);
        const now = clock.now();
        const values: Record<string, unknown> = {};
        for (const k of FIELDS) values[k] = b[k] ?? null;
        const r = await accountsDb(trx)
          .insertInto('saved_travelers')
          .values({
            ...(values as { first_name: string; last_name: string; date_of_birth: string; gender: string }),
            user_id: userId,
            is_primary: b.is_primary ?? Number(n) === 0,
            created_at: now,
            updated_at: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        if (r.is_primary) await clearPrimary(trx, userId, r.id);
        await writeAudit(trx, ctx, { entity: 'saved_traveler', entityId: r.id, action: 'created' });
        return ok(view(r), 201);
      });
    },

    customerUpdateTraveler: async (ctx) => {
      const b = ctx.body;
      return ctx.transaction(async (trx) => {
        const cur = await mine(trx, ctx);
        const merged: TravelerInput = {};
        for (const k of FIELDS) {
          const v =
            b[k] !== undefined
              ? b[k]
              : k === 'date_of_birth' || k === 'doc_expiry'
                ? isoDate(cur[k])
                : cur[k];
          if (v !== null && v !== undefined) merged[k] = v;
        }
        validate(merged, today());
        const r = await accountsDb(trx)
          .updateTable('saved_travelers')
          .set({ ...(b as Record<string, never>), updated_at: clock.now() })
          .where('id', '=', cur.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        return ok(view(r));
      });
    },

    customerDeleteTraveler: async (ctx) => {
      const cur = await mine(db, ctx);
      await accountsDb(db).deleteFrom('saved_travelers').where('id', '=', cur.id).execute();
      return ok({ id: cur.id, deleted: true as const });
    },
  };
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
