/**
 * A stored login that refreshes itself. Wraps the fetch the SDK client uses:
 *
 * - before a request, an access token that has expired or expires soon (jwt.ts) is refreshed first;
 * - a 401 `token_expired` / `invalid_token` answer is refreshed and the SAME request re-sent (its body and
 *   Idempotency-Key unchanged, so a booking retried after a refresh is still one booking);
 * - concurrent requests share ONE refresh (single flight), and processes sharing the profile take turns
 *   under the config file's lock: the one that comes second finds the rotated token in the file and uses
 *   it instead of presenting the spent one (which the server would treat as reuse and end the session);
 * - the rotated pair is written to the profile (conf: temp file + rename, mode 0600), with the new refresh
 *   token's expiry (`refresh_expires_at`, from the server's `refresh_expires_in`) for `auth status` and
 *   `config list`;
 * - a refresh the server refuses (401: the refresh token expired, was revoked by logout, or was reused)
 *   ends the session: the profile's tokens are cleared, `session_ended_at` recorded, and the request is
 *   answered with that 401, its detail replaced by "session ended; run `travel login`" (exit 3).
 *
 * Other refresh failures (429, 5xx, network) leave the stored login alone.
 *
 * Why not the SDK's own `auth: { refreshToken, onTokens }` session: it refreshes with the token it holds in
 * memory, whereas several `travel` processes share one profile file; the second to refresh would present
 * the spent token and the server would end the session for all of them. Here the refresh is taken under
 * the file's lock and starts by re-reading the file (test/session.test.ts, "four CLI processes").
 */
import type { ErrorCode, FetchLike } from '@travel/sdk';
import type { ConfigStore } from './config.ts';
import { expiresSoon } from './jwt.ts';

export const SESSION_ENDED = 'session ended; run `travel login`';

const REFRESH_PATH = '/api/v1/auth/refresh';
/** 401 codes after which a refresh may help (the access token is stale, or its session was revoked). */
const REFRESHABLE: ReadonlySet<string> = new Set<ErrorCode>(['token_expired', 'invalid_token']);

export interface SessionAuthOptions {
  config: ConfigStore;
  profileName: string;
  baseUrl: string;
  /** The transport underneath (default: the global fetch). */
  fetch?: FetchLike;
  now: () => number;
  /** One line per refresh attempt (--verbose). */
  log?: (line: string) => void;
}

export interface SessionAuth {
  /** The access token to send now (the SDK's getToken). */
  token(): string | undefined;
  /** The fetch to give the SDK. */
  fetch: FetchLike;
  /** True once the server refused the refresh token. */
  readonly ended: boolean;
  /** Refreshes this process made (tests, --verbose). */
  readonly refreshes: number;
}

type Outcome =
  | { kind: 'ok' }
  | { kind: 'ended'; response: Response }
  | { kind: 'failed'; response: Response };

