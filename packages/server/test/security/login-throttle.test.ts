/**
 * Issue 28 (review M3, M4): login attempts are reserved before the password hash runs, per account and
 * per address, in the database (so under any concurrency and across processes), and given back on
 * success; the hash queue is bounded and fair per address; correct credentials are not refused because
 * of another account's failures from the same address.
 */
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../src/app.ts';
import { FairGate, HashQueueFull } from '../../src/internal/hash-gate.ts';
import { hashPassword } from '../../src/internal/passwords.ts';
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
    env: { RATE_LIMIT_LOGIN_ACCOUNT: '5/300', RATE_LIMIT_LOGIN_IP: '30/300' },
  });
});
afterAll(() => t.close());

async function account(app: TestApp, email = `lt-${randomUUID()}@example.test`) {
  await app.database.db
    .insertInto('users')
    .values({
      id: randomUUID(),
      email,
      password_hash: await hashPassword(PASSWORD),
      full_name: 'Lena Throttle',
      role: 'customer',
      status: 'active',
      email_verified_at: app.clock.now(),
    })
    .execute();
  return email;
}

const login = (app: TestApp, email: string, password: string, ip: string) =>
  app.request('POST', '/api/v1/auth/login', { body: { email, password }, ip });

const count = (statuses: number[], s: number) => statuses.filter((x) => x === s).length;

describe('attempts are reserved before the hash runs', () => {
  test('40 parallel wrong passwords on one account evaluate at most the limit (5); another user from the same address then logs in', async () => {
    const victim = await account(t);
    const other = await account(t);
    const ip = '192.0.2.10';
    const all = await Promise.all(Array.from({ length: 40 }, (_, i) => login(t, victim, `guess-${i}`, ip)));
    const statuses = all.map((r) => r.status);
    expect(count(statuses, 401)).toBeLessThanOrEqual(5);
    expect(count(statuses, 401) + count(statuses, 429)).toBe(40);
    for (const r of all.filter((x) => x.status === 429)) {
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
      expectMatchesContract('login', 429, r.body);
    }
    expect((await login(t, other, PASSWORD, ip)).status).toBe(200);
    // The victim from elsewhere is not affected.
    expect((await login(t, victim, PASSWORD, '198.51.100.10')).status).toBe(200);
  });

  test('a correct password gives its reservation back: it never counts toward the limit', async () => {
    const email = await account(t);
    const ip = '192.0.2.11';
    for (let i = 0; i < 4; i++) expect((await login(t, email, 'nope', ip)).status).toBe(401);

    const right = await Promise.all(Array.from({ length: 3 }, () => login(t, email, PASSWORD, ip)));
    expect(right.map((r) => r.status).filter((s) => s !== 200 && s !== 429)).toEqual([]);
    expect(right.some((r) => r.status === 200)).toBe(true);
    // The success cleared the account bucket of this client: the full budget again.
    const after = [];
    for (let i = 0; i < 5; i++) after.push((await login(t, email, 'nope', ip)).status);
    expect(after).toEqual([401, 401, 401, 401, 401]);
    expect((await login(t, email, 'nope', ip)).status).toBe(429);
  });

  test('two processes on one database share the reservations: 2 × 20 parallel guesses evaluate at most 5', async () => {
    const second = createApp({
      config: t.config,
      database: t.database,
      mailer: new MemoryMailer(),
      clock: t.clock,
      contract: doc,
      logger: pino({ level: 'silent' }),
    });
    const email = await account(t);
    const ip = '192.0.2.12';
    const body = (i: number) => JSON.stringify({ email, password: `p-${i}` });
    const onSecond = (i: number) =>
      second.handle(
        new Request('http://travel.test/api/v1/auth/login', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: body(i),
        }),
        { ip },
      );
    const statuses = await Promise.all([
      ...Array.from({ length: 20 }, (_, i) => login(t, email, `p-${i}`, ip).then((r) => r.status)),
      ...Array.from({ length: 20 }, (_, i) => onSecond(i + 20).then((r) => r.status)),
    ]);
    expect(count(statuses, 401)).toBeLessThanOrEqual(5);
    expect(count(statuses, 429)).toBeGreaterThanOrEqual(35);
  });
});

