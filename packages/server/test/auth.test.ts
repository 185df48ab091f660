import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createInvitation } from '../src/domains/auth/invitations.ts';
import { TokenService } from '../src/internal/tokens.ts';
import { fixtureContract } from './fixtures/contract.ts';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { expectMatchesContract } from './helpers/contract.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMIT_LOGIN_ACCOUNT: '3/300', RATE_LIMIT_LOGIN_IP: '1000/300' } });
});
afterAll(() => t.close());

const linkFrom = (text: string) => {
  const m = /(http:\/\/travel\.test\/api\/v1\/auth\/verify-email\?\S+)/.exec(text);
  if (!m?.[1]) throw new Error('no link in mail');
  return new URL(m[1]);
};

async function registerAndVerify(email: string, password = 'correct horse battery') {
  const reg = await t.request('POST', '/api/v1/auth/register', {
    body: { email, password, full_name: 'Ann Example' },
  });
  expect(reg.status).toBe(200);
  const mail = t.mailer.sent.find((m) => m.to === email.toLowerCase());
  const link = linkFrom(mail?.text ?? '');
  const v = await t.request('GET', `${link.pathname}${link.search}`);
  expect(v.status).toBe(200);
  return reg;
}

describe('register, verify, login, me', () => {
  test('the whole flow, with contract-shaped responses', async () => {
    const email = 'ann@example.test';
    const reg = await t.request('POST', '/api/v1/auth/register', {
      body: { email, password: 'correct horse battery', full_name: 'Ann Example' },
    });
    expect(reg.status).toBe(200);
    expectMatchesContract('registerUser', 200, reg.body, fixtureContract);
    expect(reg.body).toMatchObject({
      verification_required: true,
      user: { role: 'customer', email_verified: false },
    });
    expect(JSON.stringify(reg.body)).not.toContain('correct horse');

    const early = await t.request('POST', '/api/v1/auth/login', {
      body: { email, password: 'correct horse battery' },
    });
    expect(early.status).toBe(403);
    expect(early.body.code).toBe('email_not_verified');

    const link = linkFrom(t.mailer.sent.at(-1)?.text ?? '');
    expect(link.searchParams.get('type')).toBe('signup');
    const v = await t.request('GET', `${link.pathname}${link.search}`);
    expect(v.status).toBe(200);
    expectMatchesContract('verifyEmail', 200, v.body, fixtureContract);
    expect(v.body.verified).toBe(true);

    const login = await t.request('POST', '/api/v1/auth/login', {
      body: { email, password: 'correct horse battery' },
    });
    expect(login.status).toBe(200);
    expectMatchesContract('login', 200, login.body, fixtureContract);
    expect(login.body.expires_in).toBe(900);

    const me = await t.request('GET', '/api/v1/auth/me', { token: login.body.access_token });
    expect(me.status).toBe(200);
    expectMatchesContract('getCurrentUser', 200, me.body, fixtureContract);
    expect(me.body).toMatchObject({ email, role: 'customer', email_verified: true, status: 'active' });

    const audit = await t.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('entity_id', '=', me.body.user_id)
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['registered', 'email_verified']);
  });

  test("password is stored hashed (scrypt at the tests' PASSWORD_SCRYPT_N)", async () => {
    const u = await t.database.db
      .selectFrom('users')
      .select('password_hash')
      .where('email', '=', 'ann@example.test')
      .executeTakeFirstOrThrow();
    expect(u.password_hash).toMatch(/^scrypt\$1024\$8\$1\$/);
    expect(u.password_hash).not.toContain('correct horse');
  });

  test('wrong password and unknown account are the same 401', async () => {
    const a = await t.request('POST', '/api/v1/auth/login', {
      body: { email: 'ann@example.test', password: 'nope' },
    });
    const b = await t.request('POST', '/api/v1/auth/login', {
      body: { email: 'ghost@example.test', password: 'nope' },
    });
    expect([a.status, b.status]).toEqual([401, 401]);
    expect(a.body.code).toBe('invalid_credentials');
    expect(b.body.code).toBe('invalid_credentials');
  });

  test('a tampered verification link is refused', async () => {
    const r = await t.request('GET', '/api/v1/auth/verify-email?access_token=abc.def.ghi&type=signup');
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('verification_token_invalid');
  });
});

