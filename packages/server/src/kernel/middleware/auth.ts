import { createHash, timingSafeEqual } from 'node:crypto';
import { type ApiKeyStore, isApiKeyShaped } from '../../api-keys/api-keys.ts';
import type { TokenService } from '../../internal/tokens.ts';
import { TokenError } from '../../internal/tokens.ts';
import type { Exchange } from '../context.ts';
import type { OpenApiDoc, Operation } from '../contract.ts';
import { forbidden, tooManyRequests, unauthorized } from '../errors.ts';
import { type Principal, type PrincipalStore, refuseStanding, standing } from '../principal.ts';
import type { AuthContext, HandlerTable, Role } from '../types.ts';

/**
 * Authentication for every operation whose security is not empty: a bearer JWT, or an API key (issue 16)
 * sent as `X-API-Key: tk_...` or `Authorization: Bearer tk_...`.
 *
 * The token proves who the caller is (signature, issuer, audience, `exp`, `iat` not in the future,
 * lifetime within the configured maximum: `TokenService.verifyAccess`) unless it, or its session, is on
 * the denylist (logout, refresh-token reuse). What the caller may do (role, company, suspension) is read
 * from the database per request (cached briefly), so a suspension or a role change does not wait for the
 * token to expire. Both reads are cached for AUTH_STATUS_CACHE_MS per process; the process that revokes
 * or suspends sees it at once.
 *
 * An API key is looked up on every request (never cached: a revoked or expired key is refused at once in
 * every process), then counted against its own rate limit. It is accepted only where the operation's
 * security lists `apiKeyAuth` (company surfaces, bookings, searches); elsewhere (platform admin, the
 * caller's own account, key management) a valid key is 403 `api_key_not_allowed`.
 */
export function authenticator(opts: {
  tokens: TokenService;
  principals: PrincipalStore;
}): (ex: Exchange) => Promise<void> | undefined {
  const { tokens, principals } = opts;
  async function bearer(ex: Exchange, token: string): Promise<void> {
    let claims: Awaited<ReturnType<TokenService['verifyAccess']>>;
    try {
      claims = await tokens.verifyAccess(token);
    } catch (err) {
      if (err instanceof TokenError && err.reason === 'expired') {
        throw unauthorized('token_expired', 'The access token has expired; refresh it or log in again.');
      }
      throw unauthorized('invalid_token', 'The access token is not valid.');
    }
    if (claims.impersonatorId) {
      ex.ctx.auth = await impersonation(principals, claims);
      credentialCheck(ex.operation as Operation, ex.ctx.auth);
      return;
    }
    // The denylist and the principal are asked on every request; a cached answer is taken in line.
    if (principals.revokedNow(claims) ?? (await principals.isRevoked(claims))) {
      throw unauthorized('invalid_token', 'The access token has been revoked (logged out); log in again.');
    }
    const known = principals.cachedNow(claims.userId);
    const p = known === undefined ? await principals.get(claims.userId) : (known ?? undefined);
    assertStanding(p, principals);
    if (!p) throw unauthorized('invalid_token', 'The access token names no current user.');
    ex.ctx.auth = {
      userId: p.userId,
      email: p.email,
      role: p.role,
      companyId: p.companyId,
      companyCode: p.companyCode,
      token: { id: claims.tokenId, expiresAt: claims.expiresAt },
    };
  }
  async function apiKey(ex: Exchange, op: Operation, secret: string): Promise<void> {
    ex.ctx.auth = await apiKeyCaller(principals, op, secret);
  }
  /** Undefined when there is nothing to check (a public operation, or optional auth without credentials). */
  return function authStep(ex) {
    const op = ex.operation;
    if (!op) return undefined;
    const header = ex.request.headers.get('authorization');
    const apiKeyHeader = ex.request.headers.get('x-api-key');
    if (op.public || (op.optionalAuth && !header && apiKeyHeader === null)) return undefined;
    const m = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    // One credential rule (issue 33): X-API-Key or Authorization, or both carrying the identical value,
    // which counts as one (a generated client that answers every security scheme with one token sends
    // it in both). Two different values are refused: the server never picks one of two callers.
    if (apiKeyHeader !== null && !(m?.[1] && m[1] === apiKeyHeader.trim())) {
      if (header) {
        throw unauthorized(
          'not_authenticated',
          'Send one credential: X-API-Key or Authorization, not two different ones (the same value in both counts as one).',
        );
      }
      return apiKey(ex, op, apiKeyHeader.trim());
    }
    if (!m?.[1]) throw unauthorized('not_authenticated', 'Send Authorization: Bearer <access_token>.');
    if (isApiKeyShaped(m[1])) return apiKey(ex, op, m[1]);
    return bearer(ex, m[1]);
  };
}

function assertStanding(p: Principal | undefined, principals: PrincipalStore): void {
  const s = standing(p, principals.clock.now());
  if (s === 'gone') throw unauthorized('invalid_token', 'The access token names no current user.');
  refuseStanding(s);
}

/**
 * The one place the credential policy (`x-credential-policy`, issue 28) is enforced: an API key only
 * where the policy is `api_key`; an impersonation token not where it is `own_session` (operations that
 * create a credential or give a principal power). A key's authority is thereby bounded by what keys may
 * do: no operation that creates, promotes or re-activates a principal, or makes a credential, takes one.
 */
