/** Customer: profile (the user plus customer_profiles) and travel preferences. */

import { writeAudit } from '../../audit/audit-log.ts';
import { storedCurrency } from '../../internal/money.ts';
import type { Routes } from '../../kernel/types.ts';
import type { Db } from '../../storage/schema.ts';
import { json } from '../../storage/schema.ts';
import { type AccountsDeps, accountsDb, isoDate, ok, userWithCompany } from '../accounts/index.ts';

async function profileRow(db: Db, userId: string) {
  return accountsDb(db)
    .selectFrom('customer_profiles')
    .selectAll()
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

async function profileView(db: Db, userId: string) {
  const p = await profileRow(db, userId);
  return {
    ...(await userWithCompany(db, userId)),
    date_of_birth: isoDate(p?.date_of_birth ?? null),
    nationality: p?.nationality ?? null,
    preferred_language: p?.preferred_language ?? null,
    preferred_currency: p?.preferred_currency ? storedCurrency(p.preferred_currency) : null,
  };
}

async function preferencesView(db: Db, userId: string) {
  const p = await profileRow(db, userId);
  const airlines = p
    ? typeof p.preferred_airlines === 'string'
      ? JSON.parse(p.preferred_airlines)
      : p.preferred_airlines
    : [];
  return {
    seat_preference: p?.seat_preference ?? null,
    meal_preference: p?.meal_preference ?? null,
    cabin_preference: p?.cabin_preference ?? null,
    preferred_airlines: (airlines ?? []) as string[],
    notification_email: p?.notification_email ?? true,
    notification_sms: p?.notification_sms ?? false,
  };
}

async function upsertProfile(db: Db, userId: string, set: Record<string, unknown>, now: Date) {
  if (Object.keys(set).length === 0) return;
  await accountsDb(db)
    .insertInto('customer_profiles')
    .values({ user_id: userId, ...set, updated_at: now })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ ...set, updated_at: now }))
    .execute();
}

export function customerProfileRoutes(d: AccountsDeps): Routes {
  const { db, clock } = d;
  const me = (ctx: { auth: { userId: string } | null }) => ctx.auth?.userId as string;
  return {
    customerGetProfile: async (ctx) => ok(await profileView(db, me(ctx))),
    customerUpdateProfile: async (ctx) => {
      const b = ctx.body;
      return ctx.transaction(async (trx) => {
        const now = clock.now();
        const user: Record<string, unknown> = {};
        for (const k of ['full_name', 'phone'] as const) if (b[k] !== undefined) user[k] = b[k];
        if (Object.keys(user).length)
          await trx
            .updateTable('users')
            .set({ ...user, updated_at: now })
            .where('id', '=', me(ctx))
            .execute();
        const prof: Record<string, unknown> = {};
        for (const k of ['date_of_birth', 'nationality', 'preferred_language', 'preferred_currency'] as const)
          if (b[k] !== undefined) prof[k] = b[k];
        await upsertProfile(trx, me(ctx), prof, now);
        await writeAudit(trx, ctx, {
          entity: 'user',
          entityId: me(ctx),
          action: 'profile_updated',
          changes: { fields: Object.keys(b) },
        });
        return ok(await profileView(trx, me(ctx)));
      });
    },
    customerGetPreferences: async (ctx) => ok(await preferencesView(db, me(ctx))),
    customerUpdatePreferences: async (ctx) => {
      const b = ctx.body;
      return ctx.transaction(async (trx) => {
        const set: Record<string, unknown> = { ...b };
        if (b.preferred_airlines !== undefined) set.preferred_airlines = json(b.preferred_airlines);
        await upsertProfile(trx, me(ctx), set, clock.now());
        return ok(await preferencesView(trx, me(ctx)));
      });
    },
  };
}
