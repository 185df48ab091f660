import type { Selectable } from 'kysely';
import { writeAudit } from '../../audit/audit-log.ts';
import type { Clock } from '../../internal/clock.ts';
import type { Config } from '../../internal/config.ts';
import { HashQueueFull } from '../../internal/hash-gate.ts';
import { newId, newSecretToken, sha256 } from '../../internal/ids.ts';
import { dummyHash, hashPassword, needsRehash, verifyPassword } from '../../internal/passwords.ts';
import { TokenError, type TokenService } from '../../internal/tokens.ts';
import { badRequest, forbidden, HttpError, tooManyRequests, unauthorized } from '../../kernel/errors.ts';
import { type PrincipalStore, standing } from '../../kernel/principal.ts';
import type { BodyOf, RequestContext, Role } from '../../kernel/types.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { LoginThrottle } from '../../rate-limit/login-throttle.ts';
import type { RateLimitStore } from '../../rate-limit/rate-limit-store.ts';
import type { Db, UsersTable } from '../../storage/schema.ts';
import { userView } from './user-view.ts';

export interface AuthDeps {
  db: Db;
  clock: Clock;
  config: Pick<Config, 'publicBaseUrl' | 'refreshTokenTtlSeconds' | 'rateLimits'>;
  tokens: TokenService;
  mailer: Mailer;
  rateLimits: RateLimitStore;
  principals: PrincipalStore;
}

/** The contract's `RegisterRequest`. */
type RegisterInput = BodyOf<'registerUser'>;

/** Roles a person may give themselves. Company roles come only from an invitation. */
const SELF_SERVICE_ROLES: ReadonlySet<string> = new Set(['customer']);

const credentialsError = () => unauthorized('invalid_credentials', 'Wrong email or password.');

const REGISTERED_VERIFIED = 'Registered. You can log in now.';
const REGISTERED_UNVERIFIED = 'Registered. Follow the link in the verification email, then log in.';

type UserRow = Selectable<UsersTable>;

/** The insert lost a race with a concurrent registration of the same address. */
class DuplicateEmail extends Error {}

export class AuthService {
  readonly #d: AuthDeps;
  readonly #throttle: LoginThrottle;
  constructor(deps: AuthDeps) {
    this.#d = deps;
    this.#throttle = new LoginThrottle({ db: deps.db, clock: deps.clock });
  }

