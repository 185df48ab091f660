import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { OpenApiDoc } from '../src/kernel/contract.ts';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { expectMatchesContract, realContract } from './helpers/contract.ts';

// The real contract, so every response here is also checked by the kernel's response validator (strict).
const contract = realContract() as OpenApiDoc;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ contract });
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
      expectMatchesContract('getHealth', 200, r.body);
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
      contract,
      env: {
        SUPPLIERS: 'live',
        JWT_SECRET: 'x'.repeat(40),
        TRAVEL_ADMIN_EMAIL: 'a@b.test',
        TRAVEL_ADMIN_PASSWORD: 'pw-pw-pw-pw',
      },
    });
    try {
      // The code the contract documents for both (x-error-codes: development_only).
      for (const [id, path] of [
        ['clearAllCache', '/admin/cache/clear?confirm=true'],
        ['runMaintenance', '/admin/maintenance/run'],
      ] as const) {
        const r = await live.request('POST', path);
        expect(r.status).toBe(403);
        expect(r.body.code).toBe('development_only');
        expectMatchesContract(id, 403, r.body);
      }
      expect(live.violations).toEqual([]);
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

  test('the strict response validator saw no violation in this file', () => {
    expect(t.violations).toEqual([]);
  });
});
