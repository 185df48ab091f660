/**
 * Issue 28 (review M4): TRUST_PROXY. Behind a trusted proxy, limits, audit and logs see the client's
 * own address from X-Forwarded-For / Forwarded; a client the configuration does not trust cannot move
 * itself into another address's bucket (or out of its own) by sending the header.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { companyRoutes } from '../../src/domains/company/routes.ts';
import { ConfigError, loadConfig } from '../../src/internal/config.ts';
import { hashPassword } from '../../src/internal/passwords.ts';
import { parseTrustProxy } from '../../src/internal/trust-proxy.ts';
import { clientAddress, resolveClientAddress } from '../../src/kernel/client-address.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { realContract } from '../helpers/contract.ts';

const doc = realContract();
if (!doc) throw new Error('openapi.json is missing: run pnpm openapi');

const PROXY = '10.0.0.5';
const PASSWORD = 'correct horse battery';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    contract: doc,
    routes: (services) => companyRoutes(services),
    env: { TRUST_PROXY: '10.0.0.0/8', RATE_LIMIT_LOGIN_IP: '3/300', RATE_LIMIT_LOGIN_ACCOUNT: '100/300' },
  });
});
afterAll(() => t.close());

const h = (o: Record<string, string>) => ({ get: (n: string) => o[n.toLowerCase()] ?? null });

describe('resolving the client address', () => {
  test('unset: headers are ignored, the peer is the client', () => {
    expect(
      resolveClientAddress('203.0.113.9', h({ 'x-forwarded-for': '1.2.3.4' }), parseTrustProxy(undefined)),
    ).toBe('203.0.113.9');
  });

  test('a hop count takes what the outermost trusted proxy saw, whatever the client prepended', () => {
    const one = parseTrustProxy('1');
    expect(resolveClientAddress(PROXY, h({ 'x-forwarded-for': '198.51.100.7' }), one)).toBe('198.51.100.7');
    expect(resolveClientAddress(PROXY, h({ 'x-forwarded-for': '6.6.6.6, 198.51.100.7' }), one)).toBe(
      '198.51.100.7',
    );
    const two = parseTrustProxy('2');
    expect(
      resolveClientAddress(PROXY, h({ 'x-forwarded-for': '6.6.6.6, 198.51.100.7, 10.1.1.1' }), two),
    ).toBe('198.51.100.7');
    // No header: the peer.
    expect(resolveClientAddress(PROXY, h({}), one)).toBe(PROXY);
  });

  test('a CIDR list: the first untrusted address from the right; an untrusted peer is the client', () => {
    const list = parseTrustProxy('10.0.0.0/8, 127.0.0.1, fd00::/8');
    expect(
      resolveClientAddress(PROXY, h({ 'x-forwarded-for': '6.6.6.6, 198.51.100.7, 10.9.9.9' }), list),
    ).toBe('198.51.100.7');
    expect(
      resolveClientAddress('::ffff:127.0.0.1', h({ 'x-forwarded-for': '198.51.100.8:5555' }), list),
    ).toBe('198.51.100.8');
    expect(resolveClientAddress('fd00::1', h({ 'x-forwarded-for': '2001:db8::7' }), list)).toBe(
      '2001:db8::7',
    );
    expect(resolveClientAddress('203.0.113.9', h({ 'x-forwarded-for': '10.0.0.1' }), list)).toBe(
      '203.0.113.9',
    );
    // A garbage entry ends the walk at the proxy that wrote it.
    expect(resolveClientAddress(PROXY, h({ 'x-forwarded-for': 'not-an-ip' }), list)).toBe(PROXY);
  });

  test('Forwarded (RFC 7239) when TRUST_PROXY_HEADER says so; then X-Forwarded-For is never read', () => {
    const fwd = parseTrustProxy('1', 'forwarded');
    expect(
      resolveClientAddress(
        PROXY,
        h({ forwarded: 'for=6.6.6.6, for="[2001:db8::9]:4711";proto=https', 'x-forwarded-for': '7.7.7.7' }),
        fwd,
      ),
    ).toBe('2001:db8::9');
    expect(resolveClientAddress(PROXY, h({ 'x-forwarded-for': '7.7.7.7' }), fwd)).toBe(PROXY);
  });

  test('a value the server cannot read refuses to start', () => {
    expect(() => loadConfig({ SUPPLIERS: 'sandbox', TRUST_PROXY: '10.0.0.0/99' })).toThrow(ConfigError);
    expect(() => loadConfig({ SUPPLIERS: 'sandbox', TRUST_PROXY: 'proxy.internal' })).toThrow(ConfigError);
    expect(() => loadConfig({ SUPPLIERS: 'sandbox', TRUST_PROXY_HEADER: 'x-real-ip' })).toThrow(ConfigError);
    expect(clientAddress({ ip: '198.51.100.1' })).toBe('198.51.100.1');
  });
});

describe('behind a trusted proxy, end to end', () => {
  const login = (email: string, password: string, peer: string, forwardedFor?: string) =>
    t.request('POST', '/api/v1/auth/login', {
      body: { email, password },
      ip: peer,
      ...(forwardedFor ? { headers: { 'x-forwarded-for': forwardedFor } } : {}),
    });

  async function account() {
    const email = `tp-${randomUUID()}@example.test`;
    await t.database.db
      .insertInto('users')
      .values({
        id: randomUUID(),
        email,
        password_hash: await hashPassword(PASSWORD),
        full_name: 'Tess Proxy',
        role: 'customer',
        status: 'active',
        email_verified_at: t.clock.now(),
      })
      .execute();
    return email;
  }

  test('two clients behind the proxy are limited separately', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 4; i++)
      codes.push((await login(`ghost${i}@x.test`, 'x', PROXY, '198.51.100.30')).status);
    expect(codes).toEqual([401, 401, 401, 429]);
    // Another client through the same proxy logs in, and fails on its own budget.
    expect((await login(await account(), PASSWORD, PROXY, '198.51.100.31')).status).toBe(200);
    expect((await login('ghost@x.test', 'x', PROXY, '198.51.100.31')).status).toBe(401);
  });

  test("an untrusted client's header is ignored: it stays in its own bucket", async () => {
    const attacker = '203.0.113.40';
    const codes: number[] = [];
    for (let i = 0; i < 4; i++)
      codes.push((await login(`spoof${i}@x.test`, 'x', attacker, `198.51.100.${100 + i}`)).status);
    expect(codes).toEqual([401, 401, 401, 429]);
    // Nor can it put someone else's address over its limit.
    expect((await login(await account(), PASSWORD, PROXY, '198.51.100.100')).status).toBe(200);
  });

  test('the audit row of a request through the proxy carries the client address', async () => {
    const email = await account();
    const r = await login(email, PASSWORD, PROXY, '198.51.100.50');
    expect(r.status).toBe(200);
    const admin = await t.user({ role: 'company_admin', companyId: await t.company() });
    const created = await t.request('POST', '/api/v1/company/api-keys', {
      token: admin.token,
      body: { name: 'behind the proxy' },
      ip: PROXY,
      headers: { 'x-forwarded-for': '198.51.100.51' },
    });
    expect(created.status, created.text).toBe(201);
    const row = await t.database.db
      .selectFrom('audit_log')
      .select('ip')
      .where('actor_id', '=', admin.id)
      .executeTakeFirstOrThrow();
    expect(row.ip).toBe('198.51.100.51');
  });
});
