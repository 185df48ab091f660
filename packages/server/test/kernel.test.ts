import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fixtureContract } from './fixtures/contract.ts';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { expectMatchesContract } from './helpers/contract.ts';
import { createWidgetTable, testRoutes } from './helpers/test-routes.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ routes: (s) => testRoutes(s), env: { BODY_LIMIT_BYTES: '2048' } });
  await createWidgetTable(t.database.db);
});
afterAll(() => t.close());

describe('routing', () => {
  test('unknown path is 404 not_found with the error body', async () => {
    const r = await t.request('GET', '/nope');
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({
      code: 'not_found',
      request_id: expect.any(String),
      detail: expect.any(String),
    });
  });
  test('wrong method is 405 with Allow', async () => {
    const r = await t.request('DELETE', '/api/v1/test/widgets');
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('GET, HEAD, OPTIONS, POST');
    expect(r.body.code).toBe('method_not_allowed');
  });
  test('without a socket too: HEAD runs the GET operation and drops the body; OPTIONS answers Allow', async () => {
    const get = await t.request('GET', '/api/v1/test/items/5?page=2');
    const head = await t.request('HEAD', '/api/v1/test/items/5?page=2');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(get.text)));
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    const options = await t.request('OPTIONS', '/api/v1/test/widgets');
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('GET, HEAD, OPTIONS, POST');
    expect((await t.request('OPTIONS', '/nope')).status).toBe(404);
  });
  test('an operation without a handler is 501 not_implemented', async () => {
    const r = await t.request('GET', '/api/v1/test/unimplemented');
    expect(r.status).toBe(501);
    expect(r.body.code).toBe('not_implemented');
    expect(t.app.kernel.unimplemented).toEqual(['notYetBuilt']);
  });
  test('every operation of the contract gets a route', () => {
    const ops = Object.values(fixtureContract.paths).flatMap((p) => Object.keys(p)).length;
    expect(t.app.kernel.operations).toHaveLength(ops);
  });
  test('the request id is echoed, and minted when absent', async () => {
    const a = await t.request('GET', '/api/v1/test/items/1', { headers: { 'x-request-id': 'abc-123' } });
    expect(a.headers.get('x-request-id')).toBe('abc-123');
    const b = await t.request('GET', '/nope');
    expect(b.headers.get('x-request-id')).toBe(b.body.request_id);
  });
});

