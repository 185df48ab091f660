import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { IdempotencyStore } from '../src/idempotency/idempotency-store.ts';
import { idempotencyScope, requestHash } from '../src/kernel/middleware/idempotency.ts';
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

  test('a claim is a lease: lapsed without a heartbeat it is taken over, and the old holder loses it', async () => {
    const store = new IdempotencyStore({ db: t.database.db, clock: t.clock, leaseSeconds: 2 });
    const claim = { scope: 'lease-scope', caller: 'user:x', operationId: 'op', key: 'k', hash: 'h' };
    const first = await store.claim(claim);
    expect(first.kind).toBe('claimed');
    const owner = first.kind === 'claimed' ? first.owner : '';
    expect(await store.claim(claim)).toEqual({ kind: 'in_progress' });
    // A heartbeat within the lease keeps it, however long the request runs.
    t.clock.advance(1500);
    expect(await store.renew(claim.scope, owner)).toBe(true);
    t.clock.advance(1500);
    expect(await store.claim(claim)).toEqual({ kind: 'in_progress' });
    expect(await store.isHeld(claim.scope)).toBe(true);
    // No heartbeat for a whole lease (the process died): the next request takes the key over.
    t.clock.advance(2500);
    expect(await store.isHeld(claim.scope)).toBe(false);
    const second = await store.claim(claim);
    expect(second.kind).toBe('claimed');
    // The old holder, if it was only frozen, can neither renew nor release the new holder's claim.
    expect(await store.renew(claim.scope, owner)).toBe(false);
    await store.release(claim.scope, owner);
    expect(await store.claim(claim)).toEqual({ kind: 'in_progress' });
    if (second.kind === 'claimed') expect(await store.renew(claim.scope, second.owner)).toBe(true);
  });

  test('the key of a request whose process died is free again one lease later; the retry runs once', async () => {
    const u = await t.user();
    const body = { name: 'orphaned' };
    const scope = idempotencyScope(`user:${u.id}`, 'createWidget', 'dead-key');
    // What a process killed mid-request leaves: an in-progress claim nobody renews (lease 15 s).
    await t.database.db
      .insertInto('idempotency_keys')
      .values({
        scope,
        caller: `user:${u.id}`,
        operation_id: 'createWidget',
        idem_key: 'dead-key',
        request_hash: requestHash({ params: {}, query: {}, body }),
        status: 'in_progress',
        created_at: t.clock.now(),
        locked_until: new Date(t.clock.now().getTime() + 15_000),
        lease_owner: 'a-dead-process',
      })
      .execute();
    const during = await post('dead-key', body, u.token);
    expect([during.status, during.body.code]).toEqual([409, 'idempotency_in_progress']);
    t.clock.advance(15_001);
    const after = await post('dead-key', body, u.token);
    expect(after.status).toBe(201);
    expect(await widgets('orphaned')).toBe(1);
    const replay = await post('dead-key', body, u.token);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(await widgets('orphaned')).toBe(1);
  });
});

describe(`idempotency leases with a live request (${testBackend})`, () => {
  let g: TestApp;
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const saved = process.env.IDEMPOTENCY_LEASE_SECONDS;

  beforeAll(async () => {
    process.env.IDEMPOTENCY_LEASE_SECONDS = '1';
    try {
      g = await createTestApp({ routes: (s) => testRoutes(s, { gate }) });
    } finally {
      if (saved === undefined) delete process.env.IDEMPOTENCY_LEASE_SECONDS;
      else process.env.IDEMPOTENCY_LEASE_SECONDS = saved;
    }
    await createWidgetTable(g.database.db);
  });
  afterAll(() => g.close());

  test('a running request renews its lease: past the lease it still holds the key (409), then replays', async () => {
    const u = await g.user();
    const send = () =>
      g.request('POST', '/api/v1/test/widgets', {
        token: u.token,
        body: { name: 'slow' },
        headers: { 'idempotency-key': 'slow-key' },
      });
    const first = send();
    const row = () =>
      g.database.db
        .selectFrom('idempotency_keys')
        .selectAll()
        .where('idem_key', '=', 'slow-key')
        .executeTakeFirst();
    const deadline = Date.now() + 10_000;
    while (!(await row())) {
      if (Date.now() > deadline) throw new Error('the request never claimed its key');
      await new Promise((r) => setTimeout(r, 20));
    }
    // Five leases pass on the clock; the heartbeat (every third of a lease) moves the lease on with it.
    g.clock.advance(5_000);
    for (;;) {
      const r = await row();
      if (r && new Date(r.locked_until).getTime() > g.clock.now().getTime()) break;
      if (Date.now() > deadline) throw new Error('no heartbeat renewed the lease');
      await new Promise((res) => setTimeout(res, 20));
    }
    const during = await send();
    expect([during.status, during.body.code]).toEqual([409, 'idempotency_in_progress']);
    release();
    const done = await first;
    expect(done.status).toBe(201);
    const replay = await send();
    expect([replay.status, replay.headers.get('idempotent-replayed')]).toEqual([201, 'true']);
    const n = await sql<{ n: number }>`select count(*)::int as n from widgets where name = 'slow'`.execute(
      g.database.db,
    );
    expect(n.rows[0]?.n).toBe(1);
  });
});

