import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fixtureContract } from './fixtures/contract.ts';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { expectMatchesContract } from './helpers/contract.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('platform endpoints', () => {
  test.each(['/health/', '/health/health', '/api/v1/health/', '/api/v1/health/health'])(
    '%s reports database and cache with latency',
    async (path) => {
      const r = await t.request('GET', path);
      expect(r.status).toBe(200);
      expect(r.body.status).toBe('ok');
      expect(r.body.components.database).toMatchObject({ status: 'ok', latency_ms: expect.any(Number) });
      expect(r.body.components.cache).toMatchObject({ status: 'ok', latency_ms: expect.any(Number) });
      expectMatchesContract('getHealth', 200, r.body, fixtureContract);
    },
  );

  test('root, config (no secrets), cache metrics, honest redis metrics, combined', async () => {
    expect((await t.request('GET', '/')).body).toMatchObject({
      docs_url: '/docs',
      openapi_url: '/openapi.json',
    });
    const cfg = await t.request('GET', '/config');
    expect(cfg.body).toMatchObject({ api_prefix: '/api/v1', sandbox: true });
    expect(cfg.text).not.toMatch(/secret|password|postgres:\/\//i);
    expect((await t.request('GET', '/metrics/cache')).body).toHaveProperty('hit_ratio');
    const redis = await t.request('GET', '/metrics/redis');
    expect(redis.body.backend).toBe('memory');
    expect(redis.body.description).toMatch(/no Redis/);
    const combined = await t.request('GET', '/metrics/combined');
    expect(combined.body.requests.total).toBeGreaterThan(0);
  });

  test('cache clear needs confirm=true; maintenance runs in sandbox', async () => {
    expect((await t.request('POST', '/admin/cache/clear')).status).toBe(400);
    const ok = await t.request('POST', '/admin/cache/clear?confirm=true');
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ pattern: '*', cleared: expect.any(Number) });
    const m = await t.request('POST', '/admin/maintenance/run');
    expect(m.status).toBe(200);
    expect(m.body).toHaveProperty('expired_idempotency_keys_removed');
  });

  test('the dev conveniences are 403 outside sandbox mode', async () => {
    const live = await createTestApp({
      env: {
        SUPPLIERS: 'live',
        JWT_SECRET: 'x'.repeat(40),
        TRAVEL_ADMIN_EMAIL: 'a@b.test',
        TRAVEL_ADMIN_PASSWORD: 'pw-pw-pw-pw',
      },
    });
    try {
      expect((await live.request('POST', '/admin/cache/clear?confirm=true')).status).toBe(403);
      expect((await live.request('POST', '/admin/maintenance/run')).status).toBe(403);
    } finally {
      await live.close();
    }
  });

  test('prometheus metrics, the contract, and the offline docs page', async () => {
    await t.request('GET', '/health/');
    const prom = await t.request('GET', '/metrics');
    expect(prom.headers.get('content-type')).toContain('text/plain');
    expect(prom.text).toContain('http_requests_total{method="GET",operation="getHealth",status="200"}');
    expect(prom.text).toContain('http_request_duration_seconds_bucket');
    const spec = await t.request('GET', '/openapi.json');
    expect(spec.body.paths['/health/']).toBeDefined();
    const docs = await t.request('GET', '/docs');
    expect(docs.headers.get('content-type')).toContain('text/html');
    expect(docs.text).toContain("Scalar.createApiReference('#app'");
    expect(docs.text).not.toMatch(/<script[^>]+src="https?:/);
  });
});
