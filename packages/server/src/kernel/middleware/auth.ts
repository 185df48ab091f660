import type { TokenService } from '../../internal/tokens.ts';
import { TokenError } from '../../internal/tokens.ts';
import type { Middleware } from '../compose.ts';
import { forbidden, unauthorized } from '../errors.ts';
import { type PrincipalStore, standing } from '../principal.ts';

/**
 * Bearer JWT authentication for every operation whose security is not empty. The token proves who the
 * caller is; what the caller may do (role, company, suspension) is read from the database per request
 * (cached briefly), so a suspension or a role change does not wait for the token to expire.
 */
export function authenticate(opts: { tokens: TokenService; principals: PrincipalStore }): Middleware {
  return async function authMiddleware(ex, next) {
    const op = ex.operation;
    if (!op) return next();
    const header = ex.request.headers.get('authorization');
    if (op.public || (op.optionalAuth && !header)) return next();
    const m = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!m?.[1]) throw unauthorized('not_authenticated', 'Send Authorization: Bearer <access_token>.');
    let claims: Awaited<ReturnType<TokenService['verifyAccess']>>;
    try {
      claims = await opts.tokens.verifyAccess(m[1]);
    } catch (err) {
      if (err instanceof TokenError && err.reason === 'expired') {
        throw unauthorized('token_expired', 'The access token has expired; refresh it or log in again.');
      }
      throw unauthorized('invalid_token', 'The access token is not valid.');
    }
    const p = await opts.principals.get(claims.userId);
    switch (standing(p, opts.principals.clock.now())) {
      case 'gone':
        throw unauthorized('invalid_token', 'The access token names no current user.');
      case 'user_suspended':
        throw forbidden('account_suspended', 'This account is suspended.');
      case 'user_inactive':
        throw forbidden('account_inactive', 'This account is not active.');
      case 'company_suspended':
        throw forbidden('company_suspended', "This account's company is suspended.");
      case 'ok':
        break;
    }
    if (!p) throw unauthorized('invalid_token', 'The access token names no current user.');
    ex.ctx.auth = {
      userId: p.userId,
      email: p.email,
      role: p.role,
      companyId: p.companyId,
      companyCode: p.companyCode,
      ...(claims.impersonatorId ? { impersonatorId: claims.impersonatorId } : {}),
    };
    await next();
  };
}

/** `x-roles`: the caller's current role must be listed. */
export function roles(): Middleware {
  return async function rolesMiddleware(ex, next) {
    const allowed = ex.operation?.roles;
    if (allowed && allowed.length > 0) {
      const role = ex.ctx.auth?.role;
      if (!role) throw unauthorized('not_authenticated', 'Authentication required.');
      if (!allowed.includes(role)) {
        throw forbidden('insufficient_role', `This operation needs one of the roles: ${allowed.join(', ')}.`);
      }
    }
    await next();
  };
}