describe(`idempotency replay cost (${testBackend})`, () => {
  const counting = () => {
    const kinds: string[] = [];
    const db = t.database.db.withPlugin({
      transformQuery: (args) => {
        kinds.push(args.node.kind);
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    return { kinds, db };
  };
  const rowOf = (scope: string) =>
    t.database.db.selectFrom('idempotency_keys').selectAll().where('scope', '=', scope).executeTakeFirst();

  test('a claim is one statement; a replay writes nothing; a final answer is then replayed (and a reuse refused) without a query', async () => {
    const { kinds, db } = counting();
    const store = new IdempotencyStore({ db, clock: t.clock });
    const c = {
      scope: `replay-cost-${Date.now()}`,
      caller: 'user:x',
      operationId: 'op',
      key: 'k',
      hash: 'h1',
    };
    const first = await store.claim(c);
    expect(first.kind).toBe('claimed');
    expect(kinds).toHaveLength(1);
    await store.complete(c.scope, { status: 201, body: { id: 7 }, headers: {} });
    const stored = await rowOf(c.scope);
    kinds.length = 0;
    const replay = { kind: 'replay', response: { status: 201, body: { id: 7 }, headers: {} } };
    expect(await store.claim(c)).toEqual(replay);
    expect(kinds).toHaveLength(1);
    expect(await rowOf(c.scope)).toEqual(stored);
    kinds.length = 0;
    expect(await store.claim(c)).toEqual(replay);
    expect(await store.claim({ ...c, hash: 'other' })).toEqual({ kind: 'mismatch' });
    expect(kinds).toEqual([]);
    // Past the retention the key is forgotten, in memory as in the table: the key may be used anew.
    t.clock.advance(store.retentionMs + 1);
    const again = await store.claim({ ...c, hash: 'other' });
    expect(again.kind).toBe('claimed');
    expect((await rowOf(c.scope))?.request_hash).toBe('other');
  });

  test('a 202 answer is read from the table on every replay: a settled money operation rewrites it', async () => {
    const { kinds, db } = counting();
    const store = new IdempotencyStore({ db, clock: t.clock });
    const c = { scope: `pending-${Date.now()}`, caller: 'user:x', operationId: 'op', key: 'k', hash: 'h' };
    expect((await store.claim(c)).kind).toBe('claimed');
    await store.complete(c.scope, { status: 202, body: { status: 'pending' }, headers: {} });
    expect(await store.claim(c)).toEqual({
      kind: 'replay',
      response: { status: 202, body: { status: 'pending' }, headers: {} },
    });
    await t.database.db
      .updateTable('idempotency_keys')
      .set({ response_status: 200, response_body: JSON.stringify({ status: 'done' }) })
      .where('scope', '=', c.scope)
      .execute();
    kinds.length = 0;
    expect(await store.claim(c)).toEqual({
      kind: 'replay',
      response: { status: 200, body: { status: 'done' }, headers: {} },
    });
    expect(kinds).toHaveLength(1);
  });

  test('of many stores sharing the table (processes), exactly one claims a new key', async () => {
    const stores = Array.from(
      { length: 8 },
      () => new IdempotencyStore({ db: t.database.db, clock: t.clock }),
    );
    const c = { scope: `race-${Date.now()}`, caller: 'user:x', operationId: 'op', key: 'k', hash: 'h' };
    const outcomes = await Promise.all(stores.map((s) => s.claim(c)));
    expect(outcomes.filter((o) => o.kind === 'claimed')).toHaveLength(1);
    expect(outcomes.filter((o) => o.kind === 'in_progress')).toHaveLength(7);
    expect((await stores[0]?.claim({ ...c, hash: 'other' }))?.kind).toBe('mismatch');
  });
});

describe(`idempotency: a replay of the same raw request (${testBackend})`, () => {
  /** Calls of JSON.parse on exactly `text` while `fn` runs (the kernel parses a request body so). */
  const parsesOf = async <T>(text: string, fn: () => Promise<T>): Promise<{ result: T; parses: number }> => {
    const spy = vi.spyOn(JSON, 'parse');
    try {
      const result = await fn();
      return { result, parses: spy.mock.calls.filter(([s]) => s === text).length };
    } finally {
      spy.mockRestore();
    }
  };
  const raw = (key: string, text: string, tok: string) =>
    t.request('POST', '/api/v1/test/widgets', {
      token: tok,
      rawBody: text,
      headers: { 'idempotency-key': key, 'content-type': 'application/json' },
    });

  test('the same bytes are replayed from memory without parsing the body; the answer is the stored one', async () => {
    const u = await t.user();
    const text = JSON.stringify({ name: 'raw-same' });
    const first = await raw('raw-same', text, u.token);
    expect(first.status).toBe(201);
    // The first replay reads the key and parses the body; the next ones with these bytes do not parse.
    const second = await raw('raw-same', text, u.token);
    expect(second.status).toBe(201);
    const { result: third, parses } = await parsesOf(text, () => raw('raw-same', text, u.token));
    expect(parses).toBe(0);
    expect(third.status).toBe(201);
    expect(third.body).toEqual(first.body);
    expect(third.text).toBe(second.text);
    expect(third.headers.get('idempotent-replayed')).toBe('true');
    expect(third.headers.get('content-type')).toBe('application/json');
    expect(third.headers.get('x-request-id')).not.toBe(second.headers.get('x-request-id'));
    expect(await widgets('raw-same')).toBe(1);
    // Without the shortcut the same request parses its body (the spy sees a parse).
    const { parses: other } = await parsesOf(JSON.stringify({ name: 'raw-same-2' }), () =>
      raw('raw-same-2', JSON.stringify({ name: 'raw-same-2' }), u.token),
    );
    expect(other).toBe(1);
  });

  test('a reordered but equal body still replays; a different body is 422 after the shortcut was learnt', async () => {
    const companyId = await t.company();
    const u = await t.user({ companyId });
    const first = await raw(
      'raw-order',
      JSON.stringify({ name: 'raw-order', company_id: companyId }),
      u.token,
    );
    expect(first.status).toBe(201);
    // Learnt from these bytes (keys in another order), then another spelling of the same request.
    const a = JSON.stringify({ company_id: companyId, name: 'raw-order' });
    expect((await raw('raw-order', a, u.token)).headers.get('idempotent-replayed')).toBe('true');
    expect((await raw('raw-order', a, u.token)).body).toEqual(first.body);
    const spaced = `{ "name" : "raw-order", "company_id" : ${companyId} }`;
    const reordered = await raw('raw-order', spaced, u.token);
    expect(reordered.status).toBe(201);
    expect(reordered.body).toEqual(first.body);
    expect(reordered.headers.get('idempotent-replayed')).toBe('true');
    const other = await raw('raw-order', JSON.stringify({ name: 'raw-order-else' }), u.token);
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('idempotency_key_reused');
    // An invalid body with the same key is still refused by validation first, as always.
    const invalid = await raw('raw-order', JSON.stringify({ name: 7 }), u.token);
    expect(invalid.status).toBe(422);
    expect(invalid.body.detail[0].loc).toEqual(['body', 'name']);
    expect(await widgets('raw-order')).toBe(1);
    expect(await widgets('raw-order-else')).toBe(0);
  });

  test('another caller sending the same key and bytes is not served the first caller’s answer', async () => {
    const text = JSON.stringify({ name: 'raw-callers' });
    const one = await t.user();
    const two = await t.user();
    const first = await raw('raw-callers', text, one.token);
    await raw('raw-callers', text, one.token);
    expect((await raw('raw-callers', text, one.token)).headers.get('idempotent-replayed')).toBe('true');
    const theirs = await raw('raw-callers', text, two.token);
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.id).not.toBe(first.body.id);
    expect(await widgets('raw-callers')).toBe(2);
    // Each then replays their own.
    const again = await raw('raw-callers', text, two.token);
    expect(again.body).toEqual(theirs.body);
    const mine = await raw('raw-callers', text, one.token);
    expect(mine.body).toEqual(first.body);
  });

  test('a revoked token, a suspended caller and a foreign company are refused before any replay', async () => {
    const companyId = await t.company();
    const u = await t.user({ companyId });
    const text = JSON.stringify({ name: 'raw-auth', company_id: companyId });
    expect((await raw('raw-auth', text, u.token)).status).toBe(201);
    await raw('raw-auth', text, u.token);
    expect((await raw('raw-auth', text, u.token)).headers.get('idempotent-replayed')).toBe('true');

    // The caller moved to another company: the body now names a foreign one (403), as without a replay.
    await t.database.db
      .updateTable('users')
      .set({ company_id: await t.company() })
      .where('id', '=', u.id)
      .execute();
    const foreign = await raw('raw-auth', text, u.token);
    expect(foreign.status).toBe(403);
    expect(foreign.body.code).toBe('tenant_mismatch');
    await t.database.db.updateTable('users').set({ company_id: companyId }).where('id', '=', u.id).execute();
    expect((await raw('raw-auth', text, u.token)).status).toBe(201);

    await t.database.db.updateTable('users').set({ status: 'suspended' }).where('id', '=', u.id).execute();
    const suspended = await raw('raw-auth', text, u.token);
    expect(suspended.status).toBe(403);
    expect(suspended.headers.get('idempotent-replayed')).toBeNull();
    await t.database.db.updateTable('users').set({ status: 'active' }).where('id', '=', u.id).execute();
    expect((await raw('raw-auth', text, u.token)).status).toBe(201);

    const claims = await t.app.services.tokens.verifyAccess(u.token);
    await t.app.services.principals.revoke(
      { tokenId: claims.tokenId },
      new Date(Date.now() + 3600_000),
      'test',
    );
    const revoked = await raw('raw-auth', text, u.token);
    expect(revoked.status).toBe(401);
    expect(revoked.headers.get('idempotent-replayed')).toBeNull();
    expect(revoked.text).not.toContain('raw-auth');
  });
});
