/**
 * `travel auth status`: who this run acts as, on which server, and with what: a stored login (access
 * token expiry; the refresh token renews it), an API key (its public prefix) or TRAVEL_TOKEN. It asks the
 * server (GET /auth/me, refreshing the session if it must), so it never reports a session that has ended.
 */
import { Command } from 'commander';
import { currentApiKey } from '../api-key.ts';
import { action, examples, output } from '../command-kit.ts';
import type { Ctx, Deps } from '../context.ts';
import { CliError } from '../errors.ts';
import { ExitCode } from '../exit-codes.ts';
import { decodeClaims } from '../jwt.ts';
import { SESSION_ENDED } from '../session.ts';

export interface AuthStatus {
  profile: string;
  base_url: string;
  logged_in: boolean;
  credential: 'session' | 'api_key' | 'token' | null;
  /** Where the credential came from: the profile, TRAVEL_API_KEY or TRAVEL_TOKEN. */
  source: string | null;
  user: {
    /** null for an API key: it acts as its creator (`api_key.created_by`) with its own role. */
    email: string | null;
    role: string;
    full_name: string | null;
    company_id: number | null;
    company_code: string | null;
    user_code: string | null;
  } | null;
  access_token: { expires_at: string | null; expires_in_seconds: number | null } | null;
  refresh_token: {
    stored: boolean;
    /** When the refresh token expires (the server's `refresh_expires_in` at the last login or refresh). */
    expires_at: string | null;
    expires_in_seconds: number | null;
    note: string;
  } | null;
  api_key: {
    prefix: string;
    id: number;
    name: string;
    role: string;
    mode: string;
    created_by: string;
    expires_at: string | null;
    last_used_at: string | null;
  } | null;
  /** This check itself had to refresh the session. */
  refreshed: boolean;
  session_ended_at: string | null;
}

export async function runAuthStatus(ctx: Ctx): Promise<void> {
  const credential = ctx.credential();
  const base = { profile: ctx.profileName, base_url: ctx.baseUrl };
  if (credential.kind === 'none') {
    const ended = ctx.profile().session_ended_at ?? null;
    const status: AuthStatus = {
      ...base,
      logged_in: false,
      credential: null,
      source: null,
      user: null,
      access_token: null,
      refresh_token: null,
      api_key: null,
      refreshed: false,
      session_ended_at: ended,
    };
    if (ctx.json) ctx.io.json(status);
    throw new CliError(
      ended
        ? `logged out (session ended ${ended}) on profile "${ctx.profileName}": ${SESSION_ENDED}`
        : `not logged in on profile "${ctx.profileName}" (${ctx.baseUrl}): run \`travel login\`, or set TRAVEL_API_KEY`,
      ExitCode.authentication,
    );
  }
  if (credential.kind === 'api_key') return apiKeyStatus(ctx, credential.source);
  const me = await ctx.client().auth.me();
  // The check may have rotated the tokens: describe what is stored now.
  const now = ctx.credential();
  const token = now.kind === 'session' || now.kind === 'token' ? now.token : undefined;
  const exp = decodeClaims(token)?.exp;
  const nowSeconds = ctx.now().getTime() / 1000;
  const status: AuthStatus = {
    ...base,
    logged_in: true,
    credential: now.kind === 'none' ? null : now.kind,
    source: now.kind === 'none' ? null : now.source,
    user: {
      email: me.email,
      role: me.role,
      full_name: me.full_name ?? null,
      company_id: me.company_id ?? null,
      company_code: me.company_code ?? null,
      user_code: me.user_code ?? null,
    },
    access_token: token
      ? {
          expires_at: exp ? new Date(exp * 1000).toISOString() : null,
          expires_in_seconds: exp ? Math.max(0, Math.round(exp - nowSeconds)) : null,
        }
      : null,
    refresh_token: now.kind === 'session' ? refreshStatus(ctx, Boolean(now.refreshToken), nowSeconds) : null,
    api_key: null,
    refreshed: (ctx.session()?.refreshes ?? 0) > 0,
    session_ended_at: null,
  };
  output(ctx, status, () => {
    const { io } = ctx;
    io.out(`${me.email} (${me.role}) on ${ctx.baseUrl}`);
    io.out(`  profile:       ${ctx.profileName}`);
    io.out(`  company:       ${me.company_code ?? '-'}  user code: ${me.user_code ?? '-'}`);
    if (now.kind === 'token') io.out('  credential:    TRAVEL_TOKEN (no refresh)');
    if (now.kind === 'session') io.out('  credential:    stored login (refreshes itself)');
    if (status.access_token)
      io.out(
        `  access token:  expires ${status.access_token.expires_at ?? 'unknown'}` +
          (status.access_token.expires_in_seconds !== null
            ? ` (in ${duration(status.access_token.expires_in_seconds)})`
            : ''),
      );
    const refresh = status.refresh_token;
    if (refresh)
      io.out(
        `  refresh token: ${
          !refresh.stored
            ? 'none: log in again when the access token expires'
            : refresh.expires_at
              ? `stored; expires ${refresh.expires_at} (in ${duration(refresh.expires_in_seconds ?? 0)}); renewed at every refresh`
              : 'stored; renewed at every refresh (expiry unknown: log in again to learn it)'
        }`,
      );
    if (status.refreshed) io.err('(the session was refreshed for this check)');
  });
}