export function credentialCheck(op: Operation, auth: Pick<AuthContext, 'apiKeyId' | 'impersonatorId'>): void {
  if (auth.apiKeyId !== undefined && op.credentialPolicy !== 'api_key') {
    throw forbidden(
      'api_key_not_allowed',
      'This operation does not accept API keys; call it with a user access token (Authorization: Bearer <access_token>).',
    );
  }
  if (auth.impersonatorId !== undefined && op.credentialPolicy === 'own_session') {
    throw forbidden(
      'impersonation_not_allowed',
      'This operation creates a credential or gives power: an impersonation token cannot call it.',
    );
  }
}

/**
 * An impersonation token is a session of the impersonator: on every request, read fresh from the
 * database (never from the per-process cache, so it holds within one request in every process), the
 * token must not be ended (`endImpersonation`, the denylist), the impersonated user must be in good
 * standing, and so must the impersonator, who must still be an active super_admin. Otherwise 401.
 */
async function impersonation(
  principals: PrincipalStore,
  claims: Awaited<ReturnType<TokenService['verifyAccess']>>,
): Promise<AuthContext> {
  const impersonatorId = claims.impersonatorId as string;
  const [revoked, actor, p] = await Promise.all([
    principals.isRevoked(claims, { fresh: true }),
    principals.get(impersonatorId, { fresh: true }),
    principals.get(claims.userId, { fresh: true }),
  ]);
  if (revoked) throw unauthorized('invalid_token', 'The impersonation has been ended.');
  if (standing(actor, principals.clock.now()) !== 'ok' || actor?.role !== 'super_admin') {
    throw unauthorized(
      'invalid_token',
      'The impersonation has ended: the impersonator is no longer an active super_admin.',
    );
  }
  assertStanding(p, principals);
  if (!p) throw unauthorized('invalid_token', 'The access token names no current user.');
  return {
    userId: p.userId,
    email: p.email,
    role: p.role,
    companyId: p.companyId,
    companyCode: p.companyCode,
    impersonatorId,
    token: { id: claims.tokenId, expiresAt: claims.expiresAt },
  };
}

/**
 * The caller behind an API key: its creator, acting with the key's role (never above the creator's
 * current role) in the key's company. The key's own errors never echo the key.
 */
async function apiKeyCaller(principals: PrincipalStore, op: Operation, secret: string): Promise<AuthContext> {
  const store = principals.apiKeys;
  const check = store ? await store.check(secret) : { status: 'invalid' as const };
  switch (check.status) {
    case 'invalid':
      throw unauthorized('invalid_api_key', 'The API key is not valid.');
    case 'revoked':
      throw unauthorized('api_key_revoked', `The API key ${check.key.prefix}… has been revoked.`);
    case 'expired':
      throw unauthorized('api_key_expired', `The API key ${check.key.prefix}… has expired.`);
    case 'ok':
      break;
  }
  const key = check.key;
  credentialCheck(op, { apiKeyId: String(key.id) });
  const decision = await (store as ApiKeyStore).hit(key);
  if (!decision.allowed)
    throw tooManyRequests(decision.retryAfterSeconds, 'This API key is over its rate limit.');
  const p = await principals.get(key.createdBy);
  assertStanding(p, principals);
  if (!p || p.companyId !== key.companyId || (p.role !== 'company_admin' && p.role !== 'company_staff')) {
    throw unauthorized(
      'api_key_revoked',
      `The API key ${key.prefix}… no longer has an owner in its company.`,
    );
  }
  const role: Role =
    key.role === 'company_admin' && p.role === 'company_admin' ? 'company_admin' : 'company_staff';
  return {
    userId: p.userId,
    email: p.email,
    role,
    companyId: key.companyId,
    companyCode: p.companyCode,
    apiKeyId: String(key.id),
  };
}

/**
 * METRICS_TOKEN: when set, the metrics endpoints (`GET /metrics`, `/metrics/*`) answer only a caller
 * sending `Authorization: Bearer <METRICS_TOKEN>` (compared in constant time); otherwise 401. Unset:
 * they stay public, as the spec lists them. Wraps the platform's handlers (a handler, not a middleware:
 * the contract gives these operations no security scheme).
 */
export function protectMetrics(
  routes: HandlerTable,
  token: string | undefined,
  doc: Pick<OpenApiDoc, 'paths'>,
): HandlerTable {
  if (!token) return routes;
  const expected = createHash('sha256').update(token).digest();
  const out: HandlerTable = { ...routes };
  // Handlers are keyed by operationId: the contract says which operations are the metrics paths.
  const guarded = Object.entries(doc.paths)
    .filter(([path]) => /^\/metrics(\/|$)/.test(path))
    .flatMap(([, item]) => {
      const id = (item.get as { operationId?: unknown } | undefined)?.operationId;
      return typeof id === 'string' ? [id] : [];
    });
  for (const key of guarded) {
    const handler = routes[key];
    if (!handler) continue;
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
export function roleCheck(ex: Exchange): void {
  const allowed = ex.operation?.roles;
  if (allowed && allowed.length > 0) {
    const role = ex.ctx.auth?.role;
    if (!role) throw unauthorized('not_authenticated', 'Authentication required.');
    if (!allowed.includes(role)) {
      throw forbidden('insufficient_role', `This operation needs one of the roles: ${allowed.join(', ')}.`);
    }
  }
}
