import { writeAudit } from '../../audit/audit-log.ts';
import { badRequest } from '../../kernel/errors.ts';
import type { RequestContext } from '../../kernel/types.ts';
import type { AuthDeps } from './deps.ts';

// Impersonation starts on the admin surface (a token for another user); the impersonator ends it here.

/**
 * Ends the caller's impersonation: the token's `jti` goes on the denylist until it expires. Every
 * process reads an impersonation token's denylist entry fresh (no cache), so the next request with it
 * answers 401 wherever it lands. Audited with both identities.
 */
export async function endImpersonation(d: AuthDeps, ctx: RequestContext) {
  const a = ctx.auth;
  if (!a?.impersonatorId || !a.token)
    throw badRequest('not_impersonating', 'This access token is not an impersonation token.');
  const { token, impersonatorId, userId, companyId } = a;
  const body = { ended: true, user_id: userId, impersonator_id: impersonatorId };
  return ctx.transaction(async (trx) => {
    await d.principals.revoke({ tokenId: token.id }, token.expiresAt, 'impersonation ended', trx);
    await writeAudit(trx, ctx, {
      entity: 'user',
      entityId: userId,
      action: 'impersonation_ended',
      changes: { impersonator_id: impersonatorId },
      companyId,
    });
    return { status: 200, body };
  });
}
