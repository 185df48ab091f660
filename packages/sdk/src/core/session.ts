/**
 * A login session kept alive by the SDK (contracts §7): the access token is renewed with the refresh token
 * when it is about to expire (within `RENEW_BEFORE_MS`) or when the server answers 401 `token_expired`,
 * once for all concurrent calls (single flight); the rotated pair is handed to `onTokens` so the app can
 * persist it. A refresh the server refuses (revoked, expired or spent refresh token) ends the session with
 * `SessionEndedError`, raised again by every later call without asking the server, until a new login.
 */
import { AuthenticationError, createApiError, SessionEndedError, type TravelApiError } from './errors.ts';

/** Renew the access token when it expires within this many milliseconds. */
export const RENEW_BEFORE_MS = 60_000;

/** The tokens of a session after a login or a refresh: persist `refreshToken` to resume later. */
export interface SessionTokens {
  accessToken: string;
  refreshToken: string;
  /** When the access token expires (ms since the epoch), read from its `exp` claim. */
  accessTokenExpiresAt: number | undefined;
  /**
   * When the refresh token expires (ms since the epoch), from the server's `refresh_expires_in`;
   * undefined when the server does not say. After it the session has ended: log in again.
   */
  refreshTokenExpiresAt: number | undefined;
}

/** Called with every new pair of tokens (login, refresh). Awaited; what it throws fails the call. */
export type OnTokens = (tokens: SessionTokens) => void | Promise<void>;

/**
 * How a client authenticates (`createTravelClient({ auth })`):
 * - `{ apiKey }`: a company API key (`tk_test_…` / `tk_live_…`) sent as `X-API-Key`, for servers and CI;
 * - `{ email, password }`: logs in on the first call and keeps the session alive (and logs in again
 *   if the refresh token has ended);
 * - `{ refreshToken, accessToken? }`: resumes a session the app persisted (e.g. from `onTokens`).
 */
export type TravelAuth =
  | { apiKey: string }
  | { email: string; password: string; onTokens?: OnTokens }
  | { refreshToken: string; accessToken?: string; onTokens?: OnTokens };

/** What the session needs from the client: a POST to a public auth operation, and the clock. */
export interface SessionDeps {
  /** Resolves to the 2xx JSON body, or rejects with the typed error. */
  post(path: '/api/v1/auth/login' | '/api/v1/auth/refresh', body: unknown): Promise<unknown>;
  now(): number;
}

/** `exp` of a JWT in ms, without verifying it (the server does); undefined when unreadable. */
export function jwtExpiry(token: string): number | undefined {
  const part = token.split('.')[1];
  if (!part) return undefined;
  try {
    const json = atob(part.replace(/-/g, '+').replace(/_/g, '/'));
    const exp = (JSON.parse(json) as { exp?: unknown }).exp;
    return typeof exp === 'number' ? exp * 1000 : undefined;
  } catch {
    return undefined;
  }
}

interface TokenBody {
  access_token?: unknown;
  refresh_token?: unknown;
  refresh_expires_in?: unknown;
}

/** The session behind a client's bearer token. One per client. */
export class Session {
  #access: string | undefined;
  #refresh: string | undefined;
  #expiresAt: number | undefined;
  readonly #credentials: { email: string; password: string } | undefined;
  readonly #onTokens: OnTokens | undefined;
  readonly #deps: SessionDeps;
  #inflight: Promise<string | undefined> | undefined;
  #ended: TravelApiError | undefined;

  constructor(auth: TravelAuth | undefined, initialToken: string | undefined, deps: SessionDeps) {
    this.#deps = deps;
    this.#credentials = auth && 'email' in auth ? { email: auth.email, password: auth.password } : undefined;
    this.#onTokens = auth && 'onTokens' in auth ? auth.onTokens : undefined;
    if (auth && 'refreshToken' in auth) {
      this.#refresh = auth.refreshToken;
      if (auth.accessToken) this.#setAccess(auth.accessToken);
    } else if (initialToken) this.#setAccess(initialToken);
  }

  /** Whether the session can get a new access token by itself. */
  get renewable(): boolean {
    return this.#refresh !== undefined || this.#credentials !== undefined;
  }

