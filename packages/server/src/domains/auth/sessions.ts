import { newId, newSecretToken, sha256 } from '../../internal/ids.ts';
import { tooManyRequests, unauthorized } from '../../kernel/errors.ts';
import { type PrincipalStore, refuseStanding, standing } from '../../kernel/principal.ts';
import type { RequestContext, Role } from '../../kernel/types.ts';
import type { LoginThrottle } from '../../rate-limit/login-throttle.ts';
import { type AuthDeps, companyCode, credentialsError } from './deps.ts';
import { userView } from './user-view.ts';

// A login's session: its tokens (access + refresh, one family per login), rotation, logout, revocation.

async function issue(
  d: AuthDeps,
  user: { id: string; email: string; role: string; company_id: number | null },
  familyId?: string,
) {
  const now = d.clock.now();
  const refreshId = newId();
  const sessionId = familyId ?? refreshId;
  const access = await d.tokens.signAccess({
    userId: user.id,
    email: user.email,
    role: user.role as Role,
    companyId: user.company_id,
    sessionId,
  });
  const refresh = newSecretToken();
  await d.db
    .insertInto('refresh_tokens')
    .values({
      id: refreshId,
      user_id: user.id,
      token_hash: sha256(refresh),
      family_id: sessionId,
      expires_at: new Date(now.getTime() + d.config.refreshTokenTtlSeconds * 1000),
      created_at: now,
    })
    .execute();
  return { access, refresh, refreshId };
}

export async function tokenResponse(d: AuthDeps, userId: string, familyId?: string) {
  const u = await d.db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
  const t = await issue(d, u, familyId);
  return {
    body: {
      access_token: t.access,
      token_type: 'bearer' as const,
      expires_in: d.tokens.accessTokenTtl(),
      refresh_token: t.refresh,
      refresh_expires_in: d.config.refreshTokenTtlSeconds,
      user: userView(u, await companyCode(d, u.company_id)),
    },
    refreshId: t.refreshId,
  };
}

export function assertMayLogIn(d: AuthDeps, p: Awaited<ReturnType<PrincipalStore['get']>>) {
  const s = standing(p, d.clock.now());
  if (s === 'gone') throw credentialsError();
  refuseStanding(s);
}

/**
 * Rotation: the presented refresh token is spent and a new one issued in its family. Presenting a
 * spent token again means it leaked: the whole family is revoked, and with it (denylist) every access
 * token issued in that session. Failed refreshes are throttled per address (RATE_LIMIT_LOGIN_IP).
 */
export async function refresh(
  d: AuthDeps,
  throttle: LoginThrottle,
  ctx: RequestContext,
  refreshToken: string,
) {
  const bucket = `refresh-ip:${ctx.ip}`;
  const block = await throttle.blocked([bucket]);
  if (block) throw tooManyRequests(block.retryAfterSeconds, 'Too many failed refreshes; retry later.');
  const now = d.clock.now();
  const row = await d.db
    .selectFrom('refresh_tokens')
    .selectAll()
    .where('token_hash', '=', sha256(refreshToken))
    .executeTakeFirst();
  const invalid = async () => {
    await throttle.fail(bucket, d.config.rateLimits.loginIp);
    return unauthorized('invalid_refresh_token', 'The refresh token is unknown, expired or revoked.');
  };
  if (!row || new Date(row.expires_at) <= now) throw await invalid();
  if (row.revoked_at) {
    await revokeSession(d, row.family_id, 'refresh token reuse');
    ctx.log.warn({ user_id: row.user_id }, 'refresh token reuse: family and its access tokens revoked');
    throw await invalid();
  }
  const spent = await d.db
    .updateTable('refresh_tokens')
    .set({ revoked_at: now })
    .where('id', '=', row.id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  // A concurrent refresh with the same token spent it first: that one won, this one is refused.
  if (Number(spent.numUpdatedRows) !== 1) throw await invalid();
  d.principals.invalidate(row.user_id);
  assertMayLogIn(d, await d.principals.get(row.user_id));
  const out = await tokenResponse(d, row.user_id, row.family_id);
  await d.db
    .updateTable('refresh_tokens')
    .set({ replaced_by: out.refreshId })
    .where('id', '=', row.id)
    .execute();
  return out.body;
}

/**
 * Ends the session the refresh token belongs to: its refresh tokens, and at once every access token
 * issued in it (denylist). Unknown or already revoked tokens also answer `revoked: true`.
 */
export async function logout(d: AuthDeps, refreshToken: string) {
  const row = await d.db
    .selectFrom('refresh_tokens')
    .select('family_id')
    .where('token_hash', '=', sha256(refreshToken))
    .executeTakeFirst();
  if (row) await revokeSession(d, row.family_id, 'logout');
  return { revoked: true };
}

/**
 * Revokes a session: every refresh token of the family, and a denylist row for its `sid` that lives
 * as long as any access token issued in it can (the longest access-token lifetime), in one
 * transaction.
 */
export async function revokeSession(d: AuthDeps, familyId: string, reason: string) {
  const now = d.clock.now();
  const until = new Date(now.getTime() + d.tokens.maxAccessLifetimeSeconds() * 1000);
  await d.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('refresh_tokens')
      .set({ revoked_at: now })
      .where('family_id', '=', familyId)
      .where('revoked_at', 'is', null)
      .execute();
    await d.principals.revoke({ sessionId: familyId }, until, reason, trx);
  });
}
