/** gh-level habits: help topics, `config use`, Ctrl-C exits 130, completion of options after a bare `--`. */
import { describe, expect, it } from 'vitest';
import { createContext } from '../src/context.ts';
import { ExitCode } from '../src/exit-codes.ts';
import { main } from '../src/main.ts';
import { fakeWorld } from './helpers/fakes.ts';

describe('help topics', () => {
  it('travel help exit-codes lists every exit code', async () => {
    const { deps, io } = fakeWorld({});
    expect(await main(['help', 'exit-codes'], deps)).toBe(0);
    const text = io.stdout.join('\n');
    for (const code of Object.values(ExitCode)) expect(text).toMatch(new RegExp(`^  ${code} +\\S`, 'm'));
    expect(text).not.toContain('Usage: travel');
  });

  it('travel help environment lists the variables', async () => {
    const { deps, io } = fakeWorld({});
    expect(await main(['help', 'environment'], deps)).toBe(0);
    const text = io.stdout.join('\n');
    for (const name of ['TRAVEL_BASE_URL', 'TRAVEL_API_KEY', 'TRAVEL_PROFILE', 'NO_COLOR', 'CI'])
      expect(text).toContain(name);
  });

  it('the root help names the topics', async () => {
    const { deps, io } = fakeWorld({});
    expect(await main(['--help'], deps)).toBe(0);
    expect(io.stdout.join('\n')).toContain('travel help exit-codes');
  });
});

describe('config use', () => {
  it('makes a profile current for later runs; --profile and TRAVEL_PROFILE still win', async () => {
    const { deps, io } = fakeWorld({
      profiles: { default: { token: 't1' }, staging: { token: 't2', base_url: 'https://staging.example' } },
    });
    expect(await main(['config', 'use', 'staging'], deps)).toBe(0);
    expect(io.stderr.join('\n')).toContain('Now using profile "staging"');
    expect(createContext(deps, {}).profileName).toBe('staging');
    expect(createContext(deps, {}).baseUrl).toBe('https://staging.example');
    expect(createContext(deps, { profile: 'default' }).profileName).toBe('default');
    expect(createContext({ ...deps, env: { TRAVEL_PROFILE: 'default' } }, {}).profileName).toBe('default');
  });

  it('refuses an unknown profile (exit 2) and changes nothing', async () => {
    const { deps, io } = fakeWorld({});
    expect(await main(['config', 'use', 'nope'], deps)).toBe(ExitCode.usage);
    expect(io.stderr.join('\n')).toContain('no profile "nope"');
    expect(createContext(deps, {}).profileName).toBe('default');
  });
});

describe('Ctrl-C at a prompt', () => {
  it('exits 130 with a message', async () => {
    const { deps, io } = fakeWorld({ interactive: true });
    deps.prompter.input = async () => {
      throw Object.assign(new Error('User force closed the prompt with SIGINT'), { name: 'ExitPromptError' });
    };
    expect(await main(['book'], deps)).toBe(130);
    expect(io.stderr.join('\n')).toContain('cancelled (Ctrl-C)');
  });
});

describe('completion', () => {
  it('`__complete search flight --` completes options, not `flight`', async () => {
    const { deps, io } = fakeWorld({});
    expect(await main(['__complete', 'search', 'flight', '--'], deps)).toBe(0);
    expect(io.stdout).not.toContain('flight');
    expect(io.stdout).toEqual(expect.arrayContaining(['--from', '--to', '--date']));
    expect(io.stdout.every((w) => w.startsWith('--'))).toBe(true);
  });

  it('`__complete search fl` still completes the command', async () => {
    const { deps, io } = fakeWorld({});
    await main(['__complete', 'search', 'fl'], deps);
    expect(io.stdout).toEqual(['flight']);
  });
});

describe('--jq', () => {
  const me = { user_id: 7, email: 'ada@example.org', role: 'agent', company: { code: 'ACME' } };
  const world = () => fakeWorld({ sdk: { auth: { me: async () => me } } as never });

  it('filters the JSON document with a jq expression; strings print raw', async () => {
    const { deps, io } = world();
    expect(await main(['whoami', '--jq', '.user.email'], deps)).toBe(0);
    expect(io.stdout).toEqual(['ada@example.org']);
  });

  it('non-strings print as JSON, one result per line', async () => {
    const { deps, io } = world();
    expect(await main(['--jq', '.user.user_id, .user.company', 'whoami'], deps)).toBe(0);
    expect(io.stdout[0]).toBe('7');
    expect(JSON.parse(io.stdout.slice(1).join('\n'))).toEqual({ code: 'ACME' });
  });

  it('a malformed expression is a usage error before any request', async () => {
    let called = false;
    const { deps, io } = fakeWorld({
      sdk: {
        auth: {
          me: async () => {
            called = true;
            return me;
          },
        },
      } as never,
    });
    expect(await main(['whoami', '--jq', '.['], deps)).toBe(ExitCode.usage);
    expect(io.stderr.join('\n')).toMatch(/usage: --jq: .*syntax error/);
    expect(called).toBe(false);
  });
});

describe('airport completion', () => {
  it('sends two letters as typed and puts the codes that start with them first', async () => {
    const queries: string[] = [];
    const airports = async ({ query }: { query: string }) => {
      queries.push(query);
      return {
        items: [{ iata_code: 'LXA' }, { iata_code: 'LSW' }, { iata_code: 'LHR' }, { iata_code: 'LHE' }],
      };
    };
    const { deps, io } = fakeWorld({ sdk: { reference: { airports } } as never });
    expect(await main(['__complete', 'search', 'flight', '--from', 'lh'], deps)).toBe(0);
    expect(queries).toEqual(['lh']);
    expect(io.stdout).toEqual(['LHR', 'LHE', 'LXA', 'LSW']);
  });
});
