/**
 * Sign-in, tokens, registration and e-mail verification (`/api/v1/auth`), and the invitation page (`/join`).
 *
 * METHOD /path → operationId:
 *   POST /api/v1/auth/login → login
 *   POST /api/v1/auth/logout → logout
 *   POST /api/v1/auth/impersonation/end → endImpersonation
 *   GET  /api/v1/auth/me → getCurrentUser
 *   POST /api/v1/auth/refresh → refreshToken
 *   POST /api/v1/auth/register → registerUser
 *   GET  /api/v1/auth/verify-email → verifyEmail
 *   GET  /join → acceptInvitationPage
 */
import type { Routes } from '../../kernel/types.ts';
import { JOIN_PAGE, JOIN_PAGE_HEADERS } from './join-page.ts';
import type { AuthService } from './service.ts';

export function authRoutes(deps: { auth: AuthService }): Routes {
  const { auth } = deps;
  return {
    registerUser: async (ctx) => ({ status: 200, body: await auth.register(ctx, ctx.body) }),
    // The invitation mail's link: a form that registers with the invitation code.
    acceptInvitationPage: async () => ({ status: 200, headers: JOIN_PAGE_HEADERS, raw: JOIN_PAGE }),
    verifyEmail: async (ctx) => ({
      status: 200,
      body: await auth.verifyEmail(ctx, ctx.query.access_token),
    }),
    login: async (ctx) => ({
      status: 200,
      body: await auth.login(ctx, ctx.body),
    }),
    getCurrentUser: async (ctx) => ({ status: 200, body: await auth.me(ctx) }),
    refreshToken: async (ctx) => ({
      status: 200,
      body: await auth.refresh(ctx, ctx.body.refresh_token),
    }),
    logout: async (ctx) => ({
      status: 200,
      body: await auth.logout(ctx.body.refresh_token),
    }),
    endImpersonation: (ctx) => auth.endImpersonation(ctx),
  };
}
