/**
 * A stored login that refreshes itself, against the REAL server started here with
 * ACCESS_TOKEN_TTL_SECONDS=5 behind a counting proxy (which records every request: refresh calls, the
 * token and Idempotency-Key each attempt carried). Waiting for expiry polls the stored token's `exp`
 * against the clock the server reads (same process), never a fixed sleep.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, type TestServer } from '@travel/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConfigList } from '../src/commands/config.ts';
import { createContext, type Deps } from '../src/context.ts';
import { createRealDeps, loadSdk } from '../src/deps.ts';
import { decodeClaims } from '../src/jwt.ts';
import { freshConfigDir, runCli } from './helpers/cli.ts';
import { type CountingProxy, startCountingProxy } from './helpers/counting-proxy.ts';
import { fakeIO } from './helpers/fakes.ts';
import { documentedAdult, inDays, runJson } from './helpers/flow.ts';
import { hasTmux, startTmux, type TmuxSession } from './helpers/tmux.ts';

const REFRESH = '/api/v1/auth/refresh';
let server: TestServer;
let proxy: CountingProxy;
let env: Record<string, string>;

beforeAll(async () => {
  await loadSdk();
  server = await startTestServer({ startJobs: true, env: { ACCESS_TOKEN_TTL_SECONDS: '5' } });
  proxy = await startCountingProxy(server.url);
  env = { TRAVEL_BASE_URL: proxy.url };
});
afterAll(async () => {
  await proxy?.close();
  await server?.close();
});

interface StoredProfile {
  token?: string;
  refresh_token?: string;
  refresh_expires_at?: string;
  session_ended_at?: string;
}
/** The server's REFRESH_TOKEN_TTL_SECONDS (its default). */
const REFRESH_TTL_MS = 30 * 86_400 * 1000;
const stored = (configDir: string, profile = 'default'): StoredProfile =>
  (
    JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8')) as {
      profiles: Record<string, StoredProfile>;
    }
  ).profiles[profile] ?? {};

async function loggedIn(): Promise<string> {
  const configDir = freshConfigDir();
  const r = await runCli(['login', '--email', server.agent.email, '--password-stdin'], {
    env,
    input: server.agent.password,
    configDir,
  });
  expect(r.code, r.stderr).toBe(0);
  return configDir;
}

/** Polls until the stored access token's `exp` is in the past on the server's clock (same process). */
async function waitPastExpiry(configDir: string): Promise<void> {
  const exp = decodeClaims(stored(configDir).token)?.exp;
  expect(exp).toBeTypeOf('number');
  while (Date.now() / 1000 <= (exp as number)) await new Promise((r) => setTimeout(r, 100));
}

/** The CLI's own world, in process: the real conf store and SDK, a recording IO, an injectable clock. */
function realWorld(configDir: string, now: () => Date = () => new Date()) {
  const io = fakeIO();
  const deps: Deps = {
    ...createRealDeps({ TRAVEL_CONFIG_DIR: configDir, TRAVEL_BASE_URL: proxy.url }),
    io,
    now,
  };
  return { deps, io, ctx: createContext(deps, {}) };
}