describe('tokens', () => {
  test('refresh rotates; a spent refresh token revokes its family and its access tokens; logout revokes', async () => {
    await registerAndVerify('rita@example.test');
    const login = await t.request('POST', '/api/v1/auth/login', {
      body: { email: 'rita@example.test', password: 'correct horse battery' },
    });
    const first = login.body.refresh_token as string;
    const r1 = await t.request('POST', '/api/v1/auth/refresh', { body: { refresh_token: first } });
    expect(r1.status).toBe(200);
    expectMatchesContract('refreshToken', 200, r1.body, fixtureContract);
    expect(r1.body.refresh_token).not.toBe(first);
    const reuse = await t.request('POST', '/api/v1/auth/refresh', { body: { refresh_token: first } });
    expect(reuse.status).toBe(401);
    expect(reuse.body.code).toBe('invalid_refresh_token');
    // the rotated token died with its family, and so did the access tokens issued in it
    expect(
      (await t.request('POST', '/api/v1/auth/refresh', { body: { refresh_token: r1.body.refresh_token } }))
        .status,
    ).toBe(401);
    for (const token of [login.body.access_token, r1.body.access_token]) {
      expect((await t.request('GET', '/api/v1/auth/me', { token })).status).toBe(401);
    }

    const again = await t.request('POST', '/api/v1/auth/login', {
      body: { email: 'rita@example.test', password: 'correct horse battery' },
    });
    const out = await t.request('POST', '/api/v1/auth/logout', {
      body: { refresh_token: again.body.refresh_token },
    });
    expect(out.body).toEqual({ revoked: true });
    expect(
      (await t.request('POST', '/api/v1/auth/refresh', { body: { refresh_token: again.body.refresh_token } }))
        .status,
    ).toBe(401);
    const me = await t.request('GET', '/api/v1/auth/me', { token: again.body.access_token });
    expect(me.status).toBe(401);
    expect(me.body.code).toBe('invalid_token');
  });

  test('login and refresh say when the refresh token expires (refresh_expires_in), and the server refuses it exactly then', async () => {
    await registerAndVerify('rex@example.test');
    const ttl = 30 * 24 * 3600; // REFRESH_TOKEN_TTL_SECONDS default
    const login = await t.request('POST', '/api/v1/auth/login', {
      body: { email: 'rex@example.test', password: 'correct horse battery' },
    });
    expect(login.status).toBe(200);
    expectMatchesContract('login', 200, login.body);
    expect(login.body.refresh_expires_in).toBe(ttl);
    let moved = 0;
    const advance = (ms: number) => {
      t.clock.advance(ms);
      moved += ms;
    };
    try {
      // One second before the published expiry the refresh token still works; the new one has a new lifetime.
      advance((ttl - 1) * 1000);
      const r1 = await t.request('POST', '/api/v1/auth/refresh', {
        body: { refresh_token: login.body.refresh_token },
      });
      expect(r1.status, JSON.stringify(r1.body)).toBe(200);
      expectMatchesContract('refreshToken', 200, r1.body);
      expect(r1.body.refresh_expires_in).toBe(ttl);
      // At the published expiry of the rotated token it is refused.
      advance(ttl * 1000);
      const r2 = await t.request('POST', '/api/v1/auth/refresh', {
        body: { refresh_token: r1.body.refresh_token },
      });
      expect(r2.status).toBe(401);
      expect(r2.body.code).toBe('invalid_refresh_token');
    } finally {
      t.clock.advance(-moved);
    }
  });

  test('an expired access token is 401 token_expired', async () => {
    const u = await t.user();
    t.clock.advance(16 * 60 * 1000);
    try {
      const r = await t.request('GET', '/api/v1/auth/me', { token: u.token });
      expect(r.status).toBe(401);
      expect(r.body.code).toBe('token_expired');
    } finally {
      t.clock.advance(-16 * 60 * 1000);
    }
  });

  test('key rotation: tokens of an old key verify while it is listed, not after', async () => {
    const old = new TokenService({
      keys: [{ kid: 'k1', secret: 'a'.repeat(40) }],
      clock: t.clock,
      accessTtlSeconds: 60,
      verifyTtlSeconds: 60,
    });
    const rotated = new TokenService({
      keys: [
        { kid: 'k2', secret: 'b'.repeat(40) },
        { kid: 'k1', secret: 'a'.repeat(40) },
      ],
      clock: t.clock,
      accessTtlSeconds: 60,
      verifyTtlSeconds: 60,
    });
    const retired = new TokenService({
      keys: [{ kid: 'k2', secret: 'b'.repeat(40) }],
      clock: t.clock,
      accessTtlSeconds: 60,
      verifyTtlSeconds: 60,
    });
    const token = await old.signAccess({ userId: 'u', email: 'e@x.test', role: 'customer', companyId: null });
    await expect(rotated.verifyAccess(token)).resolves.toMatchObject({ userId: 'u' });
    await expect(retired.verifyAccess(token)).rejects.toThrow();
    const fresh = await rotated.signAccess({
      userId: 'u',
      email: 'e@x.test',
      role: 'customer',
      companyId: null,
    });
    await expect(retired.verifyAccess(fresh)).resolves.toMatchObject({ userId: 'u' });
  });
  test('a verified access token is remembered until it expires: the clock, a changed signature and logout still refuse it', async () => {
    const svc = new TokenService({
      keys: [{ kid: 'k1', secret: 'a'.repeat(40) }],
      clock: t.clock,
      accessTtlSeconds: 60,
      verifyTtlSeconds: 60,
    });
    const token = await svc.signAccess({ userId: 'u', email: 'e@x.test', role: 'customer', companyId: null });
    const first = await svc.verifyAccess(token);
    // The second answer is the remembered one (same object), not a second verification.
    expect(await svc.verifyAccess(token)).toBe(first);
    const [h, p, sig = ''] = token.split('.');
    const forged = `${h}.${p}.${sig.slice(0, -2)}${sig.endsWith('AA') ? 'BB' : 'AA'}`;
    await expect(svc.verifyAccess(forged)).rejects.toMatchObject({ reason: 'invalid' });
    t.clock.advance(61_000);
    try {
      await expect(svc.verifyAccess(token)).rejects.toMatchObject({ reason: 'expired' });
    } finally {
      t.clock.advance(-61_000);
    }

    // Through the service: a token used (and so remembered) before logout is refused after it.
    await registerAndVerify('cora@example.test');
    const login = await t.request('POST', '/api/v1/auth/login', {
      body: { email: 'cora@example.test', password: 'correct horse battery' },
    });
    const access = login.body.access_token as string;
    expect((await t.request('GET', '/api/v1/auth/me', { token: access })).status).toBe(200);
    expect((await t.request('GET', '/api/v1/auth/me', { token: access })).status).toBe(200);
    await t.request('POST', '/api/v1/auth/logout', { body: { refresh_token: login.body.refresh_token } });
    const me = await t.request('GET', '/api/v1/auth/me', { token: access });
    expect(me.status).toBe(401);
    expect(me.body.code).toBe('invalid_token');
  });
  test('signAccess takes an optional shorter lifetime (impersonation)', async () => {
    const svc = new TokenService({
      keys: [{ kid: 'k1', secret: 'a'.repeat(40) }],
      clock: t.clock,
      accessTtlSeconds: 3600,
      verifyTtlSeconds: 60,
    });
    const claims = { userId: 'u', email: 'e@x.test', role: 'customer' as const, companyId: null };
    const exp = (token: string) =>
      JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as {
        exp: number;
        iat: number;
      };
    const short = exp(await svc.signAccess(claims, 900));
    expect(short.exp - short.iat).toBe(900);
    const normal = exp(await svc.signAccess(claims));
    expect(normal.exp - normal.iat).toBe(3600);
  });
});

