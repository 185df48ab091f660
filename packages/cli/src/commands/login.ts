/** `travel login`: prompt on a terminal, or --email with --password-stdin for scripts. */
import { unwrap } from '@travel/sdk';
import { Command } from 'commander';
import { action, examples, output } from '../command-kit.ts';
import type { Ctx, Deps } from '../context.ts';
import { UsageError } from '../errors.ts';
import { refreshExpiresAt } from '../session.ts';

export interface LoginOptions {
  email: string | undefined;
  passwordStdin: boolean;
  /** Store an API key (read from stdin or a hidden prompt) instead of logging in with a password. */
  apiKey?: boolean;
}

export function parseLoginOptions(
  raw: { email?: string; passwordStdin?: boolean; apiKey?: boolean | string },
  interactive: boolean,
): LoginOptions {
  if (raw.apiKey !== undefined && raw.apiKey !== true) {
    // Never from an argument: it would land in the shell history and the process list.
    throw new UsageError('--api-key takes no value: pipe the key on stdin or type it at the prompt');
  }
  if (raw.apiKey) {
    if (raw.email || raw.passwordStdin)
      throw new UsageError('--api-key cannot be combined with --email or --password-stdin');
    return { email: undefined, passwordStdin: false, apiKey: true };
  }
  const options = { email: raw.email, passwordStdin: Boolean(raw.passwordStdin) };
  if (!interactive) {
    if (!options.email)
      throw new UsageError('missing --email (with --password-stdin); no terminal to ask on');
    if (!options.passwordStdin)
      throw new UsageError('missing --password-stdin; no terminal to ask for the password');
  }
  return options;
}

export async function runLogin(options: LoginOptions, ctx: Ctx): Promise<void> {
  if (options.apiKey) return runLoginApiKey(ctx);
  const { io, prompter } = ctx;
  const email = options.email ?? (await prompter.input('Email', { default: ctx.profile().email ?? '' }));
  const password = options.passwordStdin
    ? (await io.readStdin()).replace(/\r?\n$/, '')
    : await prompter.password('Password');
  if (!password) throw new UsageError('empty password on stdin (--password-stdin)');
  const previous = ctx.profile().refresh_token;
  const session = await ctx.client({ token: '' }).auth.login({ email, password });
  const user = session.user;
  ctx.config.updateProfile(ctx.profileName, {
    base_url: ctx.baseUrl,
    token: session.access_token,
    refresh_token: session.refresh_token,
    refresh_expires_at: refreshExpiresAt(session.refresh_expires_in, ctx.now().getTime()),
    api_key: undefined,
    session_ended_at: undefined,
    email: user.email,
    ...(user.company_code ? { company_code: user.company_code } : {}),
    ...(user.user_code ? { user_code: user.user_code } : {}),
  });
  await revokeQuietly(ctx, previous);
  output(ctx, { profile: ctx.profileName, base_url: ctx.baseUrl, user }, () =>
    io.err(`Logged in to ${ctx.baseUrl} as ${user.email} (${user.role}) on profile "${ctx.profileName}".`),
  );
}

/**
 * `travel login --api-key`: the key from stdin (piped) or a hidden prompt, checked against the server,
 * then stored in the profile (0600) in place of any login.
 */
async function runLoginApiKey(ctx: Ctx): Promise<void> {
  const { io } = ctx;
  let key: string;
  if (io.interactive) key = (await ctx.prompter.password('API key')).trim();
  else if (io.stdinIsTTY) throw new UsageError('--api-key: no terminal to ask on; pipe the key on stdin');
  else key = (await io.readStdin()).trim();
  if (!key) throw new UsageError('--api-key: no key given (pipe it on stdin, e.g. from your secret store)');
  if (/\s/.test(key)) throw new UsageError('--api-key: the key contains white space; pipe only the key');
  // A key may not call /auth/me: it describes itself, with the company and user codes searches name
  // (a revoked or unknown key stops here, exit 3).
  const client = ctx.sdk({ baseUrl: ctx.baseUrl, apiKey: key });
  const described = await unwrap(client.raw.GET('/api/v1/company/api-keys/current', {}));
  const profile = ctx.profile();
  ctx.config.updateProfile(ctx.profileName, {
    base_url: ctx.baseUrl,
    api_key: key,
    token: undefined,
    refresh_token: undefined,
    refresh_expires_at: undefined,
    session_ended_at: undefined,
    company_code: described.company_code,
    // The key acts as its creator: searches name the creator's user code (without one, the CLI names the
    // creator's id, read from the server when needed).
    user_code: described.user_code ?? undefined,
  });
  await revokeQuietly(ctx, profile.refresh_token);
  output(
    ctx,
    {
      profile: ctx.profileName,
      base_url: ctx.baseUrl,
      credential: 'api_key',
      api_key: described,
      company_code: described.company_code,
      user_code: described.user_code,
    },
    () => {
      io.err(
        `Stored API key ${described.prefix}… "${described.name}" (${described.role}, company ${described.company_code}, acts as ${described.user_code ?? described.created_by}) on profile "${ctx.profileName}" (${ctx.baseUrl}).`,
      );
    },
  );
}

/** Ends the session a profile held before (best effort: a new login must not fail because of it). */
async function revokeQuietly(ctx: Ctx, refreshToken: string | undefined): Promise<void> {
  if (!refreshToken) return;
  await ctx
    .sdk({ baseUrl: ctx.baseUrl })
    .raw.POST('/api/v1/auth/logout', { body: { refresh_token: refreshToken } })
    .catch(() => undefined);
}

export function loginCommand(deps: Deps): Command {
  const command = new Command('login')
    .description(
      'log in and store the session in the profile (user-only file); the session refreshes itself until it ends',
    )
    .option('--email <email>', 'account email (prompted on a terminal)')
    .option('--password-stdin', 'read the password from stdin (scripts, CI)')
    .option('--api-key', 'store an API key instead: read from stdin, or a hidden prompt (never an argument)')
    .action(
      action(deps, (ctx, raw: { email?: string; passwordStdin?: boolean; apiKey?: boolean }) =>
        runLogin(parseLoginOptions(raw, ctx.io.interactive), ctx),
      ),
    );
  return examples(
    command,
    'travel login',
    'printf %s "$TRAVEL_PASSWORD" | travel login --email agent@acme.test --password-stdin',
    'travel --profile staging --base-url https://staging.travel.example login',
    'travel login --api-key                          # hidden prompt',
    'vault read -field=key secret/travel | travel --profile ci login --api-key',
  );
}
