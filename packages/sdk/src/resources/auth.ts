/** Authentication: login stores the token on the client, so the next calls are authenticated. */
import { unwrap } from '../core/result.ts';
import type { ClientContext, RequestOptions } from './context.ts';
import type { BodyOf, QueryOf } from './types.ts';

/**
 * The `auth` namespace.
 *
 * @example
 * const { access_token } = await travel.auth.login({ email, password }); // later calls send the token
 */
export function authResource(ctx: ClientContext) {
  return {
    /**
     * POST /api/v1/auth/login; the client keeps the session (access and refresh token) and renews it by
     * itself from then on (`onTokens` of `auth: { … }` hears of each new pair).
     */
    async login(body: BodyOf<'/api/v1/auth/login', 'post'>, options?: RequestOptions) {
      ctx.session.reopen();
      const data = await unwrap(ctx.raw.POST('/api/v1/auth/login', { body, ...ctx.init(options) }));
      await ctx.session.store(data);
      return data;
    },
    /** POST /api/v1/auth/refresh by hand; the client keeps the new pair. */
    async refresh(body: BodyOf<'/api/v1/auth/refresh', 'post'>, options?: RequestOptions) {
      const data = await unwrap(ctx.raw.POST('/api/v1/auth/refresh', { body, ...ctx.init(options) }));
      await ctx.session.store(data);
      return data;
    },
    /**
     * POST /api/v1/auth/logout with the refresh token the client holds (or the one passed), then forget
     * the session even if the server call fails. Later calls fail with `SessionEndedError` (`logged_out`)
     * until `auth.login()`; a client made with `{ email, password }` does not log in again by itself.
     *
     * @example
     * await travel.auth.logout();
     */
    async logout(body?: BodyOf<'/api/v1/auth/logout', 'post'>, options?: RequestOptions) {
      const refresh_token = body?.refresh_token ?? ctx.session.refreshToken;
      try {
        // Nothing to revoke (a fixed token, no body): only the local session ends.
        if (refresh_token === undefined && body === undefined) return undefined;
        // (Without a token, the body as given: the server names what is missing.)
        const sent = (refresh_token === undefined ? body : { ...body, refresh_token }) as NonNullable<
          typeof body
        >;
        return await unwrap(ctx.raw.POST('/api/v1/auth/logout', { body: sent, ...ctx.init(options) }));
      } finally {
        ctx.session.end();
      }
    },
    register: (body: BodyOf<'/api/v1/auth/register', 'post'>, options?: RequestOptions) =>
      unwrap(ctx.raw.POST('/api/v1/auth/register', { body, ...ctx.init(options) })),
    verifyEmail: (query: QueryOf<'/api/v1/auth/verify-email', 'get'>, options?: RequestOptions) =>
      unwrap(ctx.raw.GET('/api/v1/auth/verify-email', { params: { query }, ...ctx.init(options) })),
    me: (options?: RequestOptions) => unwrap(ctx.raw.GET('/api/v1/auth/me', { ...ctx.init(options) })),
    /** POST /api/v1/auth/impersonation/end: ends the impersonation token this client calls with. */
    endImpersonation: (options?: RequestOptions) =>
      unwrap(ctx.raw.POST('/api/v1/auth/impersonation/end', { body: {}, ...ctx.init(options) })),
    /** GET /join: the HTML page an invitation e-mail links to (as text), where the invitee sets a password. */
    invitationPage: (query: QueryOf<'/join', 'get'>, options?: RequestOptions) =>
      unwrap(ctx.raw.GET('/join', { params: { query }, parseAs: 'text', ...ctx.init(options) })),
  };
}