/** An API key: the server describes it (a dead key answers 401 `api_key_revoked` / `api_key_expired`). */
async function apiKeyStatus(ctx: Ctx, source: string): Promise<void> {
  const key = await currentApiKey(ctx);
  const status: AuthStatus = {
    profile: ctx.profileName,
    base_url: ctx.baseUrl,
    logged_in: true,
    credential: 'api_key',
    source,
    user: {
      email: null,
      role: key.role,
      full_name: null,
      company_id: key.company_id,
      company_code: key.company_code,
      user_code: key.user_code,
    },
    access_token: null,
    refresh_token: null,
    api_key: {
      prefix: key.prefix,
      id: key.id,
      name: key.name,
      role: key.role,
      mode: key.mode,
      created_by: key.created_by,
      expires_at: key.expires_at,
      last_used_at: key.last_used_at,
    },
    refreshed: false,
    session_ended_at: null,
  };
  output(ctx, status, () => {
    const { io } = ctx;
    io.out(`API key ${key.prefix}… "${key.name}" (${key.role}) on ${ctx.baseUrl}`);
    io.out(`  profile:       ${ctx.profileName}`);
    io.out(
      `  company:       ${key.company_code} (id ${key.company_id})  acts as user ${key.created_by}` +
        `  user code: ${key.user_code ?? '-'}`,
    );
    io.out(
      `  credential:    API key from ${source === 'TRAVEL_API_KEY' ? 'TRAVEL_API_KEY' : 'the profile'} (${key.mode})`,
    );
    io.out(`  expires:       ${key.expires_at ?? 'never (until revoked)'}`);
    io.out(`  last used:     ${key.last_used_at ?? '-'}`);
  });
}

/** The stored refresh token: its expiry as the server gave it at the last login or refresh. */
function refreshStatus(
  ctx: Ctx,
  stored: boolean,
  nowSeconds: number,
): NonNullable<AuthStatus['refresh_token']> {
  const at = stored ? ctx.profile().refresh_expires_at : undefined;
  const ms = at ? Date.parse(at) : Number.NaN;
  const known = Number.isFinite(ms);
  return {
    stored,
    expires_at: known ? new Date(ms).toISOString() : null,
    expires_in_seconds: known ? Math.max(0, Math.round(ms / 1000 - nowSeconds)) : null,
    note: 'renewed at every refresh (a new token with a new lifetime, REFRESH_TOKEN_TTL_SECONDS); the server ends it earlier on logout or reuse',
  };
}

function duration(seconds: number): string {
  if (seconds < 120) return `${seconds}s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)}m`;
  if (seconds < 172_800) return `${Math.round(seconds / 3600)}h`;
  return `${Math.round(seconds / 86_400)}d`;
}

export function authCommand(deps: Deps): Command {
  const auth = new Command('auth').description('the credentials this profile uses');
  auth.addCommand(
    examples(
      new Command('status')
        .description(
          'who you are, on which server, role and company, and when the session expires (checked with the server; exit 3 when logged out)',
        )
        .action(action(deps, (ctx) => runAuthStatus(ctx))),
      'travel auth status',
      'travel --profile staging auth status --json',
      'TRAVEL_API_KEY=… travel auth status',
    ),
  );
  return examples(auth, 'travel auth status');
}
