/**
 * The self-refreshing session and its helpers with a scripted fetch, a memory profile store and a fixed
 * clock: the cases the real server cannot produce on demand (a refresh answered 503, another process
 * rotating or logging out meanwhile, a stale lock left by a dead process).
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseExpiry } from '../src/commands/api-keys.ts';
import { publicProfile } from '../src/commands/config.ts';
import { parseLoginOptions } from '../src/commands/login.ts';
import { createMemoryStore, type Profile } from '../src/config.ts';
import { resolveCredential } from '../src/context.ts';
import { UsageError } from '../src/errors.ts';
import { withFileLock } from '../src/file-lock.ts';
import { expiresSoon } from '../src/jwt.ts';
import { createSessionAuth, SESSION_ENDED } from '../src/session.ts';

const NOW = Date.parse('2026-11-24T12:00:00Z');
const jwt = (claims: object) => `h.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.s`;
/** An access token issued `age` seconds ago that lives `ttl` seconds. */
const token = (name: string, age: number, ttl = 900) =>
  jwt({ sub: name, iat: NOW / 1000 - age, exp: NOW / 1000 - age + ttl });

interface Call {
  path: string;
  authorization: string | null;
  body: string;
}

function scripted(answers: Record<string, (call: Call) => Response>) {
  const calls: Call[] = [];
  const fetch = async (request: Request) => {
    const call = {
      path: new URL(request.url).pathname,
      authorization: request.headers.get('authorization'),
      body: await request.text(),
    };
    calls.push(call);
    const answer = answers[call.path];
    if (!answer) throw new Error(`unexpected ${call.path}`);
    return answer(call);
  };
  return { fetch, calls };
}

const json = (status: number, body: object) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function session(profile: Profile, fetch: (r: Request) => Promise<Response>) {
  const config = createMemoryStore({ default: profile });
  const auth = createSessionAuth({
    config,
    profileName: 'default',
    baseUrl: 'http://api.test',
    fetch,
    now: () => NOW,
  });
  const get = (path = '/api/v1/auth/me') =>
    auth.fetch(
      new Request(`http://api.test${path}`, { headers: { authorization: `Bearer ${auth.token()}` } }),
    );
  return { config, auth, get };
}

describe('session: a refresh that succeeds', () => {
  it('stores the rotated pair and when the new refresh token expires (refresh_expires_in from now)', async () => {
    const fresh = token('new', 0);
    const { fetch, calls } = scripted({
      '/api/v1/auth/refresh': () =>
        json(200, { access_token: fresh, refresh_token: 'r2', expires_in: 900, refresh_expires_in: 86_400 }),
      '/api/v1/auth/me': () => json(200, { email: 'a@b.c' }),
    });
    const { config, get } = session(
      { token: token('old', 1000), refresh_token: 'r1', refresh_expires_at: '2026-11-24T12:30:00.000Z' },
      fetch,
    );
    expect((await get()).status).toBe(200);
    expect(calls.map((c) => c.path)).toEqual(['/api/v1/auth/refresh', '/api/v1/auth/me']);
    expect(config.getProfile('default')).toEqual({
      token: fresh,
      refresh_token: 'r2',
      refresh_expires_at: '2026-11-25T12:00:00.000Z',
    });
  });

  it('a server that does not say when the refresh token expires: no stale expiry is kept', async () => {
    const fresh = token('new', 0);
    const { fetch } = scripted({
      '/api/v1/auth/refresh': () => json(200, { access_token: fresh, refresh_token: 'r2', expires_in: 900 }),
      '/api/v1/auth/me': () => json(200, { email: 'a@b.c' }),
    });
    const { config, get } = session(
      { token: token('old', 1000), refresh_token: 'r1', refresh_expires_at: '2026-11-24T12:30:00.000Z' },
      fetch,
    );
    expect((await get()).status).toBe(200);
    expect(config.getProfile('default')).toEqual({ token: fresh, refresh_token: 'r2' });
  });
});

