import { createHash, timingSafeEqual } from 'node:crypto';
import type { TokenService } from '../../internal/tokens.ts';
import { TokenError } from '../../internal/tokens.ts';
import type { Middleware } from '../compose.ts';
import { forbidden, unauthorized } from '../errors.ts';
import { type PrincipalStore, standing } from '../principal.ts';
import type { Routes } from '../types.ts';

/**
 * Bearer JWT authentication for every operation whose security is not empty. The token proves who the
 * caller is (signature, issuer, audience, `exp`, `iat` not in the future, lifetime within the configured
 * maximum: `TokenService.verifyAccess`) unless it, or its session, is on the denylist (logout,
 * refresh-token reuse). What the caller may do (role, company, suspension) is read from the database per
 * request (cached briefly), so a suspension or a role change does not wait for the token to expire.
 * Both reads are cached for AUTH_STATUS_CACHE_MS per process; the process that revokes or suspends
 * sees it at once.
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
    if (await opts.principals.isRevoked(claims)) {
      throw unauthorized('invalid_token', 'The access token has been revoked (logged out); log in again.');
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

/**
 * METRICS_TOKEN: when set, the metrics endpoints (`GET /metrics`, `/metrics/*`) answer only a caller
 * sending `Authorization: Bearer <METRICS_TOKEN>` (compared in constant time); otherwise 401. Unset:
 * they stay public, as the spec lists them. Wraps the platform's handlers (a handler, not a middleware:
 * the contract gives these operations no security scheme).
 */
export function protectMetrics(routes: Routes, token: string | undefined): Routes {
  if (!token) return routes;
  const expected = createHash('sha256').update(token).digest();
  const out: Routes = { ...routes };
  for (const [key, handler] of Object.entries(routes)) {
    if (!/^GET \/metrics(\/|$)/.test(key) || !handler) continue;
    out[key] = async (ctx) => {
      const header = ctx.headers.authorization;
      const m = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
      if (!m?.[1]) throw unauthorized('not_authenticated', 'Send Authorization: Bearer <METRICS_TOKEN>.');
      const given = createHash('sha256').update(m[1]).digest();
      if (!timingSafeEqual(given, expected)) throw unauthorized('invalid_token', 'Wrong metrics token.');
      return handler(ctx);
    };
  }
  return out;
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
