import { writeAudit } from '../../audit/audit-log.ts';
import { newId } from '../../internal/ids.ts';
import { hashPassword } from '../../internal/passwords.ts';
import { HttpError, unauthorized } from '../../kernel/errors.ts';
import type { RequestContext } from '../../kernel/types.ts';
import { LoginThrottle } from '../../rate-limit/login-throttle.ts';
import { type AuthDeps, companyCode } from './deps.ts';
import { sendVerification, verifyEmail } from './email-verification.ts';
import { endImpersonation } from './impersonation.ts';
import { login } from './login.ts';
import { register } from './register.ts';
import { logout, refresh } from './sessions.ts';
import { userView } from './user-view.ts';

/**
 * The auth domain's service, built once (app.ts): one file per use case beside it (register.ts,
 * email-verification.ts, login.ts, sessions.ts, impersonation.ts), each a function of the deps; this
 * class holds the deps and the login throttle and names the use cases the routes call.
 */
export class AuthService {
  readonly #d: AuthDeps;
  readonly #throttle: LoginThrottle;
  constructor(deps: AuthDeps) {
    this.#d = deps;
    this.#throttle = new LoginThrottle({ db: deps.db, clock: deps.clock });
  }

  register(ctx: RequestContext, input: Parameters<typeof register>[2]) {
    return register(this.#d, ctx, input);
  }

  sendVerification(userId: string, email: string, fullName: string) {
    return sendVerification(this.#d, userId, email, fullName);
  }

  verifyEmail(ctx: RequestContext, token: string | undefined) {
    return verifyEmail(this.#d, ctx, token);
  }

  login(ctx: RequestContext, input: { email: string; password: string }) {
    return login(this.#d, this.#throttle, ctx, input);
  }

  refresh(ctx: RequestContext, refreshToken: string) {
    return refresh(this.#d, this.#throttle, ctx, refreshToken);
  }

  logout(refreshToken: string) {
    return logout(this.#d, refreshToken);
  }

  endImpersonation(ctx: RequestContext) {
    return endImpersonation(this.#d, ctx);
  }

  async me(ctx: RequestContext) {
    if (!ctx.auth) throw unauthorized('not_authenticated', 'Authentication required.');
    const u = await this.#d.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', ctx.auth.userId)
      .executeTakeFirst();
    if (!u) throw new HttpError(401, 'invalid_token', 'The access token names no current user.');
    return userView(u, await companyCode(this.#d, u.company_id));
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
