import type { Clock } from '../../internal/clock.ts';
import { newSecretToken, sha256 } from '../../internal/ids.ts';
import type { Role } from '../../kernel/types.ts';
import type { Db } from '../../storage/schema.ts';

/**
 * Creates an invitation and returns its one-time code (only its hash is stored). Registering with the
 * code and the invited email grants exactly `role` in `companyId`; that is the only way to obtain a
 * company role without an admin.
 */
export async function createInvitation(
  db: Db,
  inv: {
    email: string;
    role: Role;
    companyId: number | null;
    invitedBy: string | null;
    fullName?: string;
    ttlHours?: number;
  },
  clock: Clock,
): Promise<{ code: string; expiresAt: Date }> {
  const code = newSecretToken(24);
  const expiresAt = new Date(clock.now().getTime() + (inv.ttlHours ?? 72) * 3600_000);
  await db
    .insertInto('invitations')
    .values({
      code: sha256(code),
      email: inv.email.trim().toLowerCase(),
      role: inv.role,
      company_id: inv.companyId,
      invited_by: inv.invitedBy,
      full_name: inv.fullName ?? null,
      expires_at: expiresAt,
    })
    .execute();
  return { code, expiresAt };
}
