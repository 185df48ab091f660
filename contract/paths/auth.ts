import { int, jsonResponse, queryParam, ref, str, strEnum } from '../lib.ts';
import { type OpDef, surface } from '../op.ts';
import { badRequest, ok } from './shared.ts';

const defs: OpDef[] = [
  {
    method: 'post',
    path: '/api/v1/auth/register',
    operationId: 'registerUser',
    summary: 'Register a user',
    description:
      'Creates the account and emails a verification link (see `verification_required`). Company roles need a valid company_code or invite_code. ' +
      'An address that already has an account gets the same answer as a new one (200, a `RegisterResponse` of an unverified account that does not exist) and its owner is mailed that they already have an account: the answer never reveals which addresses are registered. ' +
      'With an invite_code for an address that already has an account: 400 `invalid_invite_code`. Limited per client address (RATE_LIMIT_REGISTER_IP): 429 with Retry-After.',
    auth: 'none',
    rateLimited: true,
    body: ref('RegisterRequest'),
    responses: ok('RegisterResponse', 'Registered; verify the email address before logging in.'),
    errors: badRequest('invalid_company_code', 'invalid_invite_code', 'role_not_allowed'),
  },
  {
    method: 'get',
    path: '/join',
    operationId: 'acceptInvitationPage',
    summary: 'Accept an invitation (HTML)',
    description:
      'Addition (not in the spec): the page the staff invitation mail links to. A form (name, password) that calls POST /api/v1/auth/register with the invitation code and address read from the query. Programs and the CLI call registerUser with `invite_code` directly.',
    auth: 'none',
    addition: true,
    parameters: [
      queryParam('invite_code', str({ maxLength: 128 })),
      queryParam('email', str({ maxLength: 320 })),
    ],
    responses: {
      200: { description: 'HTML page.', content: { 'text/html': { schema: str() } } },
    },
  },
  {
    method: 'get',
    path: '/api/v1/auth/verify-email',
    operationId: 'verifyEmail',
    summary: 'Email verification callback',
    description: 'The target of the verification link. Returns JSON only.',
    auth: 'none',
    parameters: [
      queryParam('access_token', str({ maxLength: 4096 })),
      queryParam('refresh_token', str({ maxLength: 4096 })),
      queryParam('expires_at', int({ minimum: 0, description: 'Unix seconds.' })),
      queryParam('token_type', str({ maxLength: 20 })),
      queryParam('type', strEnum(['signup', 'invite', 'email_change', 'recovery'])),
    ],
    responses: ok('VerifyEmailResponse', 'Verification outcome.'),
    errors: badRequest('verification_token_invalid', 'verification_token_expired'),
  },
  {
    method: 'post',
    path: '/api/v1/auth/login',
    operationId: 'login',
    summary: 'Log in with email and password',
    description:
      'Returns a bearer access token and a refresh token. Only failures are throttled: after RATE_LIMIT_LOGIN_ACCOUNT failures on one account from one client address, or RATE_LIMIT_LOGIN_IP failures from one address, that client gets 429 with Retry-After for a doubling delay; correct passwords, and the same account from another address, are never throttled.',
    auth: 'none',
    rateLimited: true,
    body: ref('LoginRequest'),
    responses: ok('TokenResponse', 'Logged in.'),
    errors: {
      401: {
        ...jsonResponse('Wrong email or password.', ref('ErrorResponse')),
        'x-error-codes': ['invalid_credentials'],
      },
      403: {
        ...jsonResponse('The account cannot log in.', ref('ErrorResponse')),
        'x-error-codes': ['email_not_verified', 'account_suspended', 'account_inactive', 'company_suspended'],
      },
    },
  },
  {
    method: 'get',
    path: '/api/v1/auth/me',
    operationId: 'getCurrentUser',
    summary: 'The caller’s profile',
    description: 'The profile of the caller taken from the token.',
    auth: 'user',
    responses: ok('User', 'The caller.'),
  },
  {
    method: 'post',
    path: '/api/v1/auth/refresh',
    operationId: 'refreshToken',
    summary: 'Exchange a refresh token for a new access token',
    description:
      'Addition (not in the spec). Rotates the refresh token: the returned refresh_token replaces the one sent, which stops working. Presenting a spent refresh token again revokes its whole session, including the access tokens issued in it. Failed refreshes are throttled per client address (429 with Retry-After).',
    auth: 'none',
    addition: true,
    rateLimited: true,
    body: ref('RefreshRequest'),
    responses: ok('TokenResponse', 'New tokens.'),
    errors: {
      401: {
        ...jsonResponse('The refresh token is unknown, expired or revoked.', ref('ErrorResponse')),
        'x-error-codes': ['invalid_refresh_token'],
      },
    },
  },
  {
    method: 'post',
    path: '/api/v1/auth/logout',
    operationId: 'logout',
    summary: 'Revoke a refresh token',
    description:
      'Addition (not in the spec). Ends the session of the refresh token: its refresh tokens and, at once, every access token issued in that session (they answer 401 `invalid_token`; other server processes within AUTH_STATUS_CACHE_MS). Idempotent: revoking an unknown or revoked token also answers revoked=true.',
    auth: 'none',
    addition: true,
    body: ref('RefreshRequest'),
    responses: ok('LogoutResult', 'Revoked.'),
  },
  {
    method: 'post',
    path: '/api/v1/auth/impersonation/end',
    operationId: 'endImpersonation',
    summary: 'End an impersonation',
    description:
      'Addition (not in the spec). Called with an impersonation token: that token answers 401 `invalid_token` from the next request on, in every server process. An impersonation also ends by itself when the impersonator is suspended, deactivated or no longer a super_admin (checked on every request, in every process). Called with any other token: 400 `not_impersonating`.',
    auth: 'user',
    addition: true,
    responses: ok('ImpersonationEnded', 'Ended.'),
    errors: badRequest('not_impersonating'),
  },
];

export const authOps = surface('auth', defs);
