/**
 * Sandbox mode only: a demo travel agency and its admin, so that a newcomer (and `travel smoke` in CI)
 * can search and book straight after `pnpm start`. Idempotent: a second start finds them and does nothing.
 * These are published sandbox credentials, never used outside sandbox mode.
 */
import { writeAudit } from './audit/audit-log.ts';
import type { Clock } from './internal/clock.ts';
import { newId } from './internal/ids.ts';
import { hashPassword } from './internal/passwords.ts';
import type { Db } from './storage/schema.ts';

export const SANDBOX_AGENCY = {
  companyCode: 'SANDBOX',
  companyName: 'Sandbox Travel Agency',
  email: 'agent@sandbox.travel',
  password: 'sandbox-agent-pass',
} as const;

export async function seedSandboxAgency(
  db: Db,
  clock: Clock,
): Promise<typeof SANDBOX_AGENCY & { created: boolean }> {
  const existing = await db
    .selectFrom('users')
    .select('id')
    .where('email', '=', SANDBOX_AGENCY.email)
    .executeTakeFirst();
  if (existing) return { ...SANDBOX_AGENCY, created: false };
  const passwordHash = await hashPassword(SANDBOX_AGENCY.password);
  const now = clock.now();
  await db.transaction().execute(async (trx) => {
    const company = await trx
      .insertInto('companies')
      .values({
        company_name: SANDBOX_AGENCY.companyName,
        company_code: SANDBOX_AGENCY.companyCode,
        company_type: 'travel_agency',
        contact_email: SANDBOX_AGENCY.email,
        currency: 'GBP',
        settings: '{}',
      })
      .onConflict((oc) => oc.column('company_code').doUpdateSet({ updated_at: now }))
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = newId();
    await trx
      .insertInto('users')
      .values({
        id,
        email: SANDBOX_AGENCY.email,
        password_hash: passwordHash,
        full_name: 'Sandbox Agent',
        role: 'company_admin',
        status: 'active',
        company_id: company.id,
        user_code: 'AGENT1',
        email_verified_at: now,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.doNothing())
      .execute();
    await writeAudit(trx, null, {
      entity: 'user',
      entityId: id,
      action: 'seeded',
      reason: 'sandbox agency seed',
    });
  });
  return { ...SANDBOX_AGENCY, created: true };
}