export function createSessionAuth(options: SessionAuthOptions): SessionAuth {
  const base: FetchLike = options.fetch ?? ((request) => globalThis.fetch(request));
  const { config, profileName } = options;
  const stored = config.getProfile(profileName);
  let access = stored.token;
  let refreshToken = stored.refresh_token;
  let ended = false;
  let endedResponse: Response | undefined;
  let refreshes = 0;
  let inflight: Promise<Outcome> | undefined;

  const fresh = (token: string | undefined) => Boolean(token) && !expiresSoon(token, options.now());

  async function rotate(): Promise<Outcome> {
    return config.lock(async () => {
      // Another process may have rotated (or logged in, or out) while we waited for the lock.
      const now = config.getProfile(profileName);
      if (now.refresh_token !== refreshToken || now.token !== access) {
        access = now.token;
        refreshToken = now.refresh_token;
        if (fresh(access)) return { kind: 'ok' } as const;
      }
      if (!refreshToken) return endSession(undefined);
      const request = new Request(`${options.baseUrl}${REFRESH_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ refresh_token: refreshToken }),
      });
      const started = options.now();
      const response = await base(request);
      refreshes++;
      options.log?.(
        `> POST ${REFRESH_PATH} -> ${response.status} ${options.now() - started}ms` +
          ` request_id=${response.headers.get('x-request-id') ?? '-'}`,
      );
      if (response.ok) {
        const body = (await response.json()) as {
          access_token: string;
          refresh_token: string;
          refresh_expires_in?: number;
        };
        access = body.access_token;
        refreshToken = body.refresh_token;
        config.updateProfile(profileName, {
          token: access,
          refresh_token: refreshToken,
          refresh_expires_at: refreshExpiresAt(body.refresh_expires_in, options.now()),
        });
        return { kind: 'ok' } as const;
      }
      if (response.status === 401) return endSession(response);
      return { kind: 'failed', response } as const;
    });
  }

  async function endSession(refused: Response | undefined): Promise<Outcome> {
    ended = true;
    // `access` stays: requests keep carrying it, so they are recognised and answered "session ended" here.
    refreshToken = undefined;
    // Refused by the server: the session ended (expired, revoked, reused). Without a response the
    // profile was simply logged out meanwhile (another `travel logout`): nothing to record.
    if (refused) {
      config.clearCredentials(profileName);
      config.updateProfile(profileName, { session_ended_at: new Date(options.now()).toISOString() });
    }
    endedResponse = sessionEndedResponse(
      refused?.headers.get('x-request-id') ?? undefined,
      refused ? ((await errorCode(refused)) ?? 'invalid_refresh_token') : 'not_authenticated',
    );
    return { kind: 'ended', response: endedResponse.clone() };
  }

  /** One refresh for everyone holding `stale`; callers with an older token just pick up the new one. */
  function refresh(stale: string | undefined): Promise<Outcome> {
    if (ended && endedResponse) return Promise.resolve({ kind: 'ended', response: endedResponse.clone() });
    if (inflight) return inflight;
    if (access !== stale && fresh(access)) return Promise.resolve({ kind: 'ok' });
    inflight = rotate().finally(() => {
      inflight = undefined;
    });
    return inflight;
  }

  async function sessionFetch(request: Request): Promise<Response> {
    const sent = bearerOf(request);
    // Only requests carrying this session's token (the refresh call itself carries none).
    if (sent === undefined || new URL(request.url).pathname === REFRESH_PATH) return base(request);
    if (ended && endedResponse) return endedResponse.clone();
    let current = sent;
    if (!fresh(current)) {
      const outcome = await refresh(current);
      if (outcome.kind === 'ended') return outcome.response;
      // Refresh failed for now (429, 5xx): try the old token; the server decides.
      if (outcome.kind === 'ok' && access) current = access;
    }
    const spare = request.clone();
    const response = await base(withBearer(request, current, sent));
    if (response.status !== 401 || !REFRESHABLE.has((await errorCode(response)) ?? '')) return response;
    const outcome = await refresh(current);
    if (outcome.kind === 'ended') return outcome.response;
    if (outcome.kind === 'failed' || !access || access === current) return response;
    await response.body?.cancel().catch(() => undefined);
    // The same request (same body, same Idempotency-Key), with the new token.
    return base(withBearer(spare, access, sent));
  }

  return {
    token: () => access,
    fetch: sessionFetch,
    get ended() {
      return ended;
    },
    get refreshes() {
      return refreshes;
    },
  };
}

/**
 * The refresh token's expiry as an instant (the server says `refresh_expires_in` seconds, counted from its
 * answer), or undefined when the server does not say.
 */
export function refreshExpiresAt(refreshExpiresIn: unknown, now: number): string | undefined {
  return typeof refreshExpiresIn === 'number' && refreshExpiresIn > 0
    ? new Date(now + refreshExpiresIn * 1000).toISOString()
    : undefined;
}

function bearerOf(request: Request): string | undefined {
  const header = request.headers.get('authorization');
  const match = header ? /^Bearer\s+(.+)$/i.exec(header) : null;
  return match?.[1];
}

function withBearer(request: Request, token: string, sent: string): Request {
  if (token === sent) return request;
  const headers = new Headers(request.headers);
  headers.set('authorization', `Bearer ${token}`);
  return new Request(request, { headers });
}

async function errorCode(response: Response): Promise<string | undefined> {
  const body = (await response
    .clone()
    .json()
    .catch(() => undefined)) as { code?: unknown } | undefined;
  return typeof body?.code === 'string' ? body.code : undefined;
}

/** The refusal the server gave (its code and request id), with a detail that says what to do. */
function sessionEndedResponse(requestId: string | undefined, code: string): Response {
  const headers = new Headers({ 'content-type': 'application/json' });
  if (requestId) headers.set('x-request-id', requestId);
  return new Response(
    JSON.stringify({ detail: SESSION_ENDED, code, ...(requestId ? { request_id: requestId } : {}) }),
    { status: 401, headers },
  );
}
