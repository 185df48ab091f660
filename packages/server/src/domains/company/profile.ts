/** Company: profile and settings of the caller's company. */
import { writeAudit } from '../../audit/audit-log.ts';
import type { Routes } from '../../kernel/types.ts';
import { json } from '../../storage/schema.ts';
import {
  type AccountsDeps,
  accountsDb,
  companyWithProfile,
  loadCompany,
  ok,
  settingsView,
} from '../accounts/index.ts';
import { ownCompany } from './clients.ts';

const PROFILE_FIELDS = ['logo_url', 'website', 'business_registration', 'iata_number'] as const;
const COMPANY_FIELDS = ['company_name', 'contact_email', 'contact_phone'] as const;

export function companyProfileRoutes(d: AccountsDeps): Routes {
  const { db, clock } = d;
  return {
    companyGetProfile: async (ctx) => ok(await companyWithProfile(db, ownCompany(ctx))),

    companyUpdateProfile: async (ctx) => {
      const cid = ownCompany(ctx);
      const b = ctx.body;
      return ctx.transaction(async (trx) => {
        await loadCompany(trx, cid, true);
        const now = clock.now();
        const set: Record<string, unknown> = { updated_at: now };
        for (const k of COMPANY_FIELDS) if (b[k] !== undefined) set[k] = b[k];
        if (b.address !== undefined) set.address = json(b.address);
        await trx.updateTable('companies').set(set).where('id', '=', cid).execute();
        const prof: Record<string, unknown> = {};
        for (const k of PROFILE_FIELDS) if (b[k] !== undefined) prof[k] = b[k];
        if (Object.keys(prof).length > 0) {
          await accountsDb(trx)
            .insertInto('company_profiles')
            .values({
              company_id: cid,
              logo_url: null,
              website: null,
              business_registration: null,
              iata_number: null,
              ...prof,
              updated_at: now,
            })
            .onConflict((oc) => oc.column('company_id').doUpdateSet({ ...prof, updated_at: now }))
            .execute();
        }
        await writeAudit(trx, ctx, {
          entity: 'company',
          entityId: cid,
          action: 'profile_updated',
          changes: b,
          companyId: cid,
        });
        return ok(await companyWithProfile(trx, cid));
      });
    },

    companyGetSettings: async (ctx) => ok(settingsView(await loadCompany(db, ownCompany(ctx)))),

    companyUpdateSettings: async (ctx) => {
      const cid = ownCompany(ctx);
      const b = ctx.body;
      return ctx.transaction(async (trx) => {
        const c = await loadCompany(trx, cid, true);
        const settings = {
          ...((typeof c.settings === 'string' ? JSON.parse(c.settings) : c.settings) as object),
          ...b,
        };
        const u = await trx
          .updateTable('companies')
          .set({ settings: json(settings), updated_at: clock.now() })
          .where('id', '=', cid)
          .returningAll()
          .executeTakeFirstOrThrow();
        await writeAudit(trx, ctx, {
          entity: 'company',
          entityId: cid,
          action: 'settings_updated',
          changes: b,
          companyId: cid,
        });
        return ok(settingsView(u));
      });
    },
  };
}
