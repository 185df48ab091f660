import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { testBackend } from './helpers/db.ts';
import { createWidgetTable, testRoutes } from './helpers/test-routes.ts';

let t: TestApp;
let token: string;
const widgets = async (name: string) =>
  Number(
    (
      await sql<{ n: number }>`select count(*)::int as n from widgets where name = ${name}`.execute(
        t.database.db,
      )
    ).rows[0]?.n,
  );
const post = (key: string, body: object, tok = token) =>
  t.request('POST', '/api/v1/test/widgets', { token: tok, body, headers: { 'idempotency-key': key } });

beforeAll(async () => {
  t = await createTestApp({ routes: (s) => testRoutes(s) });
  await createWidgetTable(t.database.db);
  token = (await t.user()).token;
});
afterAll(() => t.close());

describe(`idempotency (${testBackend})`, () => {
  test('20 concurrent requests with one key: one effect, every answer is the first or in_progress', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, () => post('same-key', { name: 'concurrent' })),
    );
    expect(await widgets('concurrent')).toBe(1);
    const statuses = results.map((r) => r.status);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    const created = results.filter((r) => r.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((r) => r.body.id)).size).toBe(1);
    for (const r of results.filter((x) => x.status === 409))
      expect(r.body.code).toBe('idempotency_in_progress');
  });

  test('a completed key replays the stored response and does not repeat the effect', async () => {
    const first = await post('replay-key', { name: 'replayed' });
    const second = await post('replay-key', { name: 'replayed' });
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await widgets('replayed')).toBe(1);
  });

  test('the same key with a different body is 422 idempotency_key_reused', async () => {
    await post('reuse-key', { name: 'one' });
    const r = await post('reuse-key', { name: 'two' });
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('idempotency_key_reused');
    expect(r.body.detail[0]).toMatchObject({
      loc: ['header', 'idempotency-key'],
      type: 'idempotency_key_reused',
    });
  });

  test('keys are scoped to the caller', async () => {
    const other = await t.user();
    await post('shared-key', { name: 'scoped' });
    const r = await post('shared-key', { name: 'scoped' }, other.token);
    expect(r.headers.get('idempotent-replayed')).toBeNull();
    expect(await widgets('scoped')).toBe(2);
  });

  test('an internal failure rolls back and releases the key; a retry runs anew', async () => {
    const failed = await post('crash-key', { name: 'crashy', fail: 'crash' });
    expect(failed.status).toBe(500);
    expect(await widgets('crashy')).toBe(0);
    const audit = await t.database.db
      .selectFrom('audit_log')
      .select('id')
      .where('entity_type', '=', 'widget')
      .execute();
    const before = audit.length;
    const retried = await post('crash-key', { name: 'crashy' });
    // a different body is fine: the failed attempt left no record
    expect(retried.status).toBe(201);
    expect(await widgets('crashy')).toBe(1);
    const after = await t.database.db
      .selectFrom('audit_log')
      .select('id')
      .where('entity_type', '=', 'widget')
      .execute();
    expect(after.length).toBe(before + 1);
  });

  test('a 502 pending confirmation is stored with its effect and replayed', async () => {
    const first = await post('pending-key', { name: 'pending', fail: 'pending' });
    expect(first.status).toBe(502);
    const again = await post('pending-key', { name: 'pending', fail: 'pending' });
    expect(again.status).toBe(502);
    expect(again.body.booking_id).toBe(first.body.booking_id);
    expect(await widgets('pending')).toBe(1);
  });

  test('a 4xx outcome is stored too', async () => {
    const a = await post('bad-key', { name: 'b', fail: 'bad' });
    const b = await post('bad-key', { name: 'b', fail: 'bad' });
    expect([a.status, b.status]).toEqual([400, 400]);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
  });

  test('a missing required key is 422 at header.idempotency-key', async () => {
    const r = await t.request('POST', '/api/v1/test/orders', { token, body: { amount_minor: 100 } });
    expect(r.status).toBe(422);
    expect(r.body.detail).toEqual([
      expect.objectContaining({ loc: ['header', 'idempotency-key'], type: 'missing' }),
    ]);
  });

  test('keys older than 24 hours are forgotten', async () => {
    const u = await t.user();
    await post('old-key', { name: 'aged' }, u.token);
    t.clock.advance(25 * 3600 * 1000);
    try {
      const fresh = await t.app.services.tokens.signAccess({
        userId: u.id,
        email: u.email,
        role: 'customer',
        companyId: null,
      });
      const r = await post('old-key', { name: 'aged' }, fresh);
      expect(r.status).toBe(201);
      expect(r.headers.get('idempotent-replayed')).toBeNull();
      expect(await widgets('aged')).toBe(2);
    } finally {
      t.clock.advance(-25 * 3600 * 1000);
    }
  });
});
