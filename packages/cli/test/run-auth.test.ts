/** login, logout, whoami, config and the entry point, with injected fakes. */
import type { TravelClient } from '@travel/sdk';
import { describe, expect, it, vi } from 'vitest';
import { completeWords } from '../src/commands/completion.ts';
import { runConfigList, runConfigSet } from '../src/commands/config.ts';
import { runLogin } from '../src/commands/login.ts';
import { runLogout } from '../src/commands/logout.ts';
import { runWhoami } from '../src/commands/whoami.ts';
import { CliError } from '../src/errors.ts';
import { ExitCode } from '../src/exit-codes.ts';
import { main } from '../src/main.ts';
import { createProgram } from '../src/program.ts';
import { fakeWorld } from './helpers/fakes.ts';

const user = { email: 'agent@acme.test', role: 'company_admin', company_code: 'ACME', user_code: 'agent01' };
const session = { access_token: 'at-1', refresh_token: 'rt-1', token_type: 'bearer', expires_in: 900, user };

describe('login', () => {
  it('reads the password from stdin and stores token and codes in the profile', async () => {
    const login = vi.fn(async () => session);
    const { ctx, deps } = fakeWorld({
      sdk: { auth: { login } } as never,
      profiles: {},
      stdin: 'secret\n',
      globals: { profile: 'staging', baseUrl: 'https://staging.test' },
    });
    await runLogin({ email: 'agent@acme.test', passwordStdin: true }, ctx);
    expect(login).toHaveBeenCalledWith({ email: 'agent@acme.test', password: 'secret' });
    expect(deps.config.getProfile('staging')).toMatchObject({
      token: 'at-1',
      refresh_token: 'rt-1',
      base_url: 'https://staging.test',
      company_code: 'ACME',
      user_code: 'agent01',
    });
  });

  it('prompts for email and password on a terminal', async () => {
    const login = vi.fn(async () => session);
    const { ctx, io } = fakeWorld({
      sdk: { auth: { login } } as never,
      interactive: true,
      answers: ['agent@acme.test', 'pw'],
    });
    await runLogin({ email: undefined, passwordStdin: false }, ctx);
    expect(login).toHaveBeenCalledWith({ email: 'agent@acme.test', password: 'pw' });
    expect(io.stdout).toEqual([]); // hints go to stderr only
    expect(io.stderr.join('\n')).toContain('Logged in');
  });
});

describe('whoami and logout', () => {
  it('whoami without a token is an authentication failure (exit 3)', async () => {
    const { ctx } = fakeWorld({ profiles: {} });
    const error = await runWhoami(ctx).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).exitCode).toBe(ExitCode.authentication);
  });

  it('TRAVEL_TOKEN works without a stored login', async () => {
    const me = vi.fn(async () => user);
    const { ctx, io } = fakeWorld({
      sdk: { auth: { me } } as never,
      profiles: {},
      env: { TRAVEL_TOKEN: 't' },
      globals: { json: true },
    });
    await runWhoami(ctx);
    expect(JSON.parse(io.stdout.join(''))).toMatchObject({ user: { email: 'agent@acme.test' } });
  });

  it('logout revokes the refresh token and forgets the credentials', async () => {
    const POST = vi.fn(async () => ({ response: new Response('{}', { status: 200 }) }));
    const { ctx, deps } = fakeWorld({
      sdk: { raw: { POST } } as unknown as TravelClient,
      profiles: { default: { token: 't', refresh_token: 'r', email: 'a@b.c' } },
    });
    await runLogout(ctx);
    expect(POST).toHaveBeenCalledWith('/api/v1/auth/logout', { body: { refresh_token: 'r' } });
    expect(deps.config.getProfile('default')).toEqual({ email: 'a@b.c' });
  });
});

describe('config', () => {
  it('set writes the current profile; list never shows tokens', async () => {
    const { ctx, io } = fakeWorld({ globals: { json: true } });
    await runConfigSet('currency', 'GBP', ctx);
    io.stdout.length = 0;
    await runConfigList(ctx);
    const listed = JSON.parse(io.stdout.join(''));
    expect(listed.profiles.default).toMatchObject({ currency: 'GBP', logged_in: 'yes' });
    expect(JSON.stringify(listed)).not.toContain('"tok"');
  });
});

describe('main (the one exit point)', () => {
  it.each([
    ['--help', ['--help'], ExitCode.ok],
    ['--version', ['--version'], ExitCode.ok],
    ['unknown command', ['nope'], ExitCode.usage],
    ['unknown option', ['whoami', '--nope'], ExitCode.usage],
    ['usage error from a parse function', ['search', 'flight', '--from', 'LHR'], ExitCode.usage],
    ['not logged in', ['booking', 'show', 'X7KQ2M'], ExitCode.authentication],
    ['--confirm needs --yes without a terminal', ['ticket', 'void', 'X7KQ2M', '--confirm'], ExitCode.usage],
  ])('%s', async (_name, argv, code) => {
    const { deps } = fakeWorld({ profiles: {} });
    expect(await main(argv, deps)).toBe(code);
  });

  it('every command shows an example in --help', async () => {
    const { deps, io } = fakeWorld({});
    const program = await createProgram(deps, [], true);
    const leaves: string[][] = [];
    const walk = (command: typeof program, path: string[]) => {
      if (command.commands.length === 0 || ['smoke'].includes(command.name())) leaves.push(path);
      for (const sub of command.commands) if (!sub.name().startsWith('__')) walk(sub, [...path, sub.name()]);
    };
    walk(program, []);
    expect(leaves.length).toBeGreaterThan(40);
    for (const path of leaves) {
      io.stdout.length = 0;
      const target = path.reduce((c, name) => c.commands.find((s) => s.name() === name) ?? c, program);
      target.outputHelp();
      expect(io.stdout.join('\n'), path.join(' ')).toContain('$ travel');
    }
  });

  it('completion walks the command tree', async () => {
    const { deps } = fakeWorld({});
    const program = await createProgram(deps, [], true);
    expect(completeWords(program, ['tic'])).toEqual(['ticket']);
    expect(completeWords(program, ['ticket', ''])).toEqual([
      'issue',
      'status',
      'document',
      'void',
      'refund',
      'reissue',
    ]);
    expect(completeWords(program, ['search', 'flight', '--fr'])).toEqual(['--from']);
  });
});
