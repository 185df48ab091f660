/**
 * `travel api-keys create|list|revoke`: a company admin's keys for servers and CI. Managing keys takes a
 * person's login (the server refuses a key with 403 `api_key_not_allowed`); super admins name the company
 * with --company-id. `create` prints the secret once (stdout, so it can be piped to a secret store);
 * `revoke` is guarded like every irreversible action.
 */
import { randomUUID } from 'node:crypto';
import { type components, unwrap } from '@travel/sdk';
import { Command } from 'commander';
import type { ApiKey } from '../api-key.ts';
import { action, examples, output, requireToken } from '../command-kit.ts';
import type { Ctx, Deps } from '../context.ts';
import { CliError, UsageError } from '../errors.ts';
import { ExitCode } from '../exit-codes.ts';
import { type Guard, parseGuard, typeToConfirm } from '../guard.ts';
import { numericId, oneOf } from '../parse.ts';
import { renderTable } from '../ui/table.ts';

type ApiKeyRole = components['schemas']['ApiKeyRole'];
const ROLES = ['company_staff', 'company_admin'] as const satisfies readonly ApiKeyRole[];

export interface CreateKeyOptions {
  name: string;
  role: ApiKeyRole;
  expiresAt: string | undefined;
}

/** `--expires`: `30d`, `12h`, a date (`2027-01-31`, end of that day UTC) or an RFC 3339 instant; future only. */
export function parseExpiry(raw: string | undefined, now: Date): string | undefined {
  if (raw === undefined) return undefined;
  const relative = /^(\d{1,5})([dh])$/.exec(raw.trim());
  let at: number;
  if (relative) at = now.getTime() + Number(relative[1]) * (relative[2] === 'd' ? 86_400_000 : 3_600_000);
  else if (/^\d{4}-\d\d-\d\d$/.test(raw)) at = Date.parse(`${raw}T23:59:59Z`);
  else at = Date.parse(raw);
  if (Number.isNaN(at))
    throw new UsageError(`--expires must be like 30d, 12h, 2027-01-31 or an RFC 3339 time, got "${raw}"`);
  if (at <= now.getTime()) throw new UsageError(`--expires must be in the future, got "${raw}"`);
  return new Date(at).toISOString();
}

export function parseCreateKeyOptions(
  raw: { name?: string; role?: string; expires?: string },
  now: Date,
): CreateKeyOptions {
  const name = raw.name?.trim();
  if (!name) throw new UsageError('missing --name (what the key is for, e.g. --name "CI smoke bookings")');
  if (name.length > 100) throw new UsageError('--name is at most 100 characters');
  return {
    name,
    role: (oneOf(raw.role, '--role', ROLES) as ApiKeyRole | undefined) ?? 'company_staff',
    expiresAt: parseExpiry(raw.expires, now),
  };
}

/** Keys are managed with a person's login: say so before the server's 403. */
function requirePersonLogin(ctx: Ctx): void {
  requireToken(ctx);
  const credential = ctx.credential();
  if (credential.kind === 'api_key') {
    throw new CliError(
      `managing API keys needs a company admin's login, not a key (${credential.source === 'TRAVEL_API_KEY' ? 'unset TRAVEL_API_KEY' : 'run `travel login`'})`,
      ExitCode.authentication,
    );
  }
}

export async function runApiKeysCreate(options: CreateKeyOptions, ctx: Ctx): Promise<void> {
  requirePersonLogin(ctx);
  const created = await unwrap(
    ctx.client().raw.POST('/api/v1/company/api-keys', {
      body: {
        name: options.name,
        role: options.role,
        ...(options.expiresAt ? { expires_at: options.expiresAt } : {}),
      },
      // One key per run even if the transport retries the request.
      headers: { 'Idempotency-Key': randomUUID() },
    }),
  );
  if (ctx.json) ctx.io.json(created);
  else if (created.key) ctx.io.out(created.key);
  if (!created.key) {
    ctx.io.err(
      `Key ${created.prefix}… (id ${created.id}) already existed for this request; its secret is not shown again.`,
    );
    return;
  }
  const { c } = ctx.io;
  ctx.io.err(
    c.yellow(
      `Store this key now: it is shown only once. ${created.prefix}… id ${created.id}, ${created.role}, ${created.mode}, ` +
        `expires ${created.expires_at ?? 'never (until revoked)'}.`,
    ),
  );
  ctx.io.err('Use it as TRAVEL_API_KEY (CI) or `travel login --api-key` (reads it from stdin).');
}

async function listKeys(ctx: Ctx, companyId: number | undefined, includeRevoked: boolean): Promise<ApiKey[]> {
  const items: ApiKey[] = [];
  for (let page = 1; ; page++) {
    const query = { page, page_size: 100, include_revoked: includeRevoked };
    const data =
      companyId === undefined
        ? await unwrap(ctx.client().raw.GET('/api/v1/company/api-keys', { params: { query } }))
        : await unwrap(
            ctx.client().raw.GET('/api/v1/admin/companies/{company_id}/api-keys', {
              params: { path: { company_id: companyId }, query },
            }),
          );
    items.push(...data.items);
    if (data.items.length === 0 || items.length >= data.total) return items;
  }
}

export function keyState(key: ApiKey, now: Date): 'active' | 'revoked' | 'expired' {
  if (key.revoked_at) return 'revoked';
  if (key.expires_at && Date.parse(key.expires_at) <= now.getTime()) return 'expired';
  return 'active';
}