describe('session: refresh failures that must NOT end the session', () => {
  it('a refresh answered 503: the request goes on with the old token, the stored login stays', async () => {
    const expired = token('old', 1000);
    const { fetch, calls } = scripted({
      '/api/v1/auth/refresh': () => json(503, { detail: 'db down', code: 'database_unavailable' }),
      '/api/v1/auth/me': () => json(401, { detail: 'expired', code: 'token_expired' }),
    });
    const { config, auth, get } = session({ token: expired, refresh_token: 'r1' }, fetch);
    const response = await get();
    expect(response.status).toBe(401); // the server's own answer, not "session ended"
    expect(((await response.json()) as { code: string }).code).toBe('token_expired');
    expect(auth.ended).toBe(false);
    expect(config.getProfile('default')).toEqual({ token: expired, refresh_token: 'r1' });
    expect(calls.map((c) => c.path)).toEqual([
      '/api/v1/auth/refresh',
      '/api/v1/auth/me',
      '/api/v1/auth/refresh',
    ]);
  });

  it('another process rotated meanwhile: its fresh token is used, no refresh is sent', async () => {
    const { fetch, calls } = scripted({
      '/api/v1/auth/me': () => json(200, { email: 'a@b.c' }),
    });
    const { config, get } = session({ token: token('old', 1000), refresh_token: 'r1' }, fetch);
    const rotated = token('new', 0);
    config.updateProfile('default', { token: rotated, refresh_token: 'r2' });
    expect((await get()).status).toBe(200);
    expect(calls).toEqual([{ path: '/api/v1/auth/me', authorization: `Bearer ${rotated}`, body: '' }]);
  });

  it('a 401 that a refresh cannot fix (a bad API key, not_authenticated) is passed through untouched', async () => {
    const { fetch, calls } = scripted({
      '/api/v1/auth/me': () => json(401, { detail: 'no', code: 'not_authenticated' }),
    });
    const { get } = session({ token: token('t', 0), refresh_token: 'r1' }, fetch);
    expect((await get()).status).toBe(401);
    expect(calls.map((c) => c.path)).toEqual(['/api/v1/auth/me']);
  });
});

describe('session: the end of a session', () => {
  it('refresh refused (401): the answer says "session ended", the tokens are cleared, the end is recorded', async () => {
    const { fetch, calls } = scripted({
      '/api/v1/auth/refresh': () =>
        new Response(
          JSON.stringify({ detail: 'revoked', code: 'invalid_refresh_token', request_id: 'req_1' }),
          {
            status: 401,
            headers: { 'content-type': 'application/json', 'x-request-id': 'req_1' },
          },
        ),
    });
    const { config, auth, get } = session(
      { token: token('old', 1000), refresh_token: 'r1', email: 'a@b.c' },
      fetch,
    );
    const response = await get();
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({
      detail: SESSION_ENDED,
      code: 'invalid_refresh_token',
      request_id: 'req_1',
    });
    expect(auth.ended).toBe(true);
    expect(config.getProfile('default')).toEqual({
      email: 'a@b.c',
      session_ended_at: '2026-11-24T12:00:00.000Z',
    });
    // Later requests of the same run stop here without asking the server again.
    expect((await get()).status).toBe(401);
    expect(calls.map((c) => c.path)).toEqual(['/api/v1/auth/refresh']);
    expect(JSON.parse(calls[0]?.body ?? '{}')).toEqual({ refresh_token: 'r1' });
  });

  it('logged out by another process meanwhile: ends without a refresh and without recording a server end', async () => {
    const { fetch, calls } = scripted({});
    const { config, auth, get } = session({ token: token('old', 1000), refresh_token: 'r1' }, fetch);
    config.clearCredentials('default');
    const response = await get();
    expect(response.status).toBe(401);
    expect(((await response.json()) as { detail: string }).detail).toBe(SESSION_ENDED);
    expect(auth.ended).toBe(true);
    expect(config.getProfile('default').session_ended_at).toBeUndefined();
    expect(calls).toEqual([]);
  });
});

describe('when to refresh', () => {
  it('a minute ahead, or half the lifetime of a short-lived token', () => {
    expect(expiresSoon(token('t', 839), NOW)).toBe(false); // 61 s left of 900
    expect(expiresSoon(token('t', 841), NOW)).toBe(true); // 59 s left
    expect(expiresSoon(token('t', 2, 5), NOW)).toBe(false); // 3 s left of 5: more than half
    expect(expiresSoon(token('t', 3, 5), NOW)).toBe(true); // 2 s left: refresh
    expect(expiresSoon('not-a-jwt', NOW)).toBe(false); // the server's 401 decides
  });
});

describe('the profile file lock', () => {
  it('serialises holders and takes over a lock whose process is gone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'travel-lock-'));
    const path = join(dir, 'config.json.lock');
    const order: string[] = [];
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => {
      release = r;
    });
    const first = withFileLock(path, async () => {
      order.push('first in');
      await held;
      order.push('first out');
    });
    await expect.poll(() => existsSync(path)).toBe(true);
    const second = withFileLock(path, async () => {
      order.push('second');
    });
    await expect.poll(() => order).toEqual(['first in']);
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['first in', 'first out', 'second']);
    expect(existsSync(path)).toBe(false);

    // A dead holder (pid that does not exist) does not block anyone.
    writeFileSync(path, '999999999');
    expect(await withFileLock(path, async () => readFileSync(path, 'utf8'))).toBe(String(process.pid));
  });
});

