/** `travel config get|set|list|use`: per-profile settings (base URL, company and user code, defaults). */
import { Command } from 'commander';
import { keyPrefix } from '../api-key.ts';
import { action, examples, output } from '../command-kit.ts';
import { type Profile, SETTABLE_KEYS, type SettableKey } from '../config.ts';
import type { Ctx, Deps } from '../context.ts';
import { UsageError } from '../errors.ts';
import { expiryOf } from '../jwt.ts';

export function parseConfigKey(key: string | undefined): SettableKey {
  const normalised = (key ?? '').replace(/-/g, '_');
  if (!(SETTABLE_KEYS as readonly string[]).includes(normalised)) {
    throw new UsageError(`unknown key "${key ?? ''}"; one of ${SETTABLE_KEYS.join(', ')}`);
  }
  return normalised as SettableKey;
}

/**
 * Never print tokens or keys: `config list` shows whether one is stored and, without asking the server,
 * what is known about the session: the access token's expiry (read from the token), whether the refresh
 * token can renew it (until its own expiry, `refresh_expires_at`, which the server gave at the last login
 * or refresh), and a session that has ended ("logged out (session ended …)": the server refused the
 * refresh token, or its expiry has passed).
 */
export function publicProfile(profile: Profile, now: Date): Record<string, string> {
  const { token, refresh_token, refresh_expires_at, api_key, session_ended_at, listen_secret, ...rest } =
    profile;
  const out: Record<string, string> = { ...(rest as Record<string, string>) };
  // A signing secret: only whether there is one (`travel listen --print-secret` prints it).
  if (listen_secret) out.listen_secret = 'stored';
  const refreshUntil = refresh_token && refresh_expires_at ? new Date(refresh_expires_at) : undefined;
  const refreshKnown = refreshUntil !== undefined && !Number.isNaN(refreshUntil.getTime());
  const refreshable = Boolean(refresh_token) && !(refreshKnown && refreshUntil <= now);
  if (api_key) {
    out.logged_in = 'yes';
    out.session = `API key ${keyPrefix(api_key)}…`;
  } else if (token) {
    const exp = expiryOf(token);
    const renewal = refreshKnown
      ? refreshable
        ? `; renewable until ${refreshUntil.toISOString()}`
        : `; it cannot be renewed (refresh token expired ${refreshUntil.toISOString()})`
      : '';
    if (!exp || exp > now) {
      out.logged_in = 'yes';
      out.session = (exp ? `active; access token valid until ${exp.toISOString()}` : 'active') + renewal;
    } else if (refreshable) {
      out.logged_in = 'yes';
      out.session = `access token expired ${exp.toISOString()}; the next command refreshes it${renewal} (\`travel auth status\` checks now)`;
    } else if (refreshKnown) {
      out.logged_in = 'no';
      out.session = `logged out (session ended ${refreshUntil.toISOString()}: the refresh token expired)`;
    } else {
      out.logged_in = 'no';
      out.session = `logged out (access token expired ${exp.toISOString()}, no refresh token)`;
    }
  } else if (session_ended_at) {
    out.logged_in = 'no';
    out.session = `logged out (session ended ${session_ended_at})`;
  } else {
    out.logged_in = 'no';
  }
  return out;
}

export async function runConfigGet(key: SettableKey, ctx: Ctx): Promise<void> {
  const value = key === 'base_url' ? ctx.baseUrl : ctx.profile()[key];
  output(ctx, { profile: ctx.profileName, key, value: value ?? null }, () => ctx.io.out(value ?? ''));
}

export async function runConfigSet(key: SettableKey, value: string, ctx: Ctx): Promise<void> {
  ctx.config.updateProfile(ctx.profileName, {
    [key]: key === 'base_url' ? value.replace(/\/+$/, '') : value,
  });
  output(ctx, { profile: ctx.profileName, key, value }, () =>
    ctx.io.err(`Set ${key} on profile "${ctx.profileName}".`),
  );
}

export async function runConfigList(ctx: Ctx): Promise<void> {
  const profiles = Object.fromEntries(
    Object.entries(ctx.config.listProfiles()).map(([name, p]) => [name, publicProfile(p, ctx.now())]),
  );
  output(ctx, { file: ctx.config.path, current: ctx.profileName, profiles }, () => {
    ctx.io.err(`# ${ctx.config.path}`);
    for (const [name, profile] of Object.entries(profiles)) {
      ctx.io.out(`[${name}]${name === ctx.profileName ? ' (current)' : ''}`);
      for (const [key, value] of Object.entries(profile)) ctx.io.out(`  ${key} = ${value}`);
    }
  });
}

/**
 * `travel config use <profile>`: the profile later runs use when neither --profile nor TRAVEL_PROFILE
 * names one (like `gh auth switch`). The profile must exist, or be "default".
 */
export async function runConfigUse(name: string, ctx: Ctx): Promise<void> {
  const known = Object.keys(ctx.config.listProfiles());
  if (name !== 'default' && !known.includes(name))
    throw new UsageError(
      `no profile "${name}"; known: ${[...new Set(['default', ...known])].join(', ')} (create one with \`travel --profile ${name} login\` or \`config set\`)`,
    );
  ctx.config.setCurrentProfile(name);
  output(ctx, { current: name }, () => ctx.io.err(`Now using profile "${name}".`));
  if (ctx.env.TRAVEL_PROFILE && ctx.env.TRAVEL_PROFILE !== name)
    ctx.io.err(`Note: TRAVEL_PROFILE=${ctx.env.TRAVEL_PROFILE} is set in this shell and wins over it.`);
}

export function configCommand(deps: Deps): Command {
  const config = new Command('config').description('read and change per-profile settings');
  config.addCommand(
    examples(
      new Command('get')
        .argument('<key>', SETTABLE_KEYS.join(' | '))
        .description('print one setting')
        .action(action(deps, (ctx, _o, [key]) => runConfigGet(parseConfigKey(key), ctx))),
      'travel config get base_url',
    ),
  );
  config.addCommand(
    examples(
      new Command('set')
        .argument('<key>', SETTABLE_KEYS.join(' | '))
        .argument('<value>')
        .description('change one setting')
        .action(action(deps, (ctx, _o, [key, value]) => runConfigSet(parseConfigKey(key), value ?? '', ctx))),
      'travel --profile staging config set base_url https://staging.travel.example',
      'travel config set currency GBP',
    ),
  );
  config.addCommand(
    examples(
      new Command('list')
        .description('every profile and its settings (tokens and keys hidden; whether the session is alive)')
        .action(action(deps, (ctx) => runConfigList(ctx))),
      'travel config list',
    ),
  );
  config.addCommand(
    examples(
      new Command('use')
        .argument('<profile>', 'a profile name (see `travel config list`)')
        .description('make a profile the current one (used without --profile / TRAVEL_PROFILE)')
        .action(action(deps, (ctx, _o, [name]) => runConfigUse(name ?? '', ctx))),
      'travel config use staging',
      'travel config use default',
    ),
  );
  return examples(
    config,
    'travel config list',
    'travel config set company_code ACME',
    'travel config use staging',
  );
}
