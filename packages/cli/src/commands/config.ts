/** `travel config get|set|list`: per-profile settings (base URL, company and user code, defaults). */
import { Command } from 'commander';
import { action, examples, output } from '../command-kit.ts';
import { type Profile, SETTABLE_KEYS, type SettableKey } from '../config.ts';
import type { Ctx, Deps } from '../context.ts';
import { UsageError } from '../errors.ts';

export function parseConfigKey(key: string | undefined): SettableKey {
  const normalised = (key ?? '').replace(/-/g, '_');
  if (!(SETTABLE_KEYS as readonly string[]).includes(normalised)) {
    throw new UsageError(`unknown key "${key ?? ''}"; one of ${SETTABLE_KEYS.join(', ')}`);
  }
  return normalised as SettableKey;
}

/** Never print tokens: `config list` shows whether one is stored. */
export function publicProfile(profile: Profile): Record<string, string> {
  const { token, refresh_token: _r, ...rest } = profile;
  return { ...(rest as Record<string, string>), logged_in: token ? 'yes' : 'no' };
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
    Object.entries(ctx.config.listProfiles()).map(([name, p]) => [name, publicProfile(p)]),
  );
  output(ctx, { file: ctx.config.path, current: ctx.profileName, profiles }, () => {
    ctx.io.err(`# ${ctx.config.path}`);
    for (const [name, profile] of Object.entries(profiles)) {
      ctx.io.out(`[${name}]${name === ctx.profileName ? ' (current)' : ''}`);
      for (const [key, value] of Object.entries(profile)) ctx.io.out(`  ${key} = ${value}`);
    }
  });
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
        .description('every profile and its settings (tokens hidden)')
        .action(action(deps, (ctx) => runConfigList(ctx))),
      'travel config list',
    ),
  );
  return examples(config, 'travel config list', 'travel config set company_code ACME');
}