  async #companyCode(companyId: number | null): Promise<string | null> {
    if (companyId === null) return null;
    const c = await this.#d.db
      .selectFrom('companies')
      .select('company_code')
      .where('id', '=', companyId)
      .executeTakeFirst();
    return c?.company_code ?? null;
  }

  async #limit(bucket: string, rule: { limit: number; windowSeconds: number }) {
    const d = await this.#d.rateLimits.hit(bucket, rule);
    if (!d.allowed) throw tooManyRequests(d.retryAfterSeconds, 'Too many attempts; retry later.');
  }

  /**
   * Self-registration. Whatever `role` is sent, it grants at most `customer`; a valid `invite_code`
   * grants exactly the invitation's role and company (and proves the address, so no verification mail).
   *
   * An address that already has an account gets the answer a new registration gets (same status, same
   * body shape, a password hashed at the same cost), and its owner gets a mail saying they already have
   * an account: the answer never tells a stranger which addresses exist. (With an invitation code the
   * caller holds a secret mailed to that address, so the invitation path may say so.)
   */
  async register(ctx: RequestContext, input: RegisterInput) {
    await this.#limit(`register-ip:${ctx.ip}`, this.#d.config.rateLimits.registerIp);
    const email = input.email.trim().toLowerCase();
    const now = this.#d.clock.now();
    let role: Role = 'customer';
    let companyId: number | null = null;
    let verified = false;

    if (input.invite_code) {
      const inv = await this.#d.db
        .selectFrom('invitations')
        .selectAll()
        .where('code', '=', sha256(input.invite_code))
        .executeTakeFirst();
      if (!inv || inv.used_at || new Date(inv.expires_at) <= now || inv.email.toLowerCase() !== email) {
        throw badRequest('invalid_invite_code', 'The invitation code is not valid for this email address.');
      }
      role = inv.role as Role;
      companyId = inv.company_id;
      verified = true;
    } else {
      const requested = input.role ?? 'customer';
      if (!SELF_SERVICE_ROLES.has(requested)) {
        throw badRequest(
          'role_not_allowed',
          `The role ${requested} cannot be self-registered; it needs an invitation.`,
        );
      }
      if (input.company_code) {
        const c = await this.#d.db
          .selectFrom('companies')
          .select(['id', 'status'])
          .where('company_code', '=', input.company_code)
          .executeTakeFirst();
        if (c?.status !== 'active' || !c) throw badRequest('invalid_company_code', 'Unknown company code.');
        companyId = c.id;
      }
    }

    const exists = await this.#d.db
      .selectFrom('users')
      .select('id')
      .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
      .executeTakeFirst();
    const alreadyRegistered = async () => {
      if (input.invite_code) {
        throw badRequest(
          'invalid_invite_code',
          'This address already has an account: log in instead (the invitation cannot create a second one).',
        );
      }
      return this.#alreadyRegistered(input, email, role, companyId);
    };
    if (exists) {
      // the same cost as a real registration
      await this.#hashed(() => hashPassword(input.password, undefined, { client: ctx.ip }));
      return alreadyRegistered();
    }

    const id = newId();
    const passwordHash = await this.#hashed(() =>
      hashPassword(input.password, undefined, { client: ctx.ip }),
    );
    const user = await this.#d.db
      .transaction()
      .execute(async (trx) => {
        if (input.invite_code) {
          const used = await trx
            .updateTable('invitations')
            .set({ used_at: now })
            .where('code', '=', sha256(input.invite_code))
            .where('used_at', 'is', null)
            .executeTakeFirst();
          if (Number(used.numUpdatedRows) !== 1) {
            throw badRequest(
              'invalid_invite_code',
              'The invitation code is not valid for this email address.',
            );
          }
        }
        const row = await trx
          .insertInto('users')
          .values({
            id,
            email,
            password_hash: passwordHash,
            full_name: input.full_name,
            role,
            status: verified ? 'active' : 'pending',
            company_id: companyId,
            phone: input.phone ?? null,
            department: input.department ?? null,
            user_code: input.user_code ?? null,
            email_verified_at: verified ? now : null,
            created_at: now,
            updated_at: now,
          })
          .returningAll()
          .executeTakeFirstOrThrow()
          .catch((err: { code?: string }) => {
            if (err.code === '23505') throw new DuplicateEmail();
            throw err;
          });
        if (input.invite_code) {
          await trx
            .updateTable('invitations')
            .set({ used_by: id })
            .where('code', '=', sha256(input.invite_code))
            .execute();
        }
        await writeAudit(trx, ctx, {
          entity: 'user',
          entityId: id,
          action: 'registered',
          reason: input.invite_code ? 'invitation accepted' : 'self-registration',
          changes: { role, company_id: companyId, status: row.status },
          companyId,
        });
        return row;
      })
      .catch((err: unknown) => {
        if (err instanceof DuplicateEmail) return undefined; // a concurrent registration of the address won
        throw err;
      });
    if (!user) return alreadyRegistered();

    if (!verified) await this.sendVerification(user.id, user.email, user.full_name);
    return {
      user: userView(user, await this.#companyCode(user.company_id)),
      verification_required: !verified,
      message: verified ? REGISTERED_VERIFIED : REGISTERED_UNVERIFIED,
    };
  }

  /**
   * The answer to registering an address that has an account: shaped like a new unverified account
   * (nothing of the real one), and a mail to the address saying it already has an account (with a
   * fresh verification link if it never verified).
   */
  async #alreadyRegistered(input: RegisterInput, email: string, role: Role, companyId: number | null) {
    const existing = await this.#d.db
      .selectFrom('users')
      .selectAll()
      .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
      .executeTakeFirst();
    if (existing) {
      const base = this.#d.config.publicBaseUrl;
      let text =
        `Hello ${existing.full_name},\n\nSomeone (probably you) tried to register a new account with this ` +
        `email address, but you already have an account. No new account was created.\n\n` +
        `Log in with your existing password: POST ${base}/api/v1/auth/login (or \`travel login\`).\n`;
      if (!existing.email_verified_at) {
        const token = await this.#d.tokens.signEmailVerification(existing.id, existing.email);
        text += `\nYour address is not verified yet; confirm it by opening this link:\n\n${this.#verifyLink(token)}\n`;
      }
      text += '\nIf this was not you, you can ignore this message; your account is unchanged.\n';
      await this.#d.mailer.send({ to: existing.email, subject: 'You already have an account', text });
    }
    const now = this.#d.clock.now();
    return {
      user: userView(
        {
          id: newId(),
          email,
          password_hash: '',
          full_name: input.full_name,
          role,
          status: 'pending',
          company_id: companyId,
          is_active: true,
          phone: input.phone ?? null,
          department: input.department ?? null,
          user_code: input.user_code ?? null,
          email_verified_at: null,
          suspended_until: null,
          status_reason: null,
          last_login_at: null,
          created_at: now,
          updated_at: now,
        } as Parameters<typeof userView>[0],
        await this.#companyCode(companyId),
      ),
      verification_required: true,
      message: REGISTERED_UNVERIFIED,
    };
  }

  #verifyLink(token: string) {
    return `${this.#d.config.publicBaseUrl}/api/v1/auth/verify-email?access_token=${encodeURIComponent(token)}&type=signup`;
  }

  async sendVerification(userId: string, email: string, fullName: string) {
    const token = await this.#d.tokens.signEmailVerification(userId, email);
    const link = this.#verifyLink(token);
    await this.#d.mailer.send({
      to: email,
      subject: 'Verify your email address',
      text: `Hello ${fullName},\n\nConfirm your email address by opening this link:\n\n${link}\n\nThe link expires in ${Math.round(this.#d.tokens.verifyTtlSeconds / 3600)} hours.\n`,
    });
    return link;
  }

  async verifyEmail(ctx: RequestContext, token: string | undefined) {
    if (!token) throw badRequest('verification_token_invalid', 'The verification link has no token.');
    let claims: { userId: string; email: string };
    try {
      claims = await this.#d.tokens.verifyEmailVerification(token);
    } catch (err) {
      if (err instanceof TokenError && err.reason === 'expired') {
        throw badRequest(
          'verification_token_expired',
          'The verification link has expired; register again or ask for a new one.',
        );
      }
      throw badRequest('verification_token_invalid', 'The verification link is not valid.');
    }
    const now = this.#d.clock.now();
    return this.#d.db.transaction().execute(async (trx) => {
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
      this.#d.principals.invalidate(u.id);
      return { verified: true, email: u.email, message: 'Email address verified. You can log in now.' };
    });
  }

  async #issue(
    user: { id: string; email: string; role: string; company_id: number | null },
    familyId?: string,
  ) {
    const now = this.#d.clock.now();
    const refreshId = newId();
    const sessionId = familyId ?? refreshId;
    const access = await this.#d.tokens.signAccess({
      userId: user.id,
      email: user.email,
      role: user.role as Role,
      companyId: user.company_id,
      sessionId,
    });
    const refresh = newSecretToken();
    await this.#d.db
      .insertInto('refresh_tokens')
      .values({
        id: refreshId,
        user_id: user.id,
        token_hash: sha256(refresh),
        family_id: sessionId,
        expires_at: new Date(now.getTime() + this.#d.config.refreshTokenTtlSeconds * 1000),
        created_at: now,
      })
      .execute();
    return { access, refresh, refreshId };
  }

  async #tokenResponse(userId: string, familyId?: string) {
    const u = await this.#d.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    const t = await this.#issue(u, familyId);
    return {
      body: {
        access_token: t.access,
        token_type: 'bearer' as const,
        expires_in: this.#d.tokens.accessTokenTtl(),
        refresh_token: t.refresh,
        refresh_expires_in: this.#d.config.refreshTokenTtlSeconds,
        user: userView(u, await this.#companyCode(u.company_id)),
      },
      refreshId: t.refreshId,
    };
  }

  #assertMayLogIn(p: Awaited<ReturnType<PrincipalStore['get']>>) {
    switch (standing(p, this.#d.clock.now())) {
      case 'user_suspended':
        throw forbidden('account_suspended', 'This account is suspended.');
      case 'user_inactive':
        throw forbidden('account_inactive', 'This account is not active.');
      case 'company_suspended':
        throw forbidden('company_suspended', "This account's company is suspended.");
      case 'gone':
        throw credentialsError();
      case 'ok':
    }
  }

  /**
   * Throttled on failures only (`LoginThrottle`): per account and client address
   * (RATE_LIMIT_LOGIN_ACCOUNT) and per address over all accounts (RATE_LIMIT_LOGIN_IP). A blocked client
   * gets 429 with Retry-After before its password is checked; the account's owner elsewhere, and every
   * client whose passwords are right, never are. An unverified address cannot log in (403
   * `email_not_verified`): the account would otherwise be usable by whoever typed someone else's email
   * address. A hash weaker than the current policy is replaced after a successful check.
   */
  async login(ctx: RequestContext, input: { email: string; password: string }) {
    const email = input.email.trim().toLowerCase();
    const { loginAccount, loginIp } = this.#d.config.rateLimits;
    const accountBucket = `acct:${email}|ip:${ctx.ip}`;
    const ipBucket = `ip:${ctx.ip}`;
    const busy = (retryAfterSeconds: number) =>
      tooManyRequests(retryAfterSeconds, 'Too many failed attempts from this client; retry later.');
    // Reserve before hashing: the account bucket of this client first, then the address's own bucket,
    // which an address the account logged in from before does not wait for (it still counts).
    const account = await this.#throttle.reserve(accountBucket, loginAccount);
    if (!account.ok) throw busy(account.retryAfterSeconds);
    let outcome: 'failed' | 'released' = 'released';
    let ipReserved = false;
    try {
      const known = await this.#throttle.known(email, ctx.ip);
      const address = await this.#throttle.reserve(ipBucket, loginIp, { force: known });
      if (!address.ok) throw busy(address.retryAfterSeconds);
      ipReserved = true;
      const u = await this.#d.db
        .selectFrom('users')
        .selectAll()
        .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
        .executeTakeFirst();
      const stored = u?.password_hash ?? (await dummyHash());
      const ok = await this.#hashed(() => verifyPassword(input.password, stored, { client: ctx.ip }));
      if (!u || !ok) {
        outcome = 'failed';
        throw credentialsError();
      }
      return await this.#admit(ctx, u, input.password, accountBucket);
    } finally {
      if (outcome === 'failed') {
        await this.#throttle.failed(accountBucket, loginAccount);
        if (ipReserved) await this.#throttle.failed(ipBucket, loginIp);
      } else {
        await this.#throttle.release(accountBucket);
        if (ipReserved) await this.#throttle.release(ipBucket);
      }
    }
  }

  /** A hash through the fair queue; a full lane of this client is 429 (the queue is bounded). */
  async #hashed<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof HashQueueFull)
        throw tooManyRequests(1, 'Too many password checks from this client are waiting; retry shortly.');
      throw err;
    }
  }

  /** The password was right: upgrade a weak hash, check the account may log in, issue tokens. */
  async #admit(ctx: RequestContext, u: UserRow, password: string, accountBucket: string) {
    if (needsRehash(u.password_hash)) {
      const upgraded = await this.#hashed(() => hashPassword(password, undefined, { client: ctx.ip }));
      await this.#d.db
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
    this.#d.principals.invalidate(u.id);
    this.#assertMayLogIn(await this.#d.principals.get(u.id));
    await this.#throttle.clear(accountBucket);
    await this.#throttle.remember(u.email.trim().toLowerCase(), ctx.ip);
    await this.#d.db
      .updateTable('users')
      .set({ last_login_at: this.#d.clock.now() })
      .where('id', '=', u.id)
      .execute();
    return (await this.#tokenResponse(u.id)).body;
  }

  /**
   * Rotation: the presented refresh token is spent and a new one issued in its family. Presenting a
   * spent token again means it leaked: the whole family is revoked, and with it (denylist) every access
   * token issued in that session. Failed refreshes are throttled per address (RATE_LIMIT_LOGIN_IP).
   */
  async refresh(ctx: RequestContext, refreshToken: string) {
    const bucket = `refresh-ip:${ctx.ip}`;
    const block = await this.#throttle.blocked([bucket]);
    if (block) throw tooManyRequests(block.retryAfterSeconds, 'Too many failed refreshes; retry later.');
    const now = this.#d.clock.now();
    const row = await this.#d.db
      .selectFrom('refresh_tokens')
      .selectAll()
      .where('token_hash', '=', sha256(refreshToken))
      .executeTakeFirst();
    const invalid = async () => {
      await this.#throttle.fail(bucket, this.#d.config.rateLimits.loginIp);
      return unauthorized('invalid_refresh_token', 'The refresh token is unknown, expired or revoked.');
    };
    if (!row || new Date(row.expires_at) <= now) throw await invalid();
    if (row.revoked_at) {
      await this.#revokeSession(row.family_id, 'refresh token reuse');
      ctx.log.warn({ user_id: row.user_id }, 'refresh token reuse: family and its access tokens revoked');
      throw await invalid();
    }
    const spent = await this.#d.db
      .updateTable('refresh_tokens')
      .set({ revoked_at: now })
      .where('id', '=', row.id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    // A concurrent refresh with the same token spent it first: that one won, this one is refused.
    if (Number(spent.numUpdatedRows) !== 1) throw await invalid();
    this.#d.principals.invalidate(row.user_id);
    this.#assertMayLogIn(await this.#d.principals.get(row.user_id));
    const out = await this.#tokenResponse(row.user_id, row.family_id);
    await this.#d.db
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
  async logout(refreshToken: string) {
    const row = await this.#d.db
      .selectFrom('refresh_tokens')
      .select('family_id')
      .where('token_hash', '=', sha256(refreshToken))
      .executeTakeFirst();
    if (row) await this.#revokeSession(row.family_id, 'logout');
    return { revoked: true };
  }

  /**
   * Ends the caller's impersonation: the token's `jti` goes on the denylist until it expires. Every
   * process reads an impersonation token's denylist entry fresh (no cache), so the next request with it
   * answers 401 wherever it lands. Audited with both identities.
   */
  async endImpersonation(ctx: RequestContext) {
    const a = ctx.auth;
    if (!a?.impersonatorId || !a.token)
      throw badRequest('not_impersonating', 'This access token is not an impersonation token.');
    const { token, impersonatorId, userId, companyId } = a;
    const body = { ended: true, user_id: userId, impersonator_id: impersonatorId };
    return ctx.transaction(async (trx) => {
      await this.#d.principals.revoke({ tokenId: token.id }, token.expiresAt, 'impersonation ended', trx);
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

  /**
   * Revokes a session: every refresh token of the family, and a denylist row for its `sid` that lives
   * as long as any access token issued in it can (the longest access-token lifetime), in one
   * transaction.
   */
  async #revokeSession(familyId: string, reason: string) {
    const now = this.#d.clock.now();
    const until = new Date(now.getTime() + this.#d.tokens.maxAccessLifetimeSeconds() * 1000);
    await this.#d.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('refresh_tokens')
        .set({ revoked_at: now })
        .where('family_id', '=', familyId)
        .where('revoked_at', 'is', null)
        .execute();
      await this.#d.principals.revoke({ sessionId: familyId }, until, reason, trx);
    });
  }

  async me(ctx: RequestContext) {
    if (!ctx.auth) throw unauthorized('not_authenticated', 'Authentication required.');
    const u = await this.#d.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', ctx.auth.userId)
      .executeTakeFirst();
    if (!u) throw new HttpError(401, 'invalid_token', 'The access token names no current user.');
    return userView(u, await this.#companyCode(u.company_id));
  }

  /** Creates the super_admin on first start (pre-verified). An existing account is left untouched. */
  async seedAdmin(email: string, password: string): Promise<{ created: boolean }> {
    const lower = email.trim().toLowerCase();
    const exists = await this.#d.db
      .selectFrom('users')
      .select('id')
      .where((eb) => eb(eb.fn('lower', ['email']), '=', lower))
      .executeTakeFirst();
    if (exists) return { created: false };
    const now = this.#d.clock.now();
    const id = newId();
    const passwordHash = await hashPassword(password);
    await this.#d.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('users')
        .values({
          id,
          email: lower,
          password_hash: passwordHash,
          full_name: 'Platform Administrator',
          role: 'super_admin',
          status: 'active',
          company_id: null,
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
        reason: 'admin seed on first start',
      });
    });
    return { created: true };
  }
}
