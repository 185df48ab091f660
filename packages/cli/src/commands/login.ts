/** `travel login`: prompt on a terminal, or --email with --password-stdin for scripts. */
import { Command } from 'commander';
import { action, examples, output } from '../command-kit.ts';
import type { Ctx, Deps } from '../context.ts';
import { UsageError } from '../errors.ts';

export interface LoginOptions {
  email: string | undefined;
  passwordStdin: boolean;
}

export function parseLoginOptions(
  raw: { email?: string; passwordStdin?: boolean },
  interactive: boolean,
): LoginOptions {
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
  const { io, prompter } = ctx;
  const email = options.email ?? (await prompter.input('Email', { default: ctx.profile().email ?? '' }));
  const password = options.passwordStdin
    ? (await io.readStdin()).replace(/\r?\n$/, '')
    : await prompter.password('Password');
  if (!password) throw new UsageError('empty password on stdin (--password-stdin)');
  const session = await ctx.client({ token: '' }).auth.login({ email, password });
  const user = session.user;
  ctx.config.updateProfile(ctx.profileName, {
    base_url: ctx.baseUrl,
    token: session.access_token,
    refresh_token: session.refresh_token,
    email: user.email,
    ...(user.company_code ? { company_code: user.company_code } : {}),
    ...(user.user_code ? { user_code: user.user_code } : {}),
  });
  output(ctx, { profile: ctx.profileName, base_url: ctx.baseUrl, user }, () =>
    io.err(`Logged in to ${ctx.baseUrl} as ${user.email} (${user.role}) on profile "${ctx.profileName}".`),
  );
}

export function loginCommand(deps: Deps): Command {
  const command = new Command('login')
    .description('log in and store the token in the profile (user-only file)')
    .option('--email <email>', 'account email (prompted on a terminal)')
    .option('--password-stdin', 'read the password from stdin (scripts, CI)')
    .action(
      action(deps, (ctx, raw: { email?: string; passwordStdin?: boolean }) =>
        runLogin(parseLoginOptions(raw, ctx.io.interactive), ctx),
      ),
    );
  return examples(
    command,
    'travel login',
    'printf %s "$TRAVEL_PASSWORD" | travel login --email agent@acme.test --password-stdin',
    'travel --profile staging --base-url https://staging.travel.example login',
  );
}