describe('one address, many accounts', () => {
  test('100 parallel bad logins (unknown accounts) from one address evaluate at most the address limit (30)', async () => {
    const ip = '192.0.2.20';
    const all = await Promise.all(
      Array.from({ length: 100 }, (_, i) => login(t, `ghost${i}@example.test`, 'x', ip)),
    );
    const statuses = all.map((r) => r.status);
    expect(count(statuses, 401)).toBeLessThanOrEqual(30);
    expect(count(statuses, 401) + count(statuses, 429)).toBe(100);
    // Another address is untouched.
    const other = await account(t);
    expect((await login(t, other, PASSWORD, '198.51.100.20')).status).toBe(200);
  });

  test('a blocked address still admits an account that logged in from it before (its own bucket applies); a first login from it waits for the block', async () => {
    const ip = '192.0.2.21';
    const regular = await account(t);
    const newcomer = await account(t);
    expect((await login(t, regular, PASSWORD, ip)).status).toBe(200);
    for (let i = 0; i < 31; i++) await login(t, `spray${i}@example.test`, 'x', ip);
    expect((await login(t, 'spray-more@example.test', 'x', ip)).status).toBe(429);
    expect((await login(t, regular, PASSWORD, ip)).status).toBe(200);
    // Guessing on the known account from that address is still bounded by its account bucket.
    const guesses = [];
    for (let i = 0; i < 7; i++) guesses.push((await login(t, regular, 'wrong', ip)).status);
    expect(count(guesses, 401)).toBe(5);
    expect(guesses.at(-1)).toBe(429);
    // Documented: an account never seen from this address waits for the address's block to lapse.
    expect((await login(t, newcomer, PASSWORD, ip)).status).toBe(429);
    t.clock.advance(301_000);
    expect((await login(t, newcomer, PASSWORD, ip)).status).toBe(200);
  });
});

describe('the hash queue is bounded and fair per address', () => {
  /** A gate whose jobs finish only when the test says so. */
  function harness(slots: number, perClient: number) {
    const gate = new FairGate(slots, perClient);
    const order: string[] = [];
    const release: (() => void)[] = [];
    const job = (client: string, label: string) =>
      gate.run(client, async () => {
        order.push(label);
        await new Promise<void>((r) => release.push(r));
      });
    /** Lets the running job finish and waits until the next one has started (or nothing is left). */
    const step = async () => {
      const before = order.length;
      release.shift()?.();
      for (let i = 0; i < 100 && order.length === before && gate.waiting > 0; i++) await Promise.resolve();
    };
    return { gate, order, job, step };
  }

  test('a flood from one client delays another by at most one of its jobs', async () => {
    const h = harness(1, 100);
    const flood = Array.from({ length: 50 }, (_, i) => h.job('10.0.0.1', `a${i}`));
    const late = h.job('10.0.0.2', 'b');
    expect(h.gate.waiting).toBe(50);
    await h.step();
    await h.step();
    expect(h.order.slice(0, 3)).toEqual(['a0', 'a1', 'b']);
    while (h.gate.waiting > 0 || h.order.length < 51) await h.step();
    await h.step();
    await Promise.all([...flood, late]);
    expect(h.order).toHaveLength(51);
  });

  test('a client past its lane bound is refused at once (HashQueueFull); others still queue', async () => {
    const h = harness(1, 3);
    const running = h.job('c', 'c0');
    const queued = [h.job('c', 'c1'), h.job('c', 'c2'), h.job('c', 'c3')];
    await expect(h.job('c', 'c4')).rejects.toBeInstanceOf(HashQueueFull);
    const other = h.job('d', 'd0');
    while (h.order.length < 5) await h.step();
    await h.step();
    await Promise.all([running, ...queued, other]);
    expect(h.order).toContain('d0');
    expect(h.order).not.toContain('c4');
  });
});