describe('request gates', () => {
  test('POST without JSON content type is 415 before auth or validation', async () => {
    const r = await t.request('POST', '/api/v1/test/widgets', {
      rawBody: 'name=x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(r.status).toBe(415);
    expect(r.body.code).toBe('unsupported_media_type');
  });
  test('a body over the limit is 413', async () => {
    const { token } = await t.user();
    const r = await t.request('POST', '/api/v1/test/widgets', { token, body: { name: 'x'.repeat(5000) } });
    expect(r.status).toBe(413);
    expect(r.body.code).toBe('payload_too_large');
  });
  test('malformed JSON is 422 at loc body', async () => {
    const { token } = await t.user();
    const r = await t.request('POST', '/api/v1/test/widgets', { token, rawBody: '{"name":' });
    expect(r.status).toBe(422);
    expect(r.body.detail[0]).toMatchObject({ loc: ['body'], type: 'json_invalid' });
    expectMatchesContract('createWidget', 422, r.body, fixtureContract);
  });
});

describe('validation', () => {
  test('path and query are coerced and query defaults applied', async () => {
    const r = await t.request('GET', '/api/v1/test/items/42?tags=a&tags=b&active=true');
    expect(r.status).toBe(200);
    expect(r.body.params).toEqual({ item_id: 42 });
    expect(r.body.query).toEqual({ page: 1, page_size: 20, tags: ['a', 'b'], active: true });
  });
  test('one entry per problem, loc rooted at path/query/header/body', async () => {
    const r = await t.request('GET', '/api/v1/test/items/abc?page=0&page_size=99', {
      headers: { 'x-trace': 'toolong' },
    });
    expect(r.status).toBe(422);
    const locs = r.body.detail.map((d: { loc: unknown[] }) => d.loc.join('.'));
    expect(locs.sort()).toEqual(['header.x-trace', 'path.item_id', 'query.page', 'query.page_size']);
  });
  test('body problems: missing and extra fields, wrong types', async () => {
    const { token } = await t.user();
    const r = await t.request('POST', '/api/v1/test/widgets', {
      token,
      body: { nam: 'x', company_id: 'one' },
    });
    expect(r.status).toBe(422);
    expect(r.body.detail).toEqual(
      expect.arrayContaining([
        { loc: ['body', 'name'], msg: 'Field required', type: 'missing' },
        expect.objectContaining({ loc: ['body', 'nam'], type: 'extra_forbidden' }),
        expect.objectContaining({ loc: ['body', 'company_id'], type: 'integer_type' }),
      ]),
    );
  });
});

describe('input hygiene (every operation, every part)', () => {
  test('a non-finite number (1e309, Infinity) coerced from the query is 422 finite_number', async () => {
    for (const v of ['1e309', 'Infinity', '-Infinity']) {
      const r = await t.request('GET', `/api/v1/test/items/1?page=${v}`);
      expect(r.status, v).toBe(422);
      expect(r.body.detail).toEqual([
        expect.objectContaining({ loc: ['query', 'page'], type: 'finite_number' }),
      ]);
    }
    const p = await t.request('GET', '/api/v1/test/items/1e309');
    expect(p.status).toBe(422);
    expect(p.body.detail).toEqual([
      expect.objectContaining({ loc: ['path', 'item_id'], type: 'finite_number' }),
    ]);
  });
  test('a NUL character in a query value (known or not) is 422 string_nul at its loc', async () => {
    const r = await t.request('GET', '/api/v1/test/items/1?tags=ok&tags=a%00b&other=%00');
    expect(r.status).toBe(422);
    expect(r.body.detail).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ loc: ['query', 'tags', 1], type: 'string_nul' }),
        expect.objectContaining({ loc: ['query', 'other'], type: 'string_nul' }),
      ]),
    );
  });
  test('body strings with NUL or a lone surrogate, keys included, and 1e309 are 422', async () => {
    const { token } = await t.user();
    const r = await t.request('POST', '/api/v1/test/search', {
      token,
      rawBody: '{"a":"x\\u0000y","b":["ok","\\udfff"],"c":{"d\\ud800":1},"e":1e309,"f":"\\ud83d\\ude00"}',
    });
    expect(r.status).toBe(422);
    expect(r.body.detail).toEqual([
      expect.objectContaining({ loc: ['body', 'a'], type: 'string_nul' }),
      expect.objectContaining({ loc: ['body', 'b', 1], type: 'string_unpaired_surrogate' }),
      expect.objectContaining({ loc: ['body', 'c', 'd\ud800'], type: 'string_unpaired_surrogate' }),
      expect.objectContaining({ loc: ['body', 'e'], type: 'finite_number' }),
    ]);
    const w = await t.request('POST', '/api/v1/test/widgets', { token, body: { name: 'a\u0000b' } });
    expect(w.status).toBe(422);
    expect(w.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'name'], type: 'string_nul' })]);
  });
  test('a deeply nested body is walked iteratively (the fuzz sends 10 000 levels)', async () => {
    const { token } = await t.user();
    const deep = `{"a":${'['.repeat(1000)}"\\u0000"${']'.repeat(1000)}}`;
    const r = await t.request('POST', '/api/v1/test/search', { token, rawBody: deep });
    expect(r.status).toBe(422);
    expect(r.body.detail[0]).toMatchObject({ type: 'string_nul' });
    expect(r.body.detail[0].loc).toHaveLength(1002);
  });
  test('a valid surrogate pair (emoji) passes', async () => {
    const { token } = await t.user();
    const r = await t.request('POST', '/api/v1/test/search', { token, body: { q: 'ok \u{1F600}' } });
    expect(r.status).toBe(202);
  });
});

