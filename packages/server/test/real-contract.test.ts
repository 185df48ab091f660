import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createMailer } from '../src/mail/mailer.ts';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { expectMatchesContract, realContract } from './helpers/contract.ts';

const doc = realContract();
if (!doc) throw new Error('openapi.json is missing: run pnpm openapi');

describe('against the repository openapi.json', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ contract: doc });
  });
  afterAll(() => t.close());

  test('every operation gets a route (no 404/405 for any declared path and method)', async () => {
    for (const op of t.app.kernel.operations) {
      const path = op.path.replace(/\{[^}]+\}/g, '1');
      const r = await t.request(op.method, path, { headers: { 'idempotency-key': `k-${op.operationId}` } });
      expect([404, 405].includes(r.status) && r.body?.code !== 'not_found' ? op.operationId : 'ok').toBe(
        'ok',
      );
      expect(
        r.body?.code === 'not_found' && r.body?.detail?.startsWith('No such path') ? op.operationId : 'ok',
      ).toBe('ok');
    }
  });

  test('platform responses match the contract', async () => {
    for (const [path, id] of [
      ['/health/', 'getHealth'],
      ['/metrics/cache', 'getCacheMetrics'],
      ['/metrics/combined', 'getCombinedMetrics'],
      ['/metrics/redis', 'getCacheStoreMetrics'],
      ['/config', 'getPublicConfig'],
      ['/', 'getApiInfo'],
    ] as const) {
      const r = await t.request('GET', path);
      expect(r.status).toBe(200);
      expectMatchesContract(id, 200, r.body);
    }
    const m = await t.request('POST', '/admin/maintenance/run');
    expectMatchesContract('runMaintenance', m.status, m.body);
  });

  test('the auth flow matches the contract', async () => {
    const email = 'contract@example.test';
    const reg = await t.request('POST', '/api/v1/auth/register', {
      body: { email, password: 'a long password', full_name: 'C' },
    });
    expectMatchesContract('registerUser', reg.status, reg.body);
    const link = new URL(/(http\S+verify-email\S+)/.exec(t.mailer.sent.at(-1)?.text ?? '')?.[1] ?? '');
    const v = await t.request('GET', `${link.pathname}${link.search}`);
    expectMatchesContract('verifyEmail', v.status, v.body);
    const login = await t.request('POST', '/api/v1/auth/login', {
      body: { email, password: 'a long password' },
    });
    expectMatchesContract('login', login.status, login.body);
    const me = await t.request('GET', '/api/v1/auth/me', { token: login.body.access_token });
    expectMatchesContract('getCurrentUser', me.status, me.body);
    const bad = await t.request('POST', '/api/v1/auth/login', { body: { email } });
    expect(bad.status).toBe(422);
    expectMatchesContract('login', 422, bad.body);
    const wrong = await t.request('POST', '/api/v1/auth/login', { body: { email, password: 'nope' } });
    expectMatchesContract('login', 401, wrong.body);
  });
});

describe('outbox mail', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'outbox-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  test('writes an RFC 5322 .eml whose link is on one line', async () => {
    const mailer = createMailer({ from: 'Travel <no-reply@travel.test>', outboxDir: dir });
    const link = `http://x.test/api/v1/auth/verify-email?access_token=${'a'.repeat(300)}&type=signup`;
    await mailer.send({ to: 'u@example.test', subject: 'Vérifiez', text: `Open:\n${link}\n` });
    const [file] = await readdir(dir);
    const eml = await readFile(join(dir, file ?? ''), 'utf8');
    expect(eml).toMatch(
      /^From: Travel <no-reply@travel.test>\r\nTo: u@example.test\r\nSubject: =\?UTF-8\?B\?/,
    );
    expect(eml).toContain('\r\nMessage-ID: <');
    expect(eml).toContain('\r\n\r\nOpen:\r\n');
    expect(eml).toContain(link);
  });
});
