import type { HttpHandler } from 'msw';
import { rngFor } from '../../shared/random.ts';
import type { Router } from './kit.ts';
import type { AmadeusState } from './state.ts';

/**
 * OAuth2 client-credentials (`POST /v1/security/oauth2/token`, form-encoded) and token info. Errors use the
 * security API's own body `{ error, error_description, code, title }`, not the `errors[]` of the data APIs.
 */

export interface Credentials {
  clientId: string;
  clientSecret: string;
}

/** The security API answers plain `application/json`, unlike the data APIs. */
const oauthJson = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const oauthError = (status: number, error: string, description: string): Response =>
  oauthJson(status, { error, error_description: description, code: 38187, title: 'Invalid parameters' });

export function authRoutes(
  r: Router,
  state: AmadeusState,
  credentials: Credentials[] | undefined,
): HttpHandler[] {
  const tokenBody = (token: string): Response => {
    const t = state.tokens.get(token);
    if (!t || t.expiresAt <= state.now())
      return oauthError(404, 'invalid_token', 'The access token is unknown or expired');
    return oauthJson(200, {
      type: 'amadeusOAuth2Token',
      username: 'sandbox@travel.example',
      application_name: 'travel-sandbox',
      client_id: t.clientId,
      token_type: 'Bearer',
      access_token: token,
      expires_in: Math.max(0, Math.floor((t.expiresAt - state.now()) / 1000)),
      state: 'approved',
      scope: '',
    });
  };
  return [
    r.publicPost('/v1/security/oauth2/token', async ({ request }) => {
      const type = request.headers.get('content-type') ?? '';
      if (!type.includes('application/x-www-form-urlencoded'))
        return oauthError(400, 'invalid_request', 'Mandatory grant_type form parameter missing');
      const form = new URLSearchParams(await request.text());
      const grant = form.get('grant_type');
      const clientId = form.get('client_id') ?? '';
      const secret = form.get('client_secret') ?? '';
      if (!grant) return oauthError(400, 'invalid_request', 'Mandatory grant_type form parameter missing');
      if (grant !== 'client_credentials')
        return oauthError(
          400,
          'unsupported_grant_type',
          'Only client_credentials value is allowed for the body parameter grant_type',
        );
      // Without configured credentials any non-empty pair is accepted (sandbox); with them, only those.
      const ok = credentials
        ? credentials.some((c) => c.clientId === clientId && c.clientSecret === secret)
        : clientId.length > 0 && secret.length > 0;
      if (!ok) return oauthError(401, 'invalid_client', 'Client credentials are invalid');
      const n = state.next('token');
      const token = rngFor(state.options.seed, 'token', clientId, n).code(
        30,
        'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
      );
      state.tokens.set(token, { clientId, expiresAt: state.now() + state.knobs.tokenTtlSeconds * 1000 });
      return tokenBody(token);
    }),
    r.publicGet('/v1/security/oauth2/token/:token', ({ params }) => tokenBody(params.token ?? '')),
  ];
}