describe('errors', () => {
  test('an unknown error is a bare 500 internal_error without stack or message', async () => {
    const r = await t.request('GET', '/api/v1/test/boom');
    expect(r.status).toBe(500);
    expect(r.body).toEqual({
      detail: 'Internal server error.',
      code: 'internal_error',
      request_id: expect.any(String),
    });
    expect(r.text).not.toContain('secret');
    expect(r.text).not.toContain('at ');
  });
  test('no token is 401, a forged token is 401, a wrong role is 403', async () => {
    expect((await t.request('GET', '/api/v1/test/admin-only')).body.code).toBe('not_authenticated');
    const forged = await t.request('GET', '/api/v1/test/admin-only', { token: 'eyJhbGciOiJIUzI1NiJ9.e30.x' });
    expect(forged.status).toBe(401);
    expect(forged.body.code).toBe('invalid_token');
    const { token } = await t.user({ role: 'company_admin', companyId: await t.company() });
    const r = await t.request('GET', '/api/v1/test/admin-only', { token });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('insufficient_role');
    const admin = await t.user({ role: 'super_admin' });
    expect((await t.request('GET', '/api/v1/test/admin-only', { token: admin.token })).status).toBe(200);
  });
  test('expectMatchesContract catches a body the contract does not describe', () => {
    expect(() => expectMatchesContract('getWidget', 200, { id: 'x' }, fixtureContract)).toThrow();
    expectMatchesContract('getWidget', 200, { id: 1, name: 'a', company_id: null }, fixtureContract);
  });
});

describe('rate limits', () => {
  test('searches are limited per caller: 429 with Retry-After', async () => {
    const limited = await createTestApp({ routes: (s) => testRoutes(s), env: { RATE_LIMIT_SEARCH: '2/60' } });
    try {
      const { token } = await limited.user();
      // Success answers name the budget too (RateLimit-*), counting down; every answer names the version.
      const budget = (h: { get(n: string): string | null }) =>
        ['limit', 'remaining', 'policy'].map((n) => h.get(`ratelimit-${n}`));
      const first = await limited.request('POST', '/api/v1/test/search', { token });
      expect(first.status).toBe(202);
      expect(budget(first.headers)).toEqual(['2', '1', '2;w=60']);
      expect(Number(first.headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(1);
      expect(first.headers.get('api-version')).toMatch(/^1\.\d+\.\d+$/);
      const second = await limited.request('POST', '/api/v1/test/search', { token });
      expect(second.status).toBe(202);
      expect(budget(second.headers)).toEqual(['2', '0', '2;w=60']);
      const r = await limited.request('POST', '/api/v1/test/search', { token });
      expect(r.status).toBe(429);
      expect(r.body.code).toBe('rate_limited');
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(budget(r.headers)).toEqual(['2', '0', '2;w=60']);
      const other = await limited.user();
      expect((await limited.request('POST', '/api/v1/test/search', { token: other.token })).status).toBe(202);
    } finally {
      await limited.close();
    }
  });
});

describe('deprecation (docs/api-versioning.md)', () => {
  test('a deprecated operation answers Deprecation and Sunset; the others do not', async () => {
    const contract = structuredClone(fixtureContract);
    const search = (contract.paths as Record<string, Record<string, Record<string, unknown>>>)[
      '/api/v1/test/search'
    ]?.post as Record<string, unknown>;
    Object.assign(search, {
      deprecated: true,
      'x-deprecated-at': '2026-12-01T00:00:00Z',
      'x-sunset': '2027-06-01T00:00:00Z',
    });
    const app = await createTestApp({ contract, routes: (s) => testRoutes(s) });
    try {
      const { token } = await app.user();
      const r = await app.request('POST', '/api/v1/test/search', { token });
      expect(r.status).toBe(202);
      expect(r.headers.get('deprecation')).toBe(`@${Date.parse('2026-12-01T00:00:00Z') / 1000}`);
      expect(r.headers.get('sunset')).toBe('Tue, 01 Jun 2027 00:00:00 GMT');
      const other = await app.request('GET', '/api/v1/test/widgets/1', { token });
      expect(other.headers.get('deprecation')).toBeNull();
    } finally {
      await app.close();
    }
    // A deprecated operation without its date is refused when the server starts.
    delete search['x-deprecated-at'];
    await expect(createTestApp({ contract, routes: (s) => testRoutes(s) })).rejects.toThrow(
      /x-deprecated-at/,
    );
  });
});
