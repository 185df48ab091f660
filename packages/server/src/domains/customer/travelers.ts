import { writeAudit } from '../../audit/audit-log.ts';
import { badRequest, notFound, ValidationError, type ValidationIssue } from '../../kernel/errors.ts';
import type { OperationContext, Routes } from '../../kernel/types.ts';
import type { Db } from '../../storage/schema.ts';
import {
  type AccountsDeps,
  accountsDb,
  clearPrimaryTraveler,
  findTraveler,
  isoDate,
  ok,
  travelerView,
} from '../accounts/index.ts';

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

async function mine(db: Db, ctx: OperationContext<'customerUpdateTraveler' | 'customerDeleteTraveler'>) {
  const r = await findTraveler(db, ctx.auth?.userId as string, ctx.params.traveler_id);
  if (!r) throw notFound('traveler_not_found', 'Saved traveler not found.');
  return r;
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
      return ok({ items: rows.map(travelerView), total: rows.length });
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
        const r = await accountsDb(trx)
          .insertInto('saved_travelers')
          .values({
            first_name: b.first_name,
            last_name: b.last_name,
            date_of_birth: b.date_of_birth,
            gender: b.gender,
            nationality: b.nationality ?? null,
            email: b.email ?? null,
            phone: b.phone ?? null,
            doc_type: b.doc_type ?? null,
            doc_number: b.doc_number ?? null,
            doc_expiry: b.doc_expiry ?? null,
            doc_issuing_country: b.doc_issuing_country ?? null,
            nickname: b.nickname ?? null,
            user_id: userId,
            is_primary: b.is_primary ?? Number(n) === 0,
            created_at: now,
            updated_at: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        if (r.is_primary) await clearPrimaryTraveler(trx, userId, r.id);
        await writeAudit(trx, ctx, { entity: 'saved_traveler', entityId: r.id, action: 'created' });
        return ok(travelerView(r), 201);
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
        return ok(travelerView(r));
      });
    },

    customerDeleteTraveler: async (ctx) => {
      const cur = await mine(db, ctx);
      await accountsDb(db).deleteFrom('saved_travelers').where('id', '=', cur.id).execute();
      return ok({ id: cur.id, deleted: true as const });
    },
  };
}
