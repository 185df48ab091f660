/**
 * Start-up and the edges of a run: the Node version guard (bin and root scripts, run with the system Node
 * 20 when present), --version from package.json, only the dispatched command loaded, errors naming the
 * server on connection failures and the wait on a 429, completion of option values.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RateLimitError } from '@travel/sdk';
import { describe, expect, inject, it } from 'vitest';
import { completeValues } from '../src/commands/completion.ts';
import { formatError } from '../src/errors.ts';
import { COMMANDS, commandWord, createProgram } from '../src/program.ts';
import { BIN, freshConfigDir, runCli } from './helpers/cli.ts';
import { fakeWorld } from './helpers/fakes.ts';

const OLD_NODE = '/usr/bin/node';
const RECORD_LOADS = new URL('./helpers/record-loads.mjs', import.meta.url).href;
const oldNodeVersion = existsSync(OLD_NODE)
  ? spawnSync(OLD_NODE, ['-v'], { encoding: 'utf8' }).stdout.trim()
  : '';
const isOld = /^v(1\d|20|21|22\.(\d|1[0-7])\.)/.test(oldNodeVersion);
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

describe.skipIf(!isOld)(`an older Node (${oldNodeVersion || 'none'} at ${OLD_NODE}) stops at once`, () => {
  it('travel (the bin) says what is needed and how to get it, exit 1, no stack trace', () => {
    const r = spawnSync(OLD_NODE, [BIN, 'whoami'], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      `Node 22.18 or newer is needed (found ${oldNodeVersion.slice(1)}); install it with`,
    );
    expect(r.stderr).not.toMatch(/ERR_|at .*\.js:\d+/);
    expect(r.stdout).toBe('');
  });

  it('the guard pnpm start and pnpm test run first does the same', () => {
    const guard = fileURLToPath(new URL('../../../scripts/check-node.cjs', import.meta.url));
    const r = spawnSync(OLD_NODE, [guard], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('Node 22.18 or newer is needed');
    const root = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(root.scripts.start).toMatch(/^node scripts\/check-node\.cjs && /);
    expect(root.scripts.test).toMatch(/^node scripts\/check-node\.cjs && /);
    // This Node passes the guard.
    expect(spawnSync(process.execPath, [guard]).status).toBe(0);
  });
});

describe('start-up', () => {
  it('--version prints the version in package.json', async () => {
    const r = await runCli(['--version'], { configDir: freshConfigDir() });
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(pkg.version);
  });

  it('help lists every command but loads none of them; a run loads only the command it names', async () => {
    const { deps } = fakeWorld({});
    const program = await createProgram(deps, ['--profile', 'x', 'booking', 'list']);
    expect(commandWord(['--profile', 'x', 'booking', 'list'])).toBe('booking');
    expect(program.commands.map((c) => c.name())).toEqual(expect.arrayContaining(COMMANDS.map(([n]) => n)));
    // Placeholders have no options or subcommands; the named command is the real one.
    expect(program.commands.find((c) => c.name() === 'booking')?.commands.length).toBeGreaterThan(0);
    expect(program.commands.find((c) => c.name() === 'ticket')?.commands).toEqual([]);
    const full = await createProgram(deps, [], true);
    expect(full.commands.find((c) => c.name() === 'ticket')?.commands.length).toBeGreaterThan(0);
  });

  it('every command description in the list is the command’s own', async () => {
    const { deps } = fakeWorld({});
    const full = await createProgram(deps, [], true);
    for (const [name, description] of COMMANDS)
      expect(full.commands.find((c) => c.name() === name)?.description(), name).toBe(description);
  });

  it('--help loads no command module, SDK, conf, inquirer or chalk; whoami loads its own (the built bin)', () => {
    // Which modules a run loads, recorded by a preloaded module hook into a file (not read from
    // NODE_DEBUG=esm on stderr: that is 700 KB per run, and a pipe can lose its tail at exit).
    const loaded = (args: string[]) => {
      const record = join(mkdtempSync(join(tmpdir(), 'travel-loads-')), 'loads.txt');
      const r = spawnSync(process.execPath, ['--import', RECORD_LOADS, BIN, ...args], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '', RECORD_LOADS_FILE: record, TRAVEL_CONFIG_DIR: freshConfigDir() },
      });
      const files = existsSync(record) ? readFileSync(record, 'utf8').split('\n').filter(Boolean) : [];
      // What the run ended with, for the assertion messages: a failure says why, not only "false".
      runs.set(
        args.join(' '),
        `status ${r.status} signal ${r.signal} error ${r.error?.message ?? '-'}; ${files.length} modules; stderr ends: ${r.stderr.slice(-600)}`,
      );
      return files;
    };
    const runs = new Map<string, string>();
    const heavy =
      /packages\/sdk\/|openapi-fetch|\/conf\/|\/ajv|@inquirer|\/chalk\/|\/ora\/|log-update|dist\/(whoami|booking|api|admin|smoke)-/;
    const help = loaded(['--help']);
    expect(
      help.some((f) => f.includes('commander')),
      runs.get('--help'),
    ).toBe(true);
    expect(help.filter((f) => heavy.test(f))).toEqual([]);
    const whoami = loaded(['whoami']);
    expect(
      whoami.some((f) => /dist\/whoami-/.test(f)),
      runs.get('whoami'),
    ).toBe(true);
    expect(whoami.some((f) => f.includes('packages/sdk/'))).toBe(true);
    expect(whoami.some((f) => /dist\/(booking|admin|smoke)-/.test(f))).toBe(false);
  });
});

describe('errors name the server and the wait', () => {
  it('a connection failure names the server URL (exit 1)', async () => {
    const r = await runCli(['whoami'], {
      env: { TRAVEL_BASE_URL: 'http://127.0.0.1:9', TRAVEL_TOKEN: 'x' },
      configDir: freshConfigDir(),
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('cannot reach http://127.0.0.1:9');
    expect(r.stderr).toContain('code=connection_error');
  });

  it('a 429 says how long to wait (Retry-After)', () => {
    const error = new RateLimitError({
      status: 429,
      code: 'rate_limited',
      detail: 'Too many requests',
      requestId: 'req_1',
      retryAfter: 12.2,
    });
    expect(formatError(error)).toBe(
      'error: rate limited: Too many requests; try again in 13s  code=rate_limited  status=429  request_id=req_1',
    );
    const unknown = new RateLimitError({ status: 429, code: 'rate_limited', detail: 'Too many requests' });
    expect(formatError(unknown)).toContain('try again later');
  });
});

describe('completion of option values', () => {
  it('cabins, currencies and declared choices; options after --', async () => {
    const { deps, ctx } = fakeWorld({});
    const root = await createProgram(deps, [], true);
    expect(await completeValues(root, ['search', 'flight', '--cabin', 'B'], ctx)).toEqual(['Business']);
    expect(await completeValues(root, ['search', 'flight', '--currency', 'gb'], ctx)).toEqual(['GBP']);
    expect(await completeValues(root, ['search', 'flight', '--from', 'L'], ctx)).toEqual([]);
    expect(await completeValues(root, ['search', 'flight', 'x'], ctx)).toBeUndefined();
  });

  const url = inject('serverUrl');
  it.skipIf(!url)('airports come from the reference search of the server (the built bin)', async () => {
    const r = await runCli(['__complete', 'search', 'flight', '--to', 'dub'], {
      env: { TRAVEL_BASE_URL: url },
      configDir: freshConfigDir(),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')).toContain('DXB');
    const options = await runCli(['__complete', 'api', '--i'], { configDir: freshConfigDir() });
    expect(options.stdout.split('\n')).toEqual(
      expect.arrayContaining(['--input', '--idempotency-key', '--include']),
    );
  });
});
