/**
 * What every run function receives: the injected world (io, prompter, config, sdk factory, clock) plus the
 * global flags resolved once (profile, base URL, token, --json, --verbose).
 */
import type { Logger, TravelClient } from '@travel/sdk';
import type { ConfigStore, Profile } from './config.ts';
import { redactTokens } from './errors.ts';
import type { IO } from './io.ts';
import type { Prompter } from './prompter.ts';
import { createSessionAuth, type SessionAuth } from './session.ts';

export interface ClientOptions {
  baseUrl: string;
  /** A fixed bearer token (TRAVEL_TOKEN, or none after `client({ token: '' })`). */
  token?: string | undefined;
  /** Sent as `X-API-Key` on every request. */
  apiKey?: string | undefined;
  /** A stored login that refreshes itself: its token and its fetch go to the SDK. */
  session?: SessionAuth | undefined;
  logger?: Logger | undefined;
}

/**
 * What this run authenticates with, first match wins: TRAVEL_API_KEY, TRAVEL_TOKEN, the profile's API key,
 * the profile's login (a session: access + refresh token).
 */
export type Credential =
  | { kind: 'none' }
  | { kind: 'api_key'; source: 'TRAVEL_API_KEY' | 'profile'; key: string }
  | { kind: 'token'; source: 'TRAVEL_TOKEN'; token: string }
  | { kind: 'session'; source: 'profile'; token: string; refreshToken: string | undefined };

export function resolveCredential(env: NodeJS.ProcessEnv, profile: Profile): Credential {
  const envKey = env.TRAVEL_API_KEY?.trim();
  if (envKey) return { kind: 'api_key', source: 'TRAVEL_API_KEY', key: envKey };
  if (env.TRAVEL_TOKEN) return { kind: 'token', source: 'TRAVEL_TOKEN', token: env.TRAVEL_TOKEN };
  if (profile.api_key) return { kind: 'api_key', source: 'profile', key: profile.api_key };
  if (profile.token)
    return { kind: 'session', source: 'profile', token: profile.token, refreshToken: profile.refresh_token };
  return { kind: 'none' };
}

/** The injectable world (real ones in deps.ts, fakes in tests). */
export interface Deps {
  io: IO;
  prompter: Prompter;
  config: ConfigStore;
  env: NodeJS.ProcessEnv;
  sdk(options: ClientOptions): TravelClient;
  now(): Date;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Loads what a command's run needs (the real SDK); awaited before every command runs. */
  prepare?(): Promise<void>;
}

/** Flags every command accepts (commander's optsWithGlobals()). */
export interface GlobalOptions {
  profile?: string;
  baseUrl?: string;
  json?: boolean;
  /** A jq expression applied to the --json document (implies --json). */
  jq?: string;
  verbose?: boolean;
}

export interface Ctx extends Deps {
  profileName: string;
  baseUrl: string;
  json: boolean;
  verbose: boolean;
  profile(): Profile;
  /** What this run authenticates with (see resolveCredential). */
  credential(): Credential;
  /** The token from TRAVEL_TOKEN or the profile (undefined when logged out or using an API key). */
  token(): string | undefined;
  /**
   * One client per command run, memoised, with the run's credential (a stored login refreshes itself).
   * `client({ token: '' })` is a fresh client without credentials (login).
   */
  client(override?: { token?: string }): TravelClient;
  /** The self-refreshing session behind `client()`, when the credential is a stored login. */
  session(): SessionAuth | undefined;
}

export const DEFAULT_BASE_URL = 'http://localhost:8080';

export function createContext(deps: Deps, globals: GlobalOptions): Ctx {
  // --profile, then TRAVEL_PROFILE, then the one `travel config use` chose, then "default".
  const profileName =
    globals.profile || deps.env.TRAVEL_PROFILE || deps.config.getCurrentProfile() || 'default';
  const profile = () => deps.config.getProfile(profileName);
  const baseUrl = globals.baseUrl || deps.env.TRAVEL_BASE_URL || profile().base_url || DEFAULT_BASE_URL;
  const verbose = Boolean(globals.verbose) || deps.env.TRAVEL_DEBUG === '1';
  const credential = () => resolveCredential(deps.env, profile());
  const token = () => {
    const c = credential();
    return c.kind === 'token' || c.kind === 'session' ? c.token : undefined;
  };
  let client: TravelClient | undefined;
  let session: SessionAuth | undefined;
  // --verbose: one redacted line per HTTP attempt on stderr (the SDK redacts bodies; we strip bearer tokens).
  const logger: Logger | undefined = verbose
    ? {
        debug: (_message, r) =>
          deps.io.err(
            redactTokens(
              `> ${r.method} ${r.path} -> ${r.status ?? 'no response'} ${r.latencyMs}ms` +
                ` attempt=${r.attempt} request_id=${r.requestId ?? '-'}` +
                (r.idempotencyKey ? ` idempotency_key=${r.idempotencyKey}` : '') +
                (r.body !== undefined ? ` body=${JSON.stringify(r.body)}` : '') +
                (r.error ? ` error=${r.error}` : ''),
            ),
          ),
      }
    : undefined;
  return {
    ...deps,
    profileName,
    baseUrl,
    json: Boolean(globals.json || globals.jq),
    verbose,
    profile,
    credential,
    token,
    client(override) {
      if (override) {
        session = undefined;
        client = deps.sdk({ baseUrl, token: override.token, logger });
        return client;
      }
      if (!client) {
        const c = credential();
        if (c.kind === 'session') {
          session = createSessionAuth({
            config: deps.config,
            profileName,
            baseUrl,
            now: () => deps.now().getTime(),
            ...(verbose ? { log: (line: string) => deps.io.err(line) } : {}),
          });
        }
        client = deps.sdk({
          baseUrl,
          token: c.kind === 'token' ? c.token : undefined,
          apiKey: c.kind === 'api_key' ? c.key : undefined,
          session,
          logger,
        });
      }
      return client;
    },
    session: () => session,
  };
}
