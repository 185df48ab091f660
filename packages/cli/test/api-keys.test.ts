/**
 * API keys end to end, as processes of the built binary against the REAL server of the global setup,
 * through a counting proxy (which records the headers each request carried): a company admin creates,
 * lists and revokes keys; `travel login --api-key` stores one from stdin or a hidden prompt; CI runs
 * `TRAVEL_API_KEY=… travel smoke --json` with no login; a revoked key stops the same command at once.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { freshConfigDir, runCli } from './helpers/cli.ts';
import { type CountingProxy, startCountingProxy } from './helpers/counting-proxy.ts';
import { loginDir, runJson } from './helpers/flow.ts';
import { hasTmux, startTmux, type TmuxSession } from './helpers/tmux.ts';

const serverUrl = inject('serverUrl');
const agent = inject('agent');
let proxy: CountingProxy;
let env: Record<string, string>;
let adminDir: string;

beforeAll(async () => {
  proxy = await startCountingProxy(serverUrl);
  env = { TRAVEL_BASE_URL: proxy.url };
  if (agent) adminDir = await loginDir(env, agent);
});
afterAll(() => proxy?.close());

interface Created {
  id: number;
  key: string;
  prefix: string;
  role: string;
  mode: string;
  name: string;
}

async function createKey(name: string, extra: string[] = []): Promise<Created> {
  const r = await runJson<Created>(['api-keys', 'create', '--name', name, ...extra], {
    env,
    configDir: adminDir,
  });
  expect(r.code, r.stderr).toBe(0);
  return r.doc;
}

describe.skipIf(!agent)('travel api-keys (company admin)', () => {
  it('create prints the key once (stdout only the key, a warning on stderr); list never shows it', async () => {
    const human = await runCli(['api-keys', 'create', '--name', 'printed once', '--expires', '30d'], {
      env,
      configDir: adminDir,
    });
    expect(human.code, human.stderr).toBe(0);
    const key = human.stdout.trim();
    expect(key).toMatch(/^tk_test_[A-Za-z0-9_-]{20,}$/);
    expect(human.stdout).toBe(`${key}\n`);
    expect(human.stderr).toContain('Store this key now: it is shown only once.');
    expect(human.stderr).not.toContain(key);

    const json = await createKey('CI smoke', ['--role', 'company_staff']);
    expect(json).toMatchObject({ name: 'CI smoke', role: 'company_staff', mode: 'test' });
    expect(json.key.startsWith(json.prefix)).toBe(true);
    expect(json.prefix).toMatch(/^tk_test_[A-Za-z0-9_-]{8}$/);

    const list = await runJson<{ items: { id: number; prefix: string; name: string; revoked_at: null }[] }>(
      ['api-keys', 'list'],
      { env, configDir: adminDir },
    );
    expect(list.code, list.stderr).toBe(0);
    expect(list.doc.items.map((k) => k.prefix)).toEqual(
      expect.arrayContaining([json.prefix, key.slice(0, 16)]),
    );
    expect(list.stdout).not.toContain(json.key);
    expect(list.stdout).not.toContain(key);
    const table = await runCli(['api-keys', 'list'], { env, configDir: adminDir });
    expect(table.stdout).toMatch(/id\s+name\s+prefix\s+role\s+mode\s+state\s+created\s+expires\s+last used/);
    expect(table.stdout).toContain(`${json.prefix}…`);
    expect(table.stdout).not.toContain(json.key);
  });

  it('usage: --name is required, --role and --expires are checked (exit 2, nothing created)', async () => {
    proxy.reset();
    for (const [args, flag] of [
      [['api-keys', 'create'], '--name'],
      [['api-keys', 'create', '--name', 'x', '--role', 'super_admin'], '--role'],
      [['api-keys', 'create', '--name', 'x', '--expires', '2001-01-01'], '--expires'],
      [['api-keys', 'revoke', 'abc'], '<id>'],
    ] as const) {
      const r = await runCli([...args], { env, configDir: adminDir });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(flag);
    }
    expect(proxy.seen).toEqual([]);
  });

  it('CI: TRAVEL_API_KEY=… travel smoke --json books, pays, tickets and voids with no login; revoked: exit 3 within one request', async () => {
    const created = await createKey('CI smoke bookings');
    const ciDir = freshConfigDir(); // no login, no profile
    // Only the key: no TRAVEL_USER_CODE / TRAVEL_COMPANY_CODE. The key acts as its creator, who has a user
    // code; searches must name it, and the key learns it from the server (GET /company/api-keys/current).
    const ciEnv = {
      ...env,
      TRAVEL_API_KEY: created.key,
      TRAVEL_SMOKE_TAG: `key-${created.id}`,
    };
    expect(agent?.userCode).toBeTruthy();
    proxy.reset();
    const run = await runJson<{ ok: boolean; steps: { step: string; result: string }[] }>(['smoke'], {
      env: ciEnv,
      configDir: ciDir,
    });
    expect(run.code, run.stderr + run.stdout).toBe(0);
    expect(run.doc.ok).toBe(true);
    const steps = Object.fromEntries(run.doc.steps.map((s) => [s.step, s.result]));
    expect(steps).toMatchObject({
      login: 'ok',
      search: 'ok',
      book: 'ok',
      authorize: 'ok',
      capture: 'ok',
      ticket: 'ok',
      void: 'ok',
    });
    // Every request carried the key as X-API-Key, none a bearer token; nothing was written to disk.
    expect(proxy.seen.length).toBeGreaterThan(8);
    expect(proxy.seen.every((s) => s.apiKey === created.key && s.authorization === undefined)).toBe(true);
    expect(proxy.seen.some((s) => s.path === '/api/v1/auth/login' || s.path === '/api/v1/auth/me')).toBe(
      false,
    );
    // The codes the search named (the server 403s any but the creator's own) came from the key's own
    // description, asked once per run.
    expect(proxy.seen.filter((s) => s.path === '/api/v1/company/api-keys/current')).toHaveLength(1);
    expect(proxy.count('POST', '/api/v1/flight/getFare')).toBe(1);

    // Revoke it (guarded: without --confirm nothing changes).
    const dry = await runCli(['api-keys', 'revoke', String(created.id)], { env, configDir: adminDir });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toContain('Nothing changed. Pass --confirm');
    const still = await runCli(['whoami'], { env: ciEnv, configDir: ciDir });
    expect(still.code, still.stderr).toBe(0);
    expect(still.stdout).toContain(`API key ${created.prefix}…`);
    const revoked = await runJson<{ revoked_at: string }>(
      ['api-keys', 'revoke', String(created.id), '--confirm', '--yes'],
      { env, configDir: adminDir },
    );
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.doc.revoked_at).toMatch(/^\d{4}-/);

    proxy.reset();
    const after = await runJson<{ ok: boolean; steps: { step: string; result: string; code?: string }[] }>(
      ['smoke'],
      { env: { ...ciEnv, TRAVEL_SMOKE_TAG: `key-${created.id}-after` }, configDir: ciDir },
    );
    expect(after.code).toBe(3);
    expect(after.doc.ok).toBe(false);
    expect(after.doc.steps[0]).toMatchObject({ step: 'login', result: 'failed', code: 'api_key_revoked' });
    expect(proxy.seen).toHaveLength(1);
    expect(proxy.seen[0]).toMatchObject({ status: 401, apiKey: created.key });
  });

  it('login --api-key reads the key from stdin, stores it 0600, never prints it; TRAVEL_API_KEY overrides the stored login', async () => {
    const created = await createKey('terminal key');
    const dir = await loginDir(env, agent as NonNullable<typeof agent>);
    const r = await runCli(['login', '--api-key'], { env, configDir: dir, input: `${created.key}\n` });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`Stored API key ${created.prefix}…`);
    expect(r.stdout + r.stderr).not.toContain(created.key);
    const file = join(dir, 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const profile = JSON.parse(readFileSync(file, 'utf8')).profiles.default;
    expect(profile.api_key).toBe(created.key);
    // The codes searches name, as the server describes the key (its creator's).
    expect(profile).toMatchObject({ company_code: agent?.companyCode, user_code: agent?.userCode });
    expect(profile.token).toBeUndefined();
    expect(profile.refresh_token).toBeUndefined();

    const list = await runCli(['config', 'list'], { env, configDir: dir });
    expect(list.stdout).toContain(`session = API key ${created.prefix}…`);
    expect(list.stdout).not.toContain(created.key);

    proxy.reset();
    const status = await runJson<Record<string, unknown>>(['auth', 'status'], { env, configDir: dir });
    expect(status.code, status.stderr).toBe(0);
    expect(status.doc).toMatchObject({
      logged_in: true,
      credential: 'api_key',
      source: 'profile',
      api_key: { prefix: created.prefix, name: 'terminal key', role: 'company_staff' },
      user: { company_code: agent?.companyCode, user_code: agent?.userCode, role: 'company_staff' },
      access_token: null,
    });
    expect(JSON.stringify(status.doc)).not.toContain(created.key);
    expect(proxy.seen.every((s) => s.apiKey === created.key)).toBe(true);

    // TRAVEL_API_KEY wins over a stored login (CI on a developer machine).
    const other = await createKey('env key');
    const loggedIn = await loginDir(env, agent as NonNullable<typeof agent>);
    proxy.reset();
    const viaEnv = await runCli(['whoami', '--verbose'], {
      env: { ...env, TRAVEL_API_KEY: other.key },
      configDir: loggedIn,
    });
    expect(viaEnv.code, viaEnv.stderr).toBe(0);
    expect(viaEnv.stdout).toContain(`API key ${other.prefix}…`);
    expect(viaEnv.stderr).toContain('> GET /api/v1/company/api-keys/current -> 200'); // --verbose lines...
    expect(viaEnv.stdout + viaEnv.stderr).not.toContain(other.key); // ...without the key
    expect(proxy.seen.every((s) => s.apiKey === other.key && s.authorization === undefined)).toBe(true);
    // ...and a key cannot manage keys.
    const manage = await runCli(['api-keys', 'list'], {
      env: { ...env, TRAVEL_API_KEY: other.key },
      configDir: loggedIn,
    });
    expect(manage.code).toBe(3);
    expect(manage.stderr).toContain("managing API keys needs a company admin's login, not a key");
  });

  it('never from an argument; an unknown key is refused (exit 3) and not stored', async () => {
    const dir = freshConfigDir();
    const arg = await runCli(['login', '--api-key', 'tk_test_shouldnotbehere'], { env, configDir: dir });
    expect(arg.code).toBe(2);
    const bad = await runCli(['login', '--api-key'], {
      env,
      configDir: dir,
      input: 'tk_test_unknownkey000000000000\n',
    });
    expect(bad.code).toBe(3);
    expect(bad.stderr).toMatch(/code=invalid_api_key/);
    const list = await runJson<{ profiles: Record<string, unknown> }>(['config', 'list'], {
      env,
      configDir: dir,
    });
    expect(JSON.stringify(list.doc)).not.toContain('tk_test_');
    const empty = await runCli(['login', '--api-key'], { env, configDir: dir, input: '' });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('--api-key: no key given');
  });
});

describe.skipIf(!agent || !hasTmux)('login --api-key in a terminal (tmux)', () => {
  let tmux: TmuxSession | undefined;
  afterEach(() => tmux?.kill());

  it('asks with a hidden prompt; the key never appears on the screen', async () => {
    const created = await createKey('typed key');
    const dir = freshConfigDir();
    tmux = startTmux(['login', '--api-key'], {
      TRAVEL_BASE_URL: proxy.url,
      TRAVEL_CONFIG_DIR: dir,
      HOME: dir,
      CI: '',
      TERM: 'xterm-256color',
    });
    await tmux.waitFor('API key');
    tmux.type(created.key);
    tmux.send('Enter');
    const screen = await tmux.waitFor(/\[exit \d\]/);
    expect(screen).toContain('[exit 0]');
    expect(screen).toContain(`Stored API key ${created.prefix}…`);
    expect(screen).not.toContain(created.key);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.default.api_key).toBe(
      created.key,
    );
  });
});
