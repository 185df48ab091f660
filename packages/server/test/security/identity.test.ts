/**
 * Issue 13 §4, identity hardening: token claims, revocation at logout and refresh-token reuse, login
 * throttling that counts failures only, registration that does not reveal which addresses exist, the
 * invitation page, password hashing parameters, and safe sandbox defaults (loopback, per-data-directory
 * JWT key, METRICS_TOKEN). Runs against the repository's openapi.json.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SignJWT } from 'jose';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../src/app.ts';
import { createInvitation } from '../../src/domains/auth/invitations.ts';
import { loadConfig } from '../../src/internal/config.ts';
import { sha256 } from '../../src/internal/ids.ts';
import {
  ARGON2_AVAILABLE,
  currentPasswordParams,
  hashPassword,
  needsRehash,
  OWASP_ARGON2ID,
  OWASP_SCRYPT,
  parseHash,
  passwordHashesWaiting,
  verifyPassword,
} from '../../src/internal/passwords.ts';
import { sandboxJwtKey } from '../../src/internal/tokens.ts';
import { MemoryMailer } from '../../src/mail/mailer.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { expectMatchesContract, realContract } from '../helpers/contract.ts';

const doc = realContract();
if (!doc) throw new Error('openapi.json is missing: run pnpm openapi');

const PASSWORD = 'correct horse battery';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    contract: doc,
    env: { RATE_LIMIT_LOGIN_ACCOUNT: '3/300', RATE_LIMIT_LOGIN_IP: '1000/300' },
  });
});
afterAll(() => t.close());

/** A verified, active account with a real password hash (at the test policy). */
async function account(app: TestApp, email = `id-${randomUUID()}@example.test`, password = PASSWORD) {
  await app.database.db
    .insertInto('users')
    .values({
      id: randomUUID(),
      email,
      password_hash: await hashPassword(password),
      full_name: 'Ida Example',
      role: 'customer',
      status: 'active',
      email_verified_at: app.clock.now(),
    })
    .execute();
  return email;
}

const login = (app: TestApp, email: string, password = PASSWORD, ip = '198.51.100.1') =>
  app.request('POST', '/api/v1/auth/login', { body: { email, password }, ip });

/** Signs an access token with the app's own key, with whatever claims the test wants. */
async function forge(
  app: TestApp,
  userId: string,
  shape: { iat?: number; exp?: number | null; jti?: boolean },
) {
  const key = app.config.jwtKeys[0];
  if (!key) throw new Error('no key');
  const now = Math.floor(app.clock.now().getTime() / 1000);
  const jwt = new SignJWT({ typ: 'access', role: 'customer', cid: null })
    .setProtectedHeader({ alg: 'HS256', kid: key.kid, typ: 'JWT' })
    .setIssuer('travel-service')
    .setAudience('travel-api')
    .setSubject(userId)
    .setIssuedAt(shape.iat ?? now);
  if (shape.jti !== false) jwt.setJti(randomUUID());
  if (shape.exp !== null) jwt.setExpirationTime(shape.exp ?? now + 600);
  return jwt.sign(new TextEncoder().encode(key.secret));
}

describe('access tokens: exp, iat and lifetime are checked', () => {
  test('a well-formed token is accepted; iat a few seconds ahead (clock skew) is tolerated', async () => {
    const u = await t.user();
    const now = Math.floor(t.clock.now().getTime() / 1000);
    expect((await t.request('GET', '/api/v1/auth/me', { token: await forge(t, u.id, {}) })).status).toBe(200);
    const skewed = await forge(t, u.id, { iat: now + 30, exp: now + 600 });
    expect((await t.request('GET', '/api/v1/auth/me', { token: skewed })).status).toBe(200);
  });

  type Shape = { iat?: number; exp?: number | null; jti?: boolean };
  test.each<[string, Shape]>([
    ['without exp', { exp: null }],
    ['with iat ten minutes in the future', { iat: 600, exp: 900 }],
    ['living 100 years', { exp: 100 * 365 * 86400 }],
    ['living one hour more than ACCESS_TOKEN_TTL_SECONDS', { exp: 900 + 3600 }],
    ['without jti', { jti: false }],
  ])('a correctly signed token %s is 401 invalid_token', async (_name, shape) => {
    const u = await t.user();
    const now = Math.floor(t.clock.now().getTime() / 1000);
    const token = await forge(t, u.id, {
      ...(shape.iat !== undefined ? { iat: now + shape.iat } : {}),
      ...(shape.exp === null ? { exp: null } : shape.exp !== undefined ? { exp: now + shape.exp } : {}),
      ...('jti' in shape ? { jti: shape.jti } : {}),
    });
    const r = await t.request('GET', '/api/v1/auth/me', { token });
    expect(r.status).toBe(401);
    expect(r.body.code).toBe('invalid_token');
    expectMatchesContract('getCurrentUser', 401, r.body);
  });
});

