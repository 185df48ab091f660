import { writeAudit } from '../../audit/audit-log.ts';
import { TokenError } from '../../internal/tokens.ts';
import { badRequest } from '../../kernel/errors.ts';
import type { RequestContext } from '../../kernel/types.ts';
import type { AuthDeps } from './deps.ts';

// Proving an address: the verification mail and the link it carries (register.ts sends it).

export function verifyLink(d: AuthDeps, token: string) {
  return `${d.config.publicBaseUrl}/api/v1/auth/verify-email?access_token=${encodeURIComponent(token)}&type=signup`;
}

export async function sendVerification(d: AuthDeps, userId: string, email: string, fullName: string) {
  const token = await d.tokens.signEmailVerification(userId, email);
  const link = verifyLink(d, token);
  await d.mailer.send({
    to: email,
    subject: 'Verify your email address',
    text: `Hello ${fullName},\n\nConfirm your email address by opening this link:\n\n${link}\n\nThe link expires in ${Math.round(d.tokens.verifyTtlSeconds / 3600)} hours.\n`,
  });
  return link;
}

export async function verifyEmail(d: AuthDeps, ctx: RequestContext, token: string | undefined) {
  if (!token) throw badRequest('verification_token_invalid', 'The verification link has no token.');
  let claims: { userId: string; email: string };
  try {
    claims = await d.tokens.verifyEmailVerification(token);
  } catch (err) {
    if (err instanceof TokenError && err.reason === 'expired') {
      throw badRequest(
        'verification_token_expired',
        'The verification link has expired; register again or ask for a new one.',
      );
    }
    throw badRequest('verification_token_invalid', 'The verification link is not valid.');
  }
  const now = d.clock.now();
  return d.db.transaction().execute(async (trx) => {
    const u = await trx
      .selectFrom('users')
      .selectAll()
      .where('id', '=', claims.userId)
      .forUpdate()
      .executeTakeFirst();
    if (!u || u.email.toLowerCase() !== claims.email.toLowerCase()) {
      throw badRequest('verification_token_invalid', 'The verification link is not valid.');
    }
    if (!u.email_verified_at) {
      await trx
        .updateTable('users')
        .set({
          email_verified_at: now,
          status: u.status === 'pending' ? 'active' : u.status,
          updated_at: now,
        })
        .where('id', '=', u.id)
        .execute();
      await writeAudit(trx, ctx, {
        entity: 'user',
        entityId: u.id,
        action: 'email_verified',
        reason: 'verification link followed',
        changes: { status: { from: u.status, to: u.status === 'pending' ? 'active' : u.status } },
        companyId: u.company_id,
      });
    }
    d.principals.invalidate(u.id);
    return { verified: true, email: u.email, message: 'Email address verified. You can log in now.' };
  });
}