describe('security invariants', () => {
  test.each(['super_admin', 'company_admin', 'company_staff'])(
    'self-registration never grants %s',
    async (role) => {
      const code = `SELF_${role}`;
      await t.company(code);
      const r = await t.request('POST', '/api/v1/auth/register', {
        body: {
          email: `esc-${role}@example.test`,
          password: 'long enough pw',
          full_name: 'Eve',
          role,
          company_code: code,
        },
      });
      expect([400, 422]).toContain(r.status);
      const u = await t.database.db
        .selectFrom('users')
        .select('role')
        .where('email', '=', `esc-${role}@example.test`)
        .executeTakeFirst();
      expect(u).toBeUndefined();
    },
  );

  test('a valid invite grants exactly its role and company, once, for its email only', async () => {
    const companyId = await t.company('INVCO');
    const inv = await createInvitation(
      t.database.db,
      { email: 'staff@example.test', role: 'company_admin', companyId, invitedBy: null },
      t.clock,
    );
    const wrongEmail = await t.request('POST', '/api/v1/auth/register', {
      body: {
        email: 'other@example.test',
        password: 'long enough pw',
        full_name: 'O',
        invite_code: inv.code,
      },
    });
    expect(wrongEmail.status).toBe(400);
    const r = await t.request('POST', '/api/v1/auth/register', {
      body: {
        email: 'staff@example.test',
        password: 'long enough pw',
        full_name: 'S',
        invite_code: inv.code,
        role: 'customer',
      },
    });
    expect(r.status).toBe(200);
    expect(r.body.user).toMatchObject({
      role: 'company_admin',
      company_id: companyId,
      company_code: 'INVCO',
    });
    const twice = await t.request('POST', '/api/v1/auth/register', {
      body: {
        email: 'staff2@example.test',
        password: 'long enough pw',
        full_name: 'S',
        invite_code: inv.code,
      },
    });
    expect(twice.status).toBe(400);
    expect(twice.body.code).toBe('invalid_invite_code');
  });

  test('a suspended user, and a user of a suspended company, get 403 on every authenticated operation', async () => {
    const u = await t.user();
    await t.database.db.updateTable('users').set({ status: 'suspended' }).where('id', '=', u.id).execute();
    const r = await t.request('GET', '/api/v1/auth/me', { token: u.token });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('account_suspended');

    const companyId = await t.company();
    const staff = await t.user({ role: 'company_staff', companyId });
    expect((await t.request('GET', '/api/v1/auth/me', { token: staff.token })).status).toBe(200);
    await t.database.db
      .updateTable('companies')
      .set({ status: 'suspended' })
      .where('id', '=', companyId)
      .execute();
    const s = await t.request('GET', '/api/v1/auth/me', { token: staff.token });
    expect(s.status).toBe(403);
    expect(s.body.code).toBe('company_suspended');
  });

  test('failed logins are throttled per account and address; the owner elsewhere is not locked out', async () => {
    await registerAndVerify('brute@example.test');
    const codes: number[] = [];
    for (let i = 0; i < 4; i++) {
      const r = await t.request('POST', '/api/v1/auth/login', {
        body: { email: 'brute@example.test', password: 'wrong' },
        ip: '10.0.0.1',
      });
      codes.push(r.status);
    }
    expect(codes).toEqual([401, 401, 401, 429]);
    const sameClient = await t.request('POST', '/api/v1/auth/login', {
      body: { email: 'brute@example.test', password: 'correct horse battery' },
      ip: '10.0.0.1',
    });
    expect(sameClient.status).toBe(429);
    expect(Number(sameClient.headers.get('retry-after'))).toBeGreaterThan(0);
    // Failures spread over other addresses do not add up against the account.
    for (let i = 2; i < 6; i++) {
      const r = await t.request('POST', '/api/v1/auth/login', {
        body: { email: 'brute@example.test', password: 'wrong' },
        ip: `10.0.0.${i}`,
      });
      expect(r.status).toBe(401);
    }
    const owner = await t.request('POST', '/api/v1/auth/login', {
      body: { email: 'brute@example.test', password: 'correct horse battery' },
      ip: '10.0.9.9',
    });
    expect(owner.status).toBe(200);
  });

  test('failed logins are throttled per address (whatever the account)', async () => {
    const limited = await createTestApp({ env: { RATE_LIMIT_LOGIN_IP: '3/60' } });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 4; i++) {
        const r = await limited.request('POST', '/api/v1/auth/login', {
          body: { email: `x${i}@example.test`, password: 'wrong' },
          ip: '192.0.2.7',
        });
        codes.push(r.status);
      }
      expect(codes).toEqual([401, 401, 401, 429]);
      const elsewhere = await limited.request('POST', '/api/v1/auth/login', {
        body: { email: 'x9@example.test', password: 'wrong' },
        ip: '192.0.2.8',
      });
      expect(elsewhere.status).toBe(401);
    } finally {
      await limited.close();
    }
  });

  test('the admin seed is a verified super_admin and is created once', async () => {
    expect(await t.app.services.auth.seedAdmin('root@example.test', 'root password 1')).toEqual({
      created: true,
    });
    expect(await t.app.services.auth.seedAdmin('root@example.test', 'other')).toEqual({ created: false });
    const login = await t.request('POST', '/api/v1/auth/login', {
      body: { email: 'root@example.test', password: 'root password 1' },
    });
    expect(login.status).toBe(200);
    expect(login.body.user.role).toBe('super_admin');
  });
});