describe('credentials and their display', () => {
  it('TRAVEL_API_KEY, then TRAVEL_TOKEN, then the profile key, then the stored login', () => {
    const profile: Profile = { token: 't', refresh_token: 'r', api_key: 'tk_test_profile' };
    expect(resolveCredential({ TRAVEL_API_KEY: 'tk_test_env', TRAVEL_TOKEN: 'x' }, profile)).toMatchObject({
      kind: 'api_key',
      source: 'TRAVEL_API_KEY',
    });
    expect(resolveCredential({ TRAVEL_TOKEN: 'x' }, profile)).toMatchObject({ kind: 'token' });
    expect(resolveCredential({}, profile)).toMatchObject({ kind: 'api_key', source: 'profile' });
    expect(resolveCredential({}, { token: 't', refresh_token: 'r' })).toMatchObject({ kind: 'session' });
    expect(resolveCredential({}, {})).toEqual({ kind: 'none' });
  });

  it('config list: active, expired but refreshable, expired without refresh, ended, API key; never a secret', () => {
    const now = new Date(NOW);
    const live = token('t', 0);
    const dead = token('t', 1000);
    expect(publicProfile({ token: live, refresh_token: 'r' }, now)).toEqual({
      logged_in: 'yes',
      session: 'active; access token valid until 2026-11-24T12:15:00.000Z',
    });
    expect(publicProfile({ token: dead, refresh_token: 'r' }, now).session).toMatch(
      /^access token expired 2026-11-24T11:58:20.000Z; the next command refreshes it/,
    );
    expect(publicProfile({ token: dead }, now)).toMatchObject({ logged_in: 'no' });
    expect(publicProfile({ session_ended_at: '2026-11-24T11:00:00Z' }, now)).toEqual({
      logged_in: 'no',
      session: 'logged out (session ended 2026-11-24T11:00:00Z)',
    });
    // The refresh token's expiry (stored at login and at every refresh) decides, offline:
    expect(
      publicProfile({ token: dead, refresh_token: 'r', refresh_expires_at: '2026-12-24T12:00:00.000Z' }, now),
    ).toEqual({
      logged_in: 'yes',
      session:
        'access token expired 2026-11-24T11:58:20.000Z; the next command refreshes it; renewable until 2026-12-24T12:00:00.000Z (`travel auth status` checks now)',
    });
    expect(
      publicProfile({ token: dead, refresh_token: 'r', refresh_expires_at: '2026-11-24T11:59:59.000Z' }, now),
    ).toEqual({
      logged_in: 'no',
      session: 'logged out (session ended 2026-11-24T11:59:59.000Z: the refresh token expired)',
    });
    expect(
      publicProfile({ token: live, refresh_token: 'r', refresh_expires_at: '2026-11-24T11:59:00.000Z' }, now),
    ).toEqual({
      logged_in: 'yes',
      session:
        'active; access token valid until 2026-11-24T12:15:00.000Z; it cannot be renewed (refresh token expired 2026-11-24T11:59:00.000Z)',
    });
    const keyed = publicProfile({ api_key: 'tk_test_Abcd1234SECRETSECRET', email: 'a@b.c' }, now);
    expect(keyed).toEqual({ email: 'a@b.c', logged_in: 'yes', session: 'API key tk_test_Abcd1234…' });
  });

  it('login --api-key takes no value and no password flags; --expires is relative, a date or an instant', () => {
    expect(() => parseLoginOptions({ apiKey: 'tk_test_x' }, false)).toThrow(UsageError);
    expect(() => parseLoginOptions({ apiKey: true, email: 'a@b.c' }, false)).toThrow(UsageError);
    expect(parseLoginOptions({ apiKey: true }, false)).toEqual({
      email: undefined,
      passwordStdin: false,
      apiKey: true,
    });
    const now = new Date(NOW);
    expect(parseExpiry('30d', now)).toBe('2026-12-24T12:00:00.000Z');
    expect(parseExpiry('12h', now)).toBe('2026-11-25T00:00:00.000Z');
    expect(parseExpiry('2027-01-31', now)).toBe('2027-01-31T23:59:59.000Z');
    expect(() => parseExpiry('2026-11-24T11:00:00Z', now)).toThrow(/in the future/);
    expect(() => parseExpiry('soon', now)).toThrow(/--expires/);
  });
});

describe('logout', () => {
  it('a stored API key is forgotten locally (no session to revoke) and the output says it stays valid', async () => {
    const { fakeWorld } = await import('./helpers/fakes.ts');
    const { runLogout } = await import('../src/commands/logout.ts');
    const POST = async () => {
      throw new Error('no server call expected');
    };
    const { ctx, deps, io } = fakeWorld({
      sdk: { raw: { POST } } as never,
      profiles: { default: { api_key: 'tk_test_Abcd1234SECRET', company_code: 'ACME' } },
    });
    await runLogout(ctx);
    expect(deps.config.getProfile('default')).toEqual({ company_code: 'ACME' });
    expect(io.stderr.join('\n')).toContain('Forgot API key tk_test_Abcd1234…; it stays valid on the server');
    expect(io.stderr.join('\n')).not.toContain('SECRET');
  });
});
