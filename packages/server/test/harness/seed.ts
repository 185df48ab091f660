/**
 * The rows every server test bootstrap needs: a company, and a user of a role with a signed access token
 * (written straight into the database: these tests are about what comes after sign-in). One copy for the
 * app harness (helpers/app.ts), the booking harness, the journeys, the money-fx world and the API-key tests.
 */
import { randomUUID } from 'node:crypto';
import type { TokenService } from '../../src/internal/tokens.ts';
import type { Role } from '../../src/kernel/types.ts';
import type { Db } from '../../src/storage/schema.ts';

let seq = 0;

/** A company with a fresh code (`prefix` + a counter + a time tail, so parallel files never collide). */
export async function seedCompany(
  db: Db,
  prefix = 'C',
  code?: string,
): Promise<{ id: number; code: string }> {
  const c = code ?? `${prefix}${++seq}${Date.now() % 100000}`;
  const row = await db
    .insertInto('companies')
    .values({
      company_name: `Company ${c}`,
      company_code: c,
      contact_email: `ops@${c.toLowerCase()}.test`,
      settings: '{}',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, code: c };
}

export interface SeedUser {
  role: Role;
  companyId: number | null;
  /** Default: `u-<tag>-<n>-<random>`. */
  id?: string;
  /** Default: `<id>@example.test`. */
  email?: string;
  /** The user_code column, or how to make it from the id and email (journeys and searches name it). */
  userCode?: string | null | ((id: string, email: string) => string);
  fullName?: string;
  tag?: string;
  verifiedAt?: Date;
}

/** An active, verified user and an access token for it. */
export async function seedUser(
  db: Db,
  tokens: Pick<TokenService, 'signAccess'>,
  u: SeedUser,
): Promise<{ id: string; email: string; token: string }> {
  const id = u.id ?? `u-${u.tag ?? 't'}-${++seq}-${randomUUID().slice(0, 8)}`;
  const email = u.email ?? `${id}@example.test`;
  await db
    .insertInto('users')
    .values({
      id,
      email,
      password_hash: 'x',
      full_name: u.fullName ?? 'Test User',
      role: u.role,
      status: 'active',
      company_id: u.companyId,
      user_code: typeof u.userCode === 'function' ? u.userCode(id, email) : (u.userCode ?? null),
      email_verified_at: u.verifiedAt ?? new Date(),
    })
    .execute();
  const token = await tokens.signAccess({ userId: id, email, role: u.role, companyId: u.companyId });
  return { id, email, token };
}
