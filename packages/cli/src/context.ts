/**
 * What every run function receives: the injected world (io, prompter, config, sdk factory, clock) plus the
 * global flags resolved once (profile, base URL, token, --json, --verbose).
 */
import type { Logger, TravelClient } from '@travel/sdk';
import type { ConfigStore, Profile } from './config.ts';
import { redactTokens } from './errors.ts';
import type { IO } from './io.ts';
import type { Prompter } from './prompter.ts';

export interface ClientOptions {
  baseUrl: string;
  token?: string | undefined;
  logger?: Logger | undefined;
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
}

/** Flags every command accepts (commander's optsWithGlobals()). */
export interface GlobalOptions {
  profile?: string;
  baseUrl?: string;
  json?: boolean;
  verbose?: boolean;
}

export interface Ctx extends Deps {
  profileName: string;
  baseUrl: string;
  json: boolean;
  verbose: boolean;
  profile(): Profile;
  /** The token from TRAVEL_TOKEN or the profile (undefined when logged out). */
  token(): string | undefined;
  /** One client per command run, memoised; set `token` after login with `client({ token })`. */
  client(override?: { token?: string }): TravelClient;
}

export const DEFAULT_BASE_URL = 'http://localhost:8080';

export function createContext(deps: Deps, globals: GlobalOptions): Ctx {
  const profileName = globals.profile || deps.env.TRAVEL_PROFILE || 'default';
  const profile = () => deps.config.getProfile(profileName);
  const baseUrl = globals.baseUrl || deps.env.TRAVEL_BASE_URL || profile().base_url || DEFAULT_BASE_URL;
  const verbose = Boolean(globals.verbose) || deps.env.TRAVEL_DEBUG === '1';
  const token = () => deps.env.TRAVEL_TOKEN || profile().token;
  let client: TravelClient | undefined;
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
    json: Boolean(globals.json),
    verbose,
    profile,
    token,
    client(override) {
      if (override || !client) client = deps.sdk({ baseUrl, token: override?.token ?? token(), logger });
      return client;
    },
  };
}
