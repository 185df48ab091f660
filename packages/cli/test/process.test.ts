/**
 * The built `travel` binary as a process against the REAL server (createRuntime, started in process by the
 * global setup with the sandbox emulators): exit codes, --json on stdout, no-terminal behaviour.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { freshConfigDir, runCli } from './helpers/cli.ts';

const url = inject('serverUrl');
const admin = inject('admin');
const agent = inject('agent');

it('the real server started for the process tests', () => {
  expect(inject('serverError')).toBeNull();
  expect(agent).not.toBeNull();
});

const env = { TRAVEL_BASE_URL: url, NO_COLOR: '1' };

async function loggedIn(who: { email: string; password: string } = admin) {
  const configDir = freshConfigDir();
  const login = await runCli(['login', '--email', who.email, '--password-stdin'], {
    env,
    input: who.password,
    configDir,
  });
  expect(login.code, login.stderr).toBe(0);
  return configDir;
}

describe.skipIf(!url)('travel (process, no terminal)', () => {
  it('--help exits 0 and shows examples on stdout', async () => {
    const r = await runCli(['book', '--help'], { env, configDir: freshConfigDir() });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Examples:');
    expect(r.stdout).toContain('$ travel book --offer');
  });

  it.each([
    ['login', ['login'], '--email'],
    ['login with --email only', ['login', '--email', 'a@b.c'], '--password-stdin'],
    ['search without --date', ['search', 'flight', '--from', 'LHR', '--to', 'DXB'], '--date'],
    ['book without --offer', ['book'], '--offer'],
    ['ticket void --confirm without --yes', ['ticket', 'void', 'X7KQ2M', '--confirm'], '--yes'],
    ['smoke sweep without --tag', ['smoke', 'sweep'], '--tag'],
  ])('a missing input is a usage error naming the flag: %s', async (_name, args, flag) => {
    const r = await runCli(args, { env: { ...env, TRAVEL_TOKEN: 'x' }, configDir: freshConfigDir() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(flag);
    expect(r.stdout).toBe('');
  });

  it('an unknown command is a usage error', async () => {
    const r = await runCli(['fly'], { env, configDir: freshConfigDir() });
    expect(r.code).toBe(2);
  });

  it('login stores the token in a user-only file; whoami --json prints one parseable document', async () => {
    const configDir = await loggedIn();
    expect(statSync(join(configDir, 'config.json')).mode & 0o777).toBe(0o600);
    const r = await runCli(['whoami', '--json'], { env, configDir });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      profile: 'default',
      base_url: url,
      user: { email: admin.email, role: 'super_admin' },
    });
  });

  it('the seeded agency user logs in with its company and user code (what searches need)', async () => {
    expect(agent).not.toBeNull();
    const configDir = await loggedIn(agent ?? admin);
    const r = await runCli(['whoami', '--json'], { env, configDir });
    expect(JSON.parse(r.stdout).user).toMatchObject({
      company_code: agent?.companyCode,
      user_code: agent?.userCode,
      role: 'company_admin',
    });
    const list = await runCli(['config', 'get', 'company_code'], { env, configDir });
    expect(list.stdout.trim()).toBe(agent?.companyCode);
  });

  it('wrong password: exit 3, one line with the code and the request id', async () => {
    const r = await runCli(['login', '--email', admin.email, '--password-stdin'], {
      env,
      input: 'wrong',
      configDir: freshConfigDir(),
    });
    expect(r.code).toBe(3);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/code=invalid_credentials .*request_id=req_/);
  });

  it('not logged in: exit 3 before any request', async () => {
    const r = await runCli(['whoami'], { env, configDir: freshConfigDir() });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('travel login');
  });

  it('TRAVEL_TOKEN works without a stored login; --verbose shows the exchange without the token', async () => {
    const configDir = await loggedIn();
    const token = (
      JSON.parse((await import('node:fs')).readFileSync(join(configDir, 'config.json'), 'utf8')) as {
        profiles: { default: { token: string } };
      }
    ).profiles.default.token;
    const r = await runCli(['whoami', '--verbose'], {
      env: { ...env, TRAVEL_TOKEN: token },
      configDir: freshConfigDir(),
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/> GET \/api\/v1\/auth\/me -> 200/);
    expect(r.stderr + r.stdout).not.toContain(token);
  });

  it('profiles keep their own base URL and login; logout forgets it', async () => {
    const configDir = await loggedIn();
    await runCli(['--profile', 'staging', 'config', 'set', 'base_url', 'http://127.0.0.1:9/'], {
      env: {},
      configDir,
    });
    const get = await runCli(['--profile', 'staging', 'config', 'get', 'base_url'], { env: {}, configDir });
    expect(get.stdout.trim()).toBe('http://127.0.0.1:9');
    const list = await runCli(['config', 'list', '--json'], { env: {}, configDir });
    expect(JSON.parse(list.stdout).profiles).toMatchObject({
      default: { logged_in: 'yes' },
      staging: { logged_in: 'no' },
    });
    expect((await runCli(['logout'], { env, configDir })).code).toBe(0);
    expect((await runCli(['whoami'], { env, configDir })).code).toBe(3);
  });

  it('completion scripts for bash, zsh and fish', async () => {
    for (const shell of ['bash', 'zsh', 'fish']) {
      const r = await runCli(['completion', shell], { env, configDir: freshConfigDir() });
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('travel __complete');
    }
    const r = await runCli(['__complete', 'pay', ''], { env, configDir: freshConfigDir() });
    expect(r.stdout.trim().split('\n')).toEqual(['authorize', 'capture', 'void', 'refund', 'history']);
  });

  it('an unknown booking exits 4', async () => {
    const configDir = await loggedIn(agent ?? admin);
    const r = await runCli(['booking', 'show', '999999'], { env, configDir });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/code=booking_not_found/);
  });

  it('airports --json', async () => {
    const r = await runCli(['airports', 'heathrow', '--json'], { env, configDir: freshConfigDir() });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).items.some((a: { iata_code: string }) => a.iata_code === 'LHR')).toBe(true);
  });
});

describe('travel search and book (process)', () => {
  const date = new Date(Date.now() + 45 * 86_400_000).toISOString().slice(0, 10);

  it('search flight --json and --ndjson', async () => {
    const configDir = await loggedIn(agent ?? admin);
    const json = await runCli(
      ['search', 'flight', '--from', 'LHR', '--to', 'DXB', '--date', date, '--json'],
      { env, configDir },
    );
    expect(json.code, json.stderr).toBe(0);
    const doc = JSON.parse(json.stdout);
    expect(doc.offers.length).toBeGreaterThan(0);
    const totals = doc.offers.map((o: { price: { total_minor: number } }) => o.price.total_minor);
    expect(totals).toEqual([...totals].sort((a, b) => a - b));
    const nd = await runCli(
      ['search', 'flight', '--from', 'LHR', '--to', 'DXB', '--date', date, '--ndjson'],
      { env, configDir },
    );
    const events = nd.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).event);
    expect(events.at(-1)).toBe('done');
    expect(events).toContain('offer');
  });

  it('book flag-driven; a re-run replays the same booking, --new books again; PENDING exits 6', async () => {
    const configDir = await loggedIn(agent ?? admin);
    const search = await runCli(
      ['search', 'flight', '--from', 'LHR', '--to', 'DXB', '--date', date, '--json'],
      { env, configDir },
    );
    const offerId = JSON.parse(search.stdout).offers[0].offer_id as string;
    const pax = join(configDir, 'pax.json');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(
      pax,
      JSON.stringify([
        { type: 'ADT', first_name: 'Ada', last_name: 'Lovelace', gender: 'F', date_of_birth: '1985-12-10' },
      ]),
    );
    const args = [
      'book',
      '--offer',
      offerId,
      '--passengers',
      pax,
      '--contact',
      'ada@example.org,+447700900123',
      '--json',
    ];
    const first = await runCli(args, { env, configDir });
    expect(first.code, first.stderr).toBe(0);
    const a = JSON.parse(first.stdout);
    expect(a.pnr).toMatch(/^[A-Z0-9]{6}$/);
    const again = await runCli(args, { env, configDir });
    const b = JSON.parse(again.stdout);
    expect(b.booking_id).toBe(a.booking_id);
    expect(b.key_source).toBe('journal');
    expect(again.stderr).toContain('Re-sending idempotency key');
    const fresh = JSON.parse((await runCli([...args, '--new'], { env, configDir })).stdout);
    expect(fresh.key_source).toBe('new');
    expect(fresh.booking_id).not.toBe(a.booking_id);

    writeFileSync(
      pax,
      JSON.stringify([
        { type: 'ADT', first_name: 'Pat', last_name: 'PENDING', gender: 'F', date_of_birth: '1985-12-10' },
      ]),
    );
    const pending = await runCli([...args, '--wait', '0'], { env, configDir });
    expect(pending.code).toBe(6);
    expect(JSON.parse(pending.stdout).outcome).toBe('pending');
  });

  it('a PENDING booking (502) is polled until reconciliation confirms it: exit 0', async () => {
    const configDir = await loggedIn(agent ?? admin);
    const search = await runCli(
      ['search', 'flight', '--from', 'LHR', '--to', 'DXB', '--date', date, '--json'],
      { env, configDir },
    );
    // amadeus honours the PENDING trigger without travel documents.
    const offer = (JSON.parse(search.stdout).offers as { offer_id: string; supplier: string }[]).find(
      (o) => o.supplier === 'amadeus',
    );
    expect(offer, search.stderr).toBeDefined();
    const pax = join(configDir, 'pax.json');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(
      pax,
      JSON.stringify([
        { type: 'ADT', first_name: 'Rec', last_name: 'PENDING', gender: 'M', date_of_birth: '1980-01-01' },
      ]),
    );
    const r = await runCli(
      [
        'book',
        '--offer',
        offer?.offer_id ?? '',
        '--passengers',
        pax,
        '--contact',
        'rec@example.org,+447700900123',
        '--wait',
        '45',
        '--json',
      ],
      { env, configDir },
    );
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.outcome).toBe('confirmed');
    expect(doc.pnr).toMatch(/^[A-Z0-9]{6}$/);
    const show = await runCli(['booking', 'show', String(doc.booking_id), '--json'], { env, configDir });
    expect(JSON.parse(show.stdout).status).toBe('confirmed');
  });

  it('smoke --json passes every step and exits 0', async () => {
    const r = await runCli(['smoke', '--json', '--tag', `proc-${Date.now()}`], {
      env: { ...env, TRAVEL_EMAIL: (agent ?? admin).email, TRAVEL_PASSWORD: (agent ?? admin).password },
      configDir: freshConfigDir(),
    });
    const doc = JSON.parse(r.stdout);
    expect(
      doc.steps.filter((s: { result: string }) => s.result !== 'ok'),
      r.stderr,
    ).toEqual([]);
    expect(r.code).toBe(0);
  });
});
