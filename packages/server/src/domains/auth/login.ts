import { dummyHash, hashPassword, needsRehash, verifyPassword } from '../../internal/passwords.ts';
import { forbidden, tooManyRequests } from '../../kernel/errors.ts';
import type { RequestContext } from '../../kernel/types.ts';
import type { LoginThrottle } from '../../rate-limit/login-throttle.ts';
import { type AuthDeps, credentialsError, hashed, type UserRow } from './deps.ts';
import { assertMayLogIn, tokenResponse } from './sessions.ts';

/**
 * Throttled on failures only (`LoginThrottle`): per account and client address
 * (RATE_LIMIT_LOGIN_ACCOUNT) and per address over all accounts (RATE_LIMIT_LOGIN_IP). A blocked client
 * gets 429 with Retry-After before its password is checked; the account's owner elsewhere, and every
 * client whose passwords are right, never are. An unverified address cannot log in (403
 * `email_not_verified`): the account would otherwise be usable by whoever typed someone else's email
 * address. A hash weaker than the current policy is replaced after a successful check.
 */
export async function login(
  d: AuthDeps,
  throttle: LoginThrottle,
  ctx: RequestContext,
  input: { email: string; password: string },
) {
  const email = input.email.trim().toLowerCase();
  const { loginAccount, loginIp } = d.config.rateLimits;
  const accountBucket = `acct:${email}|ip:${ctx.ip}`;
  const ipBucket = `ip:${ctx.ip}`;
  const busy = (retryAfterSeconds: number) =>
    tooManyRequests(retryAfterSeconds, 'Too many failed attempts from this client; retry later.');
  // Reserve before hashing: the account bucket of this client first, then the address's own bucket,
  // which an address the account logged in from before does not wait for (it still counts).
  const account = await throttle.reserve(accountBucket, loginAccount);
  if (!account.ok) throw busy(account.retryAfterSeconds);
  let outcome: 'failed' | 'released' = 'released';
  let ipReserved = false;
  try {
    const known = await throttle.known(email, ctx.ip);
    const address = await throttle.reserve(ipBucket, loginIp, { force: known });
    if (!address.ok) throw busy(address.retryAfterSeconds);
    ipReserved = true;
    const u = await d.db
      .selectFrom('users')
      .selectAll()
      .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
      .executeTakeFirst();
    const stored = u?.password_hash ?? (await dummyHash());
    const ok = await hashed(() => verifyPassword(input.password, stored, { client: ctx.ip }));
    if (!u || !ok) {
      outcome = 'failed';
      throw credentialsError();
    }
    return await admit(d, throttle, ctx, u, input.password, accountBucket);
  } finally {
    if (outcome === 'failed') {
      await throttle.failed(accountBucket, loginAccount);
      if (ipReserved) await throttle.failed(ipBucket, loginIp);
    } else {
      await throttle.release(accountBucket);
      if (ipReserved) await throttle.release(ipBucket);
    }
  }
}

/** The password was right: upgrade a weak hash, check the account may log in, issue tokens. */
async function admit(
  d: AuthDeps,
  throttle: LoginThrottle,
  ctx: RequestContext,
  u: UserRow,
  password: string,
  accountBucket: string,
) {
  if (needsRehash(u.password_hash)) {
    const upgraded = await hashed(() => hashPassword(password, undefined, { client: ctx.ip }));
    await d.db
      .updateTable('users')
      .set({ password_hash: upgraded })
      .where('id', '=', u.id)
      .where('password_hash', '=', u.password_hash)
      .execute();
  }
  if (!u.email_verified_at) {
    throw forbidden(
      'email_not_verified',
      'Verify your email address first: follow the link in the verification email.',
    );
  }
  d.principals.invalidate(u.id);
  assertMayLogIn(d, await d.principals.get(u.id));
  await throttle.clear(accountBucket);
  await throttle.remember(u.email.trim().toLowerCase(), ctx.ip);
  await d.db.updateTable('users').set({ last_login_at: d.clock.now() }).where('id', '=', u.id).execute();
  return (await tokenResponse(d, u.id)).body;
}