describe('a stored login refreshes itself (server: ACCESS_TOKEN_TTL_SECONDS=5)', () => {
  it('an expired token: 12 concurrent requests cause exactly ONE refresh; the rotated pair is stored (0600)', async () => {
    const configDir = await loggedIn();
    const before = stored(configDir);
    await waitPastExpiry(configDir);
    proxy.reset();
    const { ctx } = realWorld(configDir);
    const client = ctx.client();
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        i % 2 ? client.auth.me() : client.raw.GET('/api/v1/auth/me').then((r) => r.data),
      ),
    );
    expect(results.every((u) => u?.email === server.agent.email)).toBe(true);
    expect(proxy.count('POST', REFRESH)).toBe(1);
    expect(ctx.session()?.refreshes).toBe(1);
    // Every /me went out with the new token: none was sent with the expired one.
    const mes = proxy.seen.filter((s) => s.path === '/api/v1/auth/me');
    expect(mes).toHaveLength(12);
    expect(mes.every((s) => s.status === 200)).toBe(true);
    const after = stored(configDir);
    expect(after.refresh_token).toBeTruthy();
    expect(after.refresh_token).not.toBe(before.refresh_token);
    expect(after.token).not.toBe(before.token);
    expect(mes.every((s) => s.authorization === `Bearer ${after.token}`)).toBe(true);
    expect(statSync(join(configDir, 'config.json')).mode & 0o777).toBe(0o600);
  });

  it('a 401 token_expired (client clock behind): refresh, then the SAME booking request again: same Idempotency-Key, one booking', async () => {
    const configDir = await loggedIn();
    const search = await runJson<{ offers: { offer_id: string; price: { currency: string } }[] }>(
      ['search', 'flight', '--from', 'LHR', '--to', 'DXB', '--date', inDays(41), '--supplier', 'amadeus'],
      { env, configDir },
    );
    expect(search.code, search.stderr).toBe(0);
    const offer = search.doc.offers[0];
    if (!offer) throw new Error('no offer');
    await waitPastExpiry(configDir);
    // The CLI believes the token is fresh (its clock is 10 s behind), so the server is the one to say so.
    const { ctx } = realWorld(configDir, () => new Date(Date.now() - 10_000));
    proxy.reset();
    const result = await ctx.client().bookings.create(
      {
        offer_id: offer.offer_id,
        currency: offer.price.currency as 'GBP',
        passengers: [documentedAdult as never],
        contact: { email: 'ada@example.org', phone: '+447700900123' },
        payment_mode: 'PNR_FIRST',
      },
      { idempotencyKey: 'session-test-retry-1' },
    );
    expect(result.outcome).toBe('confirmed');
    const posts = proxy.seen.filter((s) => s.method === 'POST' && s.path === '/api/v1/bookings/createPnr');
    expect(posts.map((p) => [p.status, p.idempotencyKey])).toEqual([
      [401, 'session-test-retry-1'],
      [200, 'session-test-retry-1'],
    ]);
    expect(posts[0]?.authorization).not.toBe(posts[1]?.authorization);
    expect(proxy.count('POST', REFRESH)).toBe(1);
    // Exactly one booking under that key: sending it again replays the same booking.
    const again = await ctx.client().bookings.create(
      {
        offer_id: offer.offer_id,
        currency: offer.price.currency as 'GBP',
        passengers: [documentedAdult as never],
        contact: { email: 'ada@example.org', phone: '+447700900123' },
        payment_mode: 'PNR_FIRST',
      },
      { idempotencyKey: 'session-test-retry-1' },
    );
    expect(again.booking_id).toBe(result.booking_id);
  });

  it('four CLI processes on one profile after expiry: one refresh between them (file lock), all succeed', async () => {
    const configDir = await loggedIn();
    await waitPastExpiry(configDir);
    proxy.reset();
    const runs = await Promise.all(
      Array.from({ length: 4 }, () => runCli(['whoami', '--json'], { env, configDir })),
    );
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    expect(proxy.count('POST', REFRESH)).toBe(1);
    expect(proxy.count('GET', '/api/v1/auth/me')).toBe(4);
    // The rotated pair was written by rename (no temporary file left), user-only; the lock is released.
    expect(readdirSync(configDir).filter((f) => f !== 'journal.json')).toEqual(['config.json']);
    expect(statSync(join(configDir, 'config.json')).mode & 0o777).toBe(0o600);
    expect(proxy.seen.filter((s) => s.path === '/api/v1/auth/me').every((s) => s.status === 200)).toBe(true);
  });

  it('the session revoked on the server: the next command exits 3 "session ended; run `travel login`" and the profile says logged out', async () => {
    const configDir = await loggedIn();
    const { refresh_token } = stored(configDir);
    // Logout through the API with that session's refresh token (as another device would).
    const out = await fetch(`${server.url}/api/v1/auth/logout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refresh_token }),
    });
    expect(out.status).toBe(200);
    proxy.reset();
    const r = await runCli(['booking', 'list'], { env, configDir });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('session ended; run `travel login`');
    expect(r.stderr).toMatch(/code=invalid_refresh_token/);
    // The access token was refused (revoked at once by the logout), one refresh was tried and refused.
    expect(proxy.count('POST', REFRESH)).toBe(1);
    const profile = stored(configDir);
    expect(profile.token).toBeUndefined();
    expect(profile.refresh_token).toBeUndefined();
    expect(profile.session_ended_at).toMatch(/^\d{4}-/);

    const list = await runJson<{ profiles: Record<string, { logged_in: string; session?: string }> }>(
      ['config', 'list'],
      { env, configDir },
    );
    expect(list.doc.profiles.default).toMatchObject({
      logged_in: 'no',
      session: expect.stringContaining('logged out (session ended'),
    });
    const status = await runJson<{ logged_in: boolean; session_ended_at: string }>(['auth', 'status'], {
      env,
      configDir,
    });
    expect(status.code).toBe(3);
    expect(status.doc).toMatchObject({ logged_in: false, session_ended_at: profile.session_ended_at });
    expect(status.stderr).toContain('session ended; run `travel login`');
    // No request is even attempted now.
    proxy.reset();
    const again = await runCli(['whoami'], { env, configDir });
    expect(again.code).toBe(3);
    expect(again.stderr).toContain('session ended; run `travel login`');
    expect(proxy.seen).toHaveLength(0);
  });

  it('auth status: who, server, role, company, access and refresh expiry; it refreshes an expired session rather than report it dead', async () => {
    const loginStarted = Date.now();
    const configDir = await loggedIn();
    const loginEnded = Date.now();
    // Login stored when the refresh token expires: the server's refresh_expires_in from the login's answer.
    const atLogin = Date.parse(stored(configDir).refresh_expires_at ?? '');
    expect(atLogin).toBeGreaterThanOrEqual(loginStarted + REFRESH_TTL_MS);
    expect(atLogin).toBeLessThanOrEqual(loginEnded + REFRESH_TTL_MS);
    await waitPastExpiry(configDir);
    const statusStarted = Date.now();
    const r = await runJson<Record<string, unknown>>(['auth', 'status'], { env, configDir });
    expect(r.code, r.stderr).toBe(0);
    // The check refreshed: the new refresh token's lifetime counts from then, and status shows it.
    const refreshed = stored(configDir).refresh_expires_at as string;
    expect(Date.parse(refreshed)).toBeGreaterThanOrEqual(statusStarted + REFRESH_TTL_MS);
    expect(Date.parse(refreshed)).toBeGreaterThan(atLogin);
    expect(r.doc.refresh_token).toMatchObject({ stored: true, expires_at: refreshed });
    const refreshIn = (r.doc.refresh_token as { expires_in_seconds: number }).expires_in_seconds;
    expect(Math.abs(refreshIn - REFRESH_TTL_MS / 1000)).toBeLessThanOrEqual(60);
    expect(r.doc).toMatchObject({
      profile: 'default',
      base_url: proxy.url,
      logged_in: true,
      credential: 'session',
      source: 'profile',
      user: { email: server.agent.email, role: 'company_admin', company_code: server.agency.companyCode },
      refresh_token: { stored: true },
      refreshed: true,
      api_key: null,
    });
    const access = r.doc.access_token as { expires_at: string; expires_in_seconds: number };
    expect(Date.parse(access.expires_at)).toBe((decodeClaims(stored(configDir).token)?.exp ?? 0) * 1000);
    expect(access.expires_in_seconds).toBeGreaterThan(0);
    expect(access.expires_in_seconds).toBeLessThanOrEqual(5);

    const human = await runCli(['auth', 'status'], { env, configDir });
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain(`${server.agent.email} (company_admin) on ${proxy.url}`);
    expect(human.stdout).toContain(`company:       ${server.agency.companyCode}`);
    expect(human.stdout).toMatch(/access token: {2}expires \d{4}-\d\d-\d\dT/);
    expect(human.stdout).toContain(
      `refresh token: stored; expires ${stored(configDir).refresh_expires_at} (in 30d); renewed at every refresh`,
    );

    const token = stored(configDir).token as string;
    const viaEnv = await runJson<Record<string, unknown>>(['auth', 'status'], {
      env: { ...env, TRAVEL_TOKEN: token },
      configDir: freshConfigDir(),
    });
    expect(viaEnv.code, viaEnv.stderr).toBe(0);
    expect(viaEnv.doc).toMatchObject({ credential: 'token', source: 'TRAVEL_TOKEN', refresh_token: null });

    const nobody = await runCli(['auth', 'status'], { env, configDir: freshConfigDir() });
    expect(nobody.code).toBe(3);
    expect(nobody.stderr).toContain('not logged in on profile "default"');
  });

  it('config list never claims a dead session: active / expired-but-refreshable / refresh token expired / ended', async () => {
    const configDir = await loggedIn();
    const exp = new Date((decodeClaims(stored(configDir).token)?.exp ?? 0) * 1000).toISOString();
    const refreshEnd = stored(configDir).refresh_expires_at as string;
    expect(Date.parse(refreshEnd)).toBeGreaterThan(Date.parse(exp));
    const { ctx, io } = realWorld(configDir);
    await runConfigList(ctx);
    expect(io.stdout).toContain('  logged_in = yes');
    expect(io.stdout).toContain(
      `  session = active; access token valid until ${exp}; renewable until ${refreshEnd}`,
    );
    expect(io.stdout.join('\n')).not.toContain(stored(configDir).refresh_token as string);

    const later = realWorld(configDir, () => new Date(Date.parse(exp) + 1000));
    await runConfigList(later.ctx);
    expect(later.io.stdout.join('\n')).toContain(
      `session = access token expired ${exp}; the next command refreshes it`,
    );
    // Once the refresh token's own expiry (from the server, stored at login) has passed, offline:
    const dead = realWorld(configDir, () => new Date(Date.parse(refreshEnd) + 1000));
    await runConfigList(dead.ctx);
    expect(dead.io.stdout).toContain('  logged_in = no');
    expect(dead.io.stdout).toContain(
      `  session = logged out (session ended ${refreshEnd}: the refresh token expired)`,
    );

    // A profile the server ended (recorded by the failed refresh):
    const file = join(configDir, 'config.json');
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    doc.profiles.old = { session_ended_at: '2026-11-24T10:00:00.000Z' };
    writeFileSync(file, JSON.stringify(doc), { mode: 0o600 });
    const ended = realWorld(configDir);
    await runConfigList(ended.ctx);
    expect(ended.io.stdout.join('\n')).toContain(
      '[old]\n  logged_in = no\n  session = logged out (session ended 2026-11-24T10:00:00.000Z)',
    );
  });
});

describe.skipIf(!hasTmux)('in a terminal (tmux), ACCESS_TOKEN_TTL_SECONDS=5', () => {
  let tmux: TmuxSession | undefined;
  afterAll(() => tmux?.kill());
  const termEnv = (configDir: string) => ({
    TRAVEL_BASE_URL: proxy.url,
    TRAVEL_CONFIG_DIR: configDir,
    HOME: configDir,
    CI: '',
    TERM: 'xterm-256color',
  });

  it('login, wait past expiry, search + book with no login prompt; session revoked: exit 3 "session ended"', async () => {
    const configDir = freshConfigDir();
    tmux = startTmux(['login'], termEnv(configDir));
    await tmux.waitFor('Email');
    tmux.type(server.agent.email);
    tmux.send('Enter');
    await tmux.waitFor('Password');
    tmux.type(server.agent.password);
    tmux.send('Enter');
    expect(await tmux.waitFor('[exit 0]')).toContain('Logged in');
    tmux.kill();

    await waitPastExpiry(configDir);
    proxy.reset();
    tmux = startTmux(
      ['search', 'flight', '--from', 'LHR', '--to', 'DXB', '--date', inDays(43), '--supplier', 'amadeus'],
      termEnv(configDir),
    );
    await tmux.waitFor('Pick an offer to book', 60_000);
    tmux.send('Enter'); // the cheapest offer
    let screen = await tmux.waitFor(/Saved travellers|Traveller 1: first name/);
    if (screen.includes('Saved travellers')) {
      tmux.send('Enter');
      await tmux.waitFor('Traveller 1: first name');
    }
    for (const [prompt, value] of [
      ['Traveller 1: first name', 'Ada'],
      ['Traveller 1: last name', 'Lovelace'],
    ] as const) {
      await tmux.waitFor(prompt);
      tmux.type(value);
      tmux.send('Enter');
    }
    await tmux.waitFor('gender');
    tmux.send('Enter');
    await tmux.waitFor('date of birth');
    tmux.type('1985-12-10');
    tmux.send('Enter');
    await tmux.waitFor('Contact email');
    tmux.send('C-u');
    tmux.type('ada@example.org');
    tmux.send('Enter');
    await tmux.waitFor('Contact phone');
    tmux.type('+447700900123');
    tmux.send('Enter');
    await tmux.waitFor('Payment mode');
    tmux.send('Enter');
    await tmux.waitFor(/Book for [A-Z]{3} \d+\.\d\d\?/, 30_000);
    tmux.send('Enter');
    screen = await tmux.waitFor(/\[exit \d\]/, 60_000);
    expect(screen).toMatch(/PNR [A-Z0-9]{6}/);
    expect(screen).toContain('[exit 0]');
    expect(screen).not.toMatch(/Password|Email|travel login/);
    expect(proxy.count('POST', REFRESH)).toBeGreaterThanOrEqual(1);
    expect(proxy.seen.filter((s) => s.status === 401)).toEqual([]);
    tmux.kill();

    // Expired again: a plain command refreshes again (with the rotated refresh token) and succeeds.
    await waitPastExpiry(configDir);
    tmux = startTmux(['whoami'], termEnv(configDir));
    expect(await tmux.waitFor(/\[exit \d\]/)).toContain(`${server.agent.email} (company_admin)`);
    tmux.kill();

    // Revoke the session on the server (logout with its refresh token, as another device would).
    const out = await fetch(`${server.url}/api/v1/auth/logout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refresh_token: stored(configDir).refresh_token }),
    });
    expect(out.status).toBe(200);
    tmux = startTmux(['booking', 'list'], termEnv(configDir));
    screen = await tmux.waitFor(/\[exit \d\]/);
    expect(screen).toContain('session ended; run `travel login`');
    expect(screen).toContain('[exit 3]');
    expect(screen).not.toMatch(/Password|Email:/);
  });
});