describe('logout and refresh-token reuse revoke the session’s access tokens at once', () => {
  test('after logout the access token is 401 at once; another session of the same user is not', async () => {
    const email = await account(t);
    const a = await login(t, email);
    const b = await login(t, email);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect((await t.request('GET', '/api/v1/auth/me', { token: a.body.access_token })).status).toBe(200);

    const out = await t.request('POST', '/api/v1/auth/logout', {
      body: { refresh_token: a.body.refresh_token },
    });
    expect(out.body).toEqual({ revoked: true });
    const after = await t.request('GET', '/api/v1/auth/me', { token: a.body.access_token });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('invalid_token');
    expectMatchesContract('getCurrentUser', 401, after.body);
    expect((await t.request('GET', '/api/v1/auth/me', { token: b.body.access_token })).status).toBe(200);
  });

  test('refresh-token reuse revokes every access token of the family', async () => {
    const email = await account(t);
    const first = await login(t, email);
    const second = await t.request('POST', '/api/v1/auth/refresh', {
      body: { refresh_token: first.body.refresh_token },
    });
    expect(second.status).toBe(200);
    for (const token of [first.body.access_token, second.body.access_token]) {
      expect((await t.request('GET', '/api/v1/auth/me', { token })).status).toBe(200);
    }
    const reuse = await t.request('POST', '/api/v1/auth/refresh', {
      body: { refresh_token: first.body.refresh_token },
    });
    expect(reuse.status).toBe(401);
    for (const token of [first.body.access_token, second.body.access_token]) {
      const r = await t.request('GET', '/api/v1/auth/me', { token });
      expect(r.status).toBe(401);
      expect(r.body.code).toBe('invalid_token');
    }
    const rotated = await t.request('POST', '/api/v1/auth/refresh', {
      body: { refresh_token: second.body.refresh_token },
    });
    expect(rotated.status).toBe(401);
  });

  test('with a status cache: the revoking process refuses at once, another within AUTH_STATUS_CACHE_MS', async () => {
    const one = await createTestApp({ contract: doc, env: { AUTH_STATUS_CACHE_MS: '60000' } });
    // A second process on the same database, with the same key and its own cache.
    const two = createApp({
      config: one.config,
      database: one.database,
      mailer: new MemoryMailer(),
      clock: one.clock,
      contract: doc,
      logger: pino({ level: 'silent' }),
    });
    const meOn = async (app: 'one' | 'two', token: string) => {
      if (app === 'one') return (await one.request('GET', '/api/v1/auth/me', { token })).status;
      const res = await two.handle(
        new Request('http://travel.test/api/v1/auth/me', { headers: { authorization: `Bearer ${token}` } }),
      );
      return res.status;
    };
    try {
      const email = await account(one);
      const s = await login(one, email);
      const token = s.body.access_token as string;
      expect([await meOn('one', token), await meOn('two', token)]).toEqual([200, 200]);
      await one.request('POST', '/api/v1/auth/logout', { body: { refresh_token: s.body.refresh_token } });
      expect(await meOn('one', token)).toBe(401);
      // The other process still holds "not revoked" in its cache: the documented bound.
      expect(await meOn('two', token)).toBe(200);
      one.clock.advance(60_001);
      expect(await meOn('two', token)).toBe(401);
    } finally {
      await one.close();
    }
  });

  test('denylist rows expire with the tokens and are purged', async () => {
    const email = await account(t);
    const s = await login(t, email);
    await t.request('POST', '/api/v1/auth/logout', { body: { refresh_token: s.body.refresh_token } });
    const rows = () =>
      t.database.db
        .withTables<{ token_revocations: { key: string; expires_at: Date } }>()
        .selectFrom('token_revocations')
        .select(['key', 'expires_at'])
        .execute();
    const family = await t.database.db
      .selectFrom('refresh_tokens')
      .select('family_id')
      .where('token_hash', '=', sha256(s.body.refresh_token))
      .executeTakeFirstOrThrow();
    const mine = (await rows()).find((r) => r.key === `sid:${family.family_id}`);
    expect(mine).toBeDefined();
    // It lives as long as an access token can: the TTL plus the clock skew.
    expect(new Date(mine?.expires_at ?? 0).getTime() - t.clock.now().getTime()).toBe((900 + 60) * 1000);

    t.clock.advance(961_000);
    try {
      const other = await login(t, await account(t));
      await t.request('POST', '/api/v1/auth/logout', { body: { refresh_token: other.body.refresh_token } });
      expect((await rows()).some((r) => r.key === `sid:${family.family_id}`)).toBe(false);
    } finally {
      t.clock.advance(-961_000);
    }
  });
});