export async function runApiKeysList(
  options: { companyId: number | undefined; includeRevoked: boolean },
  ctx: Ctx,
): Promise<void> {
  requirePersonLogin(ctx);
  const items = await listKeys(ctx, options.companyId, options.includeRevoked);
  const day = (iso: string | null) => (iso ? iso.slice(0, 16).replace('T', ' ') : '-');
  output(ctx, { items }, () => {
    if (items.length === 0) {
      ctx.io.err('No API keys. Create one with `travel api-keys create --name "…"`.');
      return;
    }
    for (const line of renderTable(
      ['id', 'name', 'prefix', 'role', 'mode', 'state', 'created', 'expires', 'last used'],
      items.map((k) => [
        String(k.id),
        k.name,
        `${k.prefix}…`,
        k.role,
        k.mode,
        keyState(k, ctx.now()),
        day(k.created_at),
        day(k.expires_at),
        day(k.last_used_at),
      ]),
    ))
      ctx.io.out(line);
  });
}

export async function runApiKeysRevoke(
  id: number,
  options: { companyId: number | undefined; guard: Guard },
  ctx: Ctx,
): Promise<void> {
  requirePersonLogin(ctx);
  const key = (await listKeys(ctx, options.companyId, true)).find((k) => k.id === id);
  if (!key) throw new CliError(`no API key ${id} in this company`, ExitCode.notFound);
  if (!options.guard.confirm) {
    output(ctx, key);
    ctx.io.err(
      `Nothing changed. Pass --confirm to revoke ${key.prefix}… "${key.name}" (anything using it fails at once).`,
    );
    return;
  }
  await typeToConfirm(ctx, options.guard, key.prefix, `Revoke API key ${id} "${key.name}"`);
  const revoked =
    options.companyId === undefined
      ? await unwrap(
          ctx.client().raw.DELETE('/api/v1/company/api-keys/{key_id}', { params: { path: { key_id: id } } }),
        )
      : await unwrap(
          ctx.client().raw.DELETE('/api/v1/admin/companies/{company_id}/api-keys/{key_id}', {
            params: { path: { company_id: options.companyId, key_id: id } },
          }),
        );
  output(ctx, revoked, () =>
    ctx.io.err(`Revoked API key ${revoked.prefix}… "${revoked.name}" at ${revoked.revoked_at}.`),
  );
}

const companyIdOption = (raw: string | undefined) =>
  raw === undefined ? undefined : numericId(raw, '--company-id');

export function apiKeysCommand(deps: Deps): Command {
  const keys = new Command('api-keys').description(
    'API keys for servers and CI (company admins; super admins with --company-id)',
  );
  keys.addCommand(
    examples(
      new Command('create')
        .description('create a key and print it ONCE on stdout (store it in your secret store now)')
        .option('--name <name>', 'what the key is for (required)')
        .option('--role <role>', `${ROLES.join(' | ')} (default company_staff)`)
        .option('--expires <when>', 'expiry: 30d, 12h, 2027-01-31 or an RFC 3339 time (default: never)')
        .action(
          action(deps, (ctx, raw: { name?: string; role?: string; expires?: string }) =>
            runApiKeysCreate(parseCreateKeyOptions(raw, ctx.now()), ctx),
          ),
        ),
      'travel api-keys create --name "CI smoke bookings" --expires 90d',
      'travel api-keys create --name "ERP integration" --role company_admin --json',
      'travel api-keys create --name ci | gh secret set TRAVEL_API_KEY',
    ),
  );
  keys.addCommand(
    examples(
      new Command('list')
        .description('the keys of your company: prefix, role, state, expiry, last use (never the secret)')
        .option('--include-revoked', 'also revoked keys')
        .option('--company-id <id>', "super admins: that company's keys")
        .action(
          action(deps, (ctx, raw: { includeRevoked?: boolean; companyId?: string }) =>
            runApiKeysList(
              { companyId: companyIdOption(raw.companyId), includeRevoked: Boolean(raw.includeRevoked) },
              ctx,
            ),
          ),
        ),
      'travel api-keys list',
      'travel api-keys list --include-revoked --json',
      'travel api-keys list --company-id 7',
    ),
  );
  keys.addCommand(
    examples(
      new Command('revoke')
        .argument('<id>', 'the key id (from `travel api-keys list`)')
        .description('revoke a key at once (guarded: shows the key unless --confirm)')
        .option('--confirm', 'really revoke (a terminal asks you to type the key prefix)')
        .option('--yes', 'with --confirm: do not ask (scripts)')
        .option('--company-id <id>', 'super admins: a key of that company')
        .action(
          action(deps, (ctx, raw: { confirm?: boolean; yes?: boolean; companyId?: string }, [id]) =>
            runApiKeysRevoke(
              numericId(id, '<id>'),
              { companyId: companyIdOption(raw.companyId), guard: parseGuard(raw, ctx.io.interactive) },
              ctx,
            ),
          ),
        ),
      'travel api-keys revoke 12',
      'travel api-keys revoke 12 --confirm',
      'travel api-keys revoke 12 --confirm --yes --json',
    ),
  );
  return examples(keys, 'travel api-keys list', 'travel api-keys create --name "CI smoke bookings"');
}