  /** The access token to send now: renewed first when missing or expiring within a minute. */
  async accessToken(): Promise<string | undefined> {
    if (this.#ended) throw this.#ended;
    if (this.#inflight) return this.#inflight;
    if (this.#access && !this.#expiring()) return this.#access;
    if (!this.renewable) return this.#access;
    return this.#renew();
  }

  /**
   * After a 401 `token_expired` for the token `sent`: renews once however many calls failed together
   * (a call whose token was already replaced just retries). Resolves false when the session cannot
   * renew (a fixed token), so the 401 stands.
   */
  async renewAfterExpiry(sent: string | undefined): Promise<boolean> {
    if (this.#ended) throw this.#ended;
    if (!this.renewable) return false;
    if (this.#inflight) {
      await this.#inflight;
      return true;
    }
    if (this.#access !== undefined && sent !== this.#access) return true;
    await this.#renew();
    return true;
  }

  /** Keeps the tokens of a login or refresh made through `auth.login()` / `auth.refresh()`. */
  async store(body: unknown): Promise<void> {
    const {
      access_token: access,
      refresh_token: refresh,
      refresh_expires_in: ttl,
    } = (body ?? {}) as TokenBody;
    if (typeof access !== 'string') return;
    this.#ended = undefined;
    this.#setAccess(access);
    if (typeof refresh === 'string') this.#refresh = refresh;
    if (this.#onTokens && this.#refresh) {
      await this.#onTokens({
        accessToken: access,
        refreshToken: this.#refresh,
        accessTokenExpiresAt: this.#expiresAt,
        refreshTokenExpiresAt:
          typeof refresh === 'string' && typeof ttl === 'number' ? this.#deps.now() + ttl * 1000 : undefined,
      });
    }
  }

  /** The refresh token the session holds (what `auth.logout()` revokes when none is passed). */
  get refreshToken(): string | undefined {
    return this.#refresh;
  }

  /**
   * After `auth.logout()`: forgets the tokens, and the session stays ended (`SessionEndedError`, code
   * `logged_out`, without a request) until `auth.login()`: a client made with `{ email, password }` does
   * not log in again by itself.
   */
  end(): void {
    this.setAccessToken(undefined);
    this.#ended = new SessionEndedError({
      status: 401,
      code: 'logged_out',
      detail: 'Logged out; call auth.login() to start a new session.',
    });
  }

  /** Before `auth.login()`: a session ended by a logout may start again (the login sends no token). */
  reopen(): void {
    this.#ended = undefined;
  }

  /** Sets a bare access token (`auth.login()` of old, or `undefined` after a logout). */
  setAccessToken(token: string | undefined): void {
    if (token === undefined) {
      this.#access = undefined;
      this.#refresh = undefined;
      this.#expiresAt = undefined;
      return;
    }
    this.#setAccess(token);
  }

  #setAccess(token: string): void {
    this.#access = token;
    this.#expiresAt = jwtExpiry(token);
  }

  #expiring(): boolean {
    return this.#expiresAt !== undefined && this.#expiresAt - this.#deps.now() <= RENEW_BEFORE_MS;
  }

  #renew(): Promise<string | undefined> {
    this.#inflight ??= this.#doRenew().finally(() => {
      this.#inflight = undefined;
    });
    return this.#inflight;
  }

  async #doRenew(): Promise<string | undefined> {
    let body: unknown;
    if (this.#refresh) {
      try {
        body = await this.#deps.post('/api/v1/auth/refresh', { refresh_token: this.#refresh });
      } catch (error) {
        // A network failure or a 5xx says nothing about the refresh token: surface it, keep the session.
        if (!(error instanceof AuthenticationError)) throw error;
        this.#access = undefined;
        this.#refresh = undefined;
        if (!this.#credentials) {
          this.#ended = new SessionEndedError({
            status: error.status,
            code: error.code,
            detail: `The session has ended (${error.code}); log in again.`,
            requestId: error.requestId,
            body: error.body,
            cause: error,
          });
          throw this.#ended;
        }
      }
    }
    body ??= await this.#deps.post('/api/v1/auth/login', this.#credentials);
    await this.store(body);
    return this.#access;
  }
}

/** A `SessionDeps.post` over a fetch-like sender: JSON in, JSON or a typed error out. */
export function jsonPoster(
  baseUrl: string,
  send: (request: Request) => Promise<Response>,
): SessionDeps['post'] {
  return async (path, body) => {
    const response = await send(
      new Request(`${baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }),
    );
    const data = (await response.json().catch(() => undefined)) as unknown;
    if (!response.ok)
      throw createApiError({ status: response.status, body: data, headers: response.headers });
    return data;
  };
}