describe('login throttling counts failures, never locks the owner out', () => {
  test('fifty different users logging in with correct passwords from one address are never throttled', async () => {
    const app = await createTestApp({ contract: doc, env: { RATE_LIMIT_LOGIN_IP: '30/300' } });
    try {
      const emails: string[] = [];
      for (let i = 0; i < 50; i++) emails.push(await account(app, `staff${i}@office.test`));
      const statuses: number[] = [];
      for (const email of emails) statuses.push((await login(app, email, PASSWORD, '203.0.113.50')).status);
      expect(statuses.filter((s) => s !== 200)).toEqual([]);
      // and again: successes never add up
      for (const email of emails.slice(0, 10))
        expect((await login(app, email, PASSWORD, '203.0.113.50')).status).toBe(200);
    } finally {
      await app.close();
    }
  });

  test('an attacker failing on an account is blocked; the owner from another address logs in', async () => {
    const email = await account(t);
    const attacker = '192.0.2.66';
    const codes: number[] = [];
    for (let i = 0; i < 4; i++) codes.push((await login(t, email, 'guess', attacker)).status);
    expect(codes).toEqual([401, 401, 401, 429]);
    const blocked = await login(t, email, PASSWORD, attacker);
    expect(blocked.status).toBe(429);
    expect(blocked.body.code).toBe('rate_limited');
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expectMatchesContract('login', 429, blocked.body);

    const owner = await login(t, email, PASSWORD, '198.51.100.7');
    expect(owner.status).toBe(200);
    // The owner's own mistake from their address is an ordinary 401, not a lockout.
    expect((await login(t, email, 'typo', '198.51.100.7')).status).toBe(401);
  });

  test('the delay grows with each failure past the limit (progressive)', async () => {
    const email = await account(t);
    const ip = '192.0.2.77';
    for (let i = 0; i < 3; i++) await login(t, email, 'guess', ip);
    const first = Number((await login(t, email, 'guess', ip)).headers.get('retry-after'));
    t.clock.advance(first * 1000);
    expect((await login(t, email, 'guess', ip)).status).toBe(401);
    const second = Number((await login(t, email, 'guess', ip)).headers.get('retry-after'));
    expect(second).toBe(first * 2);
    t.clock.advance(second * 1000);
    // After the block the right password works and clears the account bucket of that client.
    expect((await login(t, email, PASSWORD, ip)).status).toBe(200);
    expect((await login(t, email, 'guess', ip)).status).toBe(401);
  });

  test('the per-address limit counts failures over all accounts, only for that address', async () => {
    const app = await createTestApp({ contract: doc, env: { RATE_LIMIT_LOGIN_IP: '5/300' } });
    try {
      const good = await account(app);
      const codes: number[] = [];
      for (let i = 0; i < 6; i++)
        codes.push((await login(app, `nobody${i}@example.test`, 'x', '192.0.2.99')).status);
      expect(codes).toEqual([401, 401, 401, 401, 401, 429]);
      expect((await login(app, good, PASSWORD, '192.0.2.99')).status).toBe(429);
      expect((await login(app, good, PASSWORD, '192.0.2.100')).status).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe('registration does not reveal which addresses exist', () => {
  const register = (email: string, extra: Record<string, unknown> = {}) =>
    t.request('POST', '/api/v1/auth/register', {
      body: { email, password: 'another long pw', full_name: 'Mallory', ...extra },
    });
  const shape = (v: unknown): unknown =>
    v && typeof v === 'object'
      ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shape(x)]))
      : v === null
        ? 'null'
        : typeof v;

  test('an existing address gets the answer a new one gets, and its owner a mail', async () => {
    const existing = await account(t);
    const fresh = await register(`new-${randomUUID()}@example.test`);
    const dup = await register(existing);
    expect(dup.status).toBe(fresh.status);
    expect(dup.status).toBe(200);
    expectMatchesContract('registerUser', 200, dup.body);
    expect(shape(dup.body)).toEqual(shape(fresh.body));
    expect(dup.body.message).toBe(fresh.body.message);
    expect(dup.body.verification_required).toBe(true);
    expect(dup.body.user).toMatchObject({ email: existing, status: 'pending', email_verified: false });

    const rows = await t.database.db
      .selectFrom('users')
      .select(['id', 'full_name'])
      .where('email', '=', existing)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.id).not.toBe(dup.body.user.user_id);
    expect(rows[0]?.full_name).toBe('Ida Example');

    const mail = t.mailer.sent.filter((m) => m.to === existing);
    expect(mail.map((m) => m.subject)).toEqual(['You already have an account']);
    expect(mail[0]?.text).toContain('you already have an account');
    expect(mail[0]?.text).not.toContain('verify-email');
  });

  test('an unverified existing address is mailed a fresh verification link instead of a second account', async () => {
    const email = `pending-${randomUUID()}@example.test`;
    expect((await register(email)).status).toBe(200);
    const again = await register(email);
    expect(again.status).toBe(200);
    const last = t.mailer.sent.filter((m) => m.to === email).at(-1);
    expect(last?.subject).toBe('You already have an account');
    const link = /(http:\/\/travel\.test\/api\/v1\/auth\/verify-email\?\S+)/.exec(last?.text ?? '')?.[1];
    expect(link).toBeDefined();
    const url = new URL(link as string);
    expect((await t.request('GET', `${url.pathname}${url.search}`)).status).toBe(200);
  });

  test('the contract no longer lists email_already_registered for registerUser', () => {
    const ops = doc.paths['/api/v1/auth/register'] as Record<string, { responses: Record<string, unknown> }>;
    expect(JSON.stringify(ops.post?.responses)).not.toContain('email_already_registered');
  });
});

describe('invitation link', () => {
  test('/join serves the accept-invitation page, which never reflects the query', async () => {
    const r = await t.request(
      'GET',
      '/join?invite_code=abc&email=%3Cscript%3Ealert(1)%3C%2Fscript%3E%40x.test',
    );
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/html/);
    expect(r.headers.get('content-security-policy')).toMatch(/script-src 'sha256-[^']+'/);
    expect(r.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(r.headers.get('referrer-policy')).toBe('no-referrer');
    expect(r.text).toContain("fetch('/api/v1/auth/register'");
    expect(r.text).toContain('name="invite_code"');
    expect(r.text).not.toContain('alert(1)');
  });

  test('the page’s call (register with the invitation code) joins the company', async () => {
    const companyId = await t.company('JOINCO');
    const email = `joiner-${randomUUID()}@example.test`;
    const inv = await createInvitation(
      t.database.db,
      { email, role: 'company_staff', companyId, invitedBy: null },
      t.clock,
    );
    const page = await t.request(
      'GET',
      `/join?invite_code=${encodeURIComponent(inv.code)}&email=${encodeURIComponent(email)}`,
    );
    expect(page.status).toBe(200);
    const r = await t.request('POST', '/api/v1/auth/register', {
      body: { email, full_name: 'Jo Iner', password: 'a good password', invite_code: inv.code },
    });
    expect(r.status).toBe(200);
    expect(r.body.user).toMatchObject({ role: 'company_staff', company_id: companyId, email_verified: true });
    expect((await login(t, email, 'a good password')).status).toBe(200);
  });

  test('an invitation for an address that already has an account is refused, not doubled', async () => {
    const email = await account(t);
    const inv = await createInvitation(
      t.database.db,
      { email, role: 'company_staff', companyId: await t.company(), invitedBy: null },
      t.clock,
    );
    const r = await t.request('POST', '/api/v1/auth/register', {
      body: { email, full_name: 'X', password: 'a good password', invite_code: inv.code },
    });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('invalid_invite_code');
  });
});

describe('password hashing', () => {
  test('the production policy is OWASP’s: argon2id m=19 MiB t=2 where the runtime has it, else scrypt N=2^17 r=8', () => {
    const p = currentPasswordParams({});
    expect(p).toEqual(ARGON2_AVAILABLE ? { alg: 'argon2id', m: 19456, t: 2, p: 1 } : OWASP_SCRYPT);
    expect(currentPasswordParams({ PASSWORD_SCRYPT_N: '1024' })).toEqual({
      alg: 'scrypt',
      n: 1024,
      r: 8,
      p: 1,
    });
  });

  test('hashes at production parameters verify (scrypt N=2^17 needs the raised maxmem)', async () => {
    const s = await hashPassword('pw at scale', OWASP_SCRYPT);
    expect(parseHash(s)?.params).toEqual(OWASP_SCRYPT);
    expect(await verifyPassword('pw at scale', s)).toBe(true);
    expect(await verifyPassword('pw at scal', s)).toBe(false);
    if (ARGON2_AVAILABLE) {
      const a = await hashPassword('pw at scale', OWASP_ARGON2ID);
      expect(a).toMatch(/^argon2id\$m=19456,t=2,p=1\$/);
      expect(await verifyPassword('pw at scale', a)).toBe(true);
      expect(await verifyPassword('PW at scale', a)).toBe(false);
      expect(needsRehash(s, OWASP_ARGON2ID)).toBe(true);
      expect(needsRehash(a, OWASP_ARGON2ID)).toBe(false);
    }
  });

  test('a weaker stored hash is replaced on a successful login, and still logs in after', async () => {
    const email = await account(t);
    const weak = await hashPassword(PASSWORD, 16);
    await t.database.db
      .updateTable('users')
      .set({ password_hash: weak })
      .where('email', '=', email)
      .execute();
    expect((await login(t, email)).status).toBe(200);
    const { password_hash } = await t.database.db
      .selectFrom('users')
      .select('password_hash')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(password_hash).not.toBe(weak);
    expect(parseHash(password_hash)?.params).toEqual(currentPasswordParams());
    expect((await login(t, email)).status).toBe(200);
  });

  test('at most PASSWORD_HASH_CONCURRENCY (2) hashes run at once; the rest wait in line', async () => {
    const all = Array.from({ length: 6 }, () => hashPassword('burst', 1024));
    expect(passwordHashesWaiting()).toBe(4);
    await Promise.all(all);
    expect(passwordHashesWaiting()).toBe(0);
  });
});

describe('sandbox defaults', () => {
  test('sandbox listens on 127.0.0.1 unless HOST is set; live mode on every address', () => {
    expect(loadConfig({ SUPPLIERS: 'sandbox' }).host).toBe('127.0.0.1');
    expect(loadConfig({ SUPPLIERS: 'sandbox', HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    const live = {
      SUPPLIERS: 'live',
      JWT_SECRET: 'x'.repeat(40),
      TRAVEL_ADMIN_EMAIL: 'a@x.test',
      TRAVEL_ADMIN_PASSWORD: 'a long password',
    };
    expect(loadConfig(live).host).toBe('0.0.0.0');
  });

  test('the sandbox JWT key is random (per process in memory), never the old constant', () => {
    const a = loadConfig({ SUPPLIERS: 'sandbox' });
    const b = loadConfig({ SUPPLIERS: 'sandbox' });
    expect(a.jwtKeysGenerated).toBe(true);
    expect(a.jwtKeys[0]?.secret).not.toBe(b.jwtKeys[0]?.secret);
    expect(a.jwtKeys[0]?.secret.length).toBeGreaterThanOrEqual(32);
    expect(a.jwtKeys[0]?.secret).not.toContain('sandbox-only-insecure');
    expect(loadConfig({ SUPPLIERS: 'sandbox', JWT_SECRET: 'y'.repeat(40) }).jwtKeysGenerated).toBe(false);
  });

  test('per data directory: made once with mode 0600, reused, and agreed by concurrent starts', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'travel-jwt-'));
    const other = await mkdtemp(join(tmpdir(), 'travel-jwt-'));
    try {
      const keys = await Promise.all(Array.from({ length: 5 }, () => sandboxJwtKey(dir)));
      expect(new Set(keys.map((k) => k.secret)).size).toBe(1);
      expect((await stat(join(dir, 'jwt-secret'))).mode & 0o777).toBe(0o600);
      expect((await sandboxJwtKey(dir)).secret).toBe(keys[0]?.secret);
      expect((await sandboxJwtKey(other)).secret).not.toBe(keys[0]?.secret);
    } finally {
      await rm(dir, { recursive: true, force: true });
      await rm(other, { recursive: true, force: true });
    }
  });

  test('pnpm start in sandbox: binds 127.0.0.1 by default, and a token survives a restart on the same DATA_DIR', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'travel-sandbox-'));
    // What `pnpm start` runs: the server with its emulators in the same process.
    const main = fileURLToPath(new URL('../../sandbox/main.ts', import.meta.url));
    const start = () =>
      new Promise<{ child: ChildProcess; url: string }>((resolve, reject) => {
        const child = spawn(process.execPath, [main], {
          env: {
            PATH: process.env.PATH ?? '',
            PORT: '0',
            DATA_DIR: dataDir,
            LOG_LEVEL: 'warn',
            PASSWORD_SCRYPT_N: '1024',
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        const onData = (c: Buffer) => {
          out += c.toString();
          const m = /Travel service listening on (http:\/\/[^\s"]+)/.exec(out);
          if (m?.[1]) resolve({ child, url: m[1] });
        };
        child.stdout?.on('data', onData);
        child.stderr?.on('data', onData);
        child.once('exit', (code) => reject(new Error(`server exited (${code}) before listening:\n${out}`)));
      });
    const stop = (child: ChildProcess) =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
    let run = await start();
    try {
      expect(run.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const res = await fetch(`${run.url}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'admin@sandbox.travel', password: 'sandbox-admin-pass' }),
      });
      expect(res.status).toBe(200);
      const token = ((await res.json()) as { access_token: string }).access_token;
      expect((await stat(join(dataDir, 'jwt-secret'))).mode & 0o777).toBe(0o600);
      await stop(run.child);
      run = await start();
      const me = await fetch(`${run.url}/api/v1/auth/me`, { headers: { authorization: `Bearer ${token}` } });
      expect(me.status).toBe(200);
    } finally {
      await stop(run.child);
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('METRICS_TOKEN', () => {
  test('when set, /metrics and /metrics/* need it as a Bearer token', async () => {
    const secret = 'metrics-'.padEnd(40, 'z');
    const app = await createTestApp({ contract: doc, env: { METRICS_TOKEN: secret } });
    try {
      for (const [path, op] of [
        ['/metrics', 'getPrometheusMetrics'],
        ['/metrics/combined', 'getCombinedMetrics'],
        ['/metrics/cache', 'getCacheMetrics'],
      ] as const) {
        const none = await app.request('GET', path);
        expect(none.status).toBe(401);
        expect(none.body.code).toBe('not_authenticated');
        expectMatchesContract(op, 401, none.body);
        const wrong = await app.request('GET', path, { headers: { authorization: 'Bearer nope' } });
        expect(wrong.status).toBe(401);
        expect(wrong.body.code).toBe('invalid_token');
        const right = await app.request('GET', path, { headers: { authorization: `Bearer ${secret}` } });
        expect(right.status).toBe(200);
      }
      // Other public operations are unaffected.
      expect((await app.request('GET', '/health/')).status).toBe(200);
    } finally {
      await app.close();
    }
  });

  test('unset, the metrics stay public as the spec lists them', async () => {
    expect((await t.request('GET', '/metrics')).status).toBe(200);
    expect((await t.request('GET', '/metrics/combined')).status).toBe(200);
  });
});
