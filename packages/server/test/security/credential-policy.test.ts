/**
 * Issue 28: a key's authority is bounded by what keys may do, and impersonation is a session of the
 * impersonator. The rule is written once per operation in the contract (`x-credential-policy`) and
 * enforced in one place (the kernel's `credentialCheck`); this file tries it over every operation of the
 * contract with an API key of each role a key may have, and with an impersonation token, and checks the
 * reproducers of the review (M1, M2) end to end, across two server processes on one database.
 */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startEmulators } from '../../sandbox/emulators.ts';
import { type App, createApp } from '../../src/app.ts';
import { ManualClock } from '../../src/internal/clock.ts';
import { loadConfig } from '../../src/internal/config.ts';
import { listOperations } from '../../src/kernel/contract.ts';
import type { Role } from '../../src/kernel/types.ts';
import { MemoryMailer } from '../../src/mail/mailer.ts';
import { createRuntime, type Runtime } from '../../src/runtime.ts';
import type { Database } from '../../src/storage/database.ts';
import { type DispatchOptions, dispatch } from '../harness/dispatch.ts';
import { seedCompany, seedUser } from '../harness/seed.ts';
import { recordViolation } from '../helpers/app.ts';
import { expectMatchesContract, realContract } from '../helpers/contract.ts';
import { testDatabase } from '../helpers/db.ts';

process.env.PASSWORD_SCRYPT_N ??= '1024';

const doc = realContract();
if (!doc) throw new Error('openapi.json is missing: run pnpm openapi');
const operations = listOperations(doc);

const clock = new ManualClock(new Date());
let database: Database;
let runtime: Runtime;
let emulators: Awaited<ReturnType<typeof startEmulators>> | undefined;
let app: App;
/** A second server process on the same database, its status cache warm for a minute. */
let other: App;
const violations: Parameters<typeof recordViolation>[0] = [];

const env = () =>
  loadConfig({
    SUPPLIERS: 'sandbox',
    PUBLIC_BASE_URL: 'http://travel.test',
    // Long on purpose: ending an impersonation must not wait for the status cache.
    AUTH_STATUS_CACHE_MS: '60000',
    RESPONSE_VALIDATION: 'strict',
    RATE_LIMIT_API_KEY: '100000/60',
  });

beforeAll(async () => {
  database = await testDatabase();
  emulators = await startEmulators({ latencyMs: 0 });
  // One config: both processes share the JWT key, as processes of one deployment do.
  const config = env();
  runtime = await createRuntime({
    config,
    database,
    mailer: new MemoryMailer(),
    logger: pino({ level: 'silent' }),
    clock,
    contract: doc,
    sandboxUrls: emulators.urls,
    startJobs: false,
  });
  app = runtime.app;
  other = createApp({
    config,
    database,
    mailer: new MemoryMailer(),
    clock,
    contract: doc,
    onResponseViolation: recordViolation(violations),
  });
}, 120_000);

afterAll(async () => {
  await runtime?.close();
  await emulators?.close();
  await database?.close();
});

const req = (method: string, path: string, o: DispatchOptions = {}, on: App = app) =>
  dispatch(on, method, path, o);

const user = (role: Role, companyId: number | null) =>
  seedUser(database.db, app.services.tokens, { role, companyId, tag: 'cp', verifiedAt: clock.now() });

async function agency() {
  const companyId = (await seedCompany(database.db, 'CP')).id;
  const admin = await user('company_admin', companyId);
  const staff = await user('company_staff', companyId);
  const keys: Record<'company_staff' | 'company_admin', string> = { company_staff: '', company_admin: '' };
  for (const role of ['company_staff', 'company_admin'] as const) {
    const r = await req('POST', '/api/v1/company/api-keys', {
      token: admin.token,
      body: { name: role, role },
    });
    expect(r.status, r.text).toBe(201);
    keys[role] = r.body.key;
  }
  return { companyId, admin, staff, keys };
}

async function impersonate(targetId: string) {
  const sa = await user('super_admin', null);
  const r = await req('POST', `/api/v1/admin/users/${targetId}/impersonate`, {
    token: sa.token,
    body: { reason: 'support ticket 42' },
  });
  expect(r.status, r.text).toBe(200);
  return { sa, token: r.body.access_token as string };
}

/** A concrete path for an operation's template (every id 1: the policy answers before any lookup). */
const concrete = (path: string) => path.replace(/\{[^}]+\}/g, '1');

/** Operations that change staff, roles, keys or companies (who may act, and with what power). */
const GOVERNING = operations.filter(
  (o) =>
    o.method !== 'GET' &&
    /\/(staff|api-keys|users|companies|impersonat|profile|settings)(\/|$)/.test(o.path) &&
    !o.public,
);

describe('the contract writes the rule once, per operation', () => {
  test('every authenticated operation declares x-credential-policy, agreeing with its security', () => {
    for (const o of operations.filter((x) => !x.public)) {
      expect(['api_key', 'person', 'own_session'], o.operationId).toContain(o.raw['x-credential-policy']);
    }
  });

  test('no operation that creates a principal, gives power or makes a credential takes a key', () => {
    const ownSession = [
      'companyCreateApiKey',
      'companyInviteStaff',
      'companyUpdateStaff',
      'adminImpersonateUser',
      'adminUpdateUser',
    ];
    for (const id of ownSession) {
      expect(operations.find((o) => o.operationId === id)?.credentialPolicy, id).toBe('own_session');
    }
    // Changing staff, roles, keys or companies: never with a key (the company's profile and settings
    // are data, not power, and stay open to an admin key).
    const keyed = GOVERNING.filter((o) => o.credentialPolicy === 'api_key').map((o) => o.operationId);
    expect(keyed.sort()).toEqual(['companyUpdateProfile', 'companyUpdateSettings']);
    expect(GOVERNING.length).toBeGreaterThan(15);
  });
});

describe('a key (each role a key may have) on every operation', () => {
  test('every operation whose policy is not api_key answers 403 api_key_not_allowed, in both headers', async () => {
    const { keys } = await agency();
    const refused = operations.filter((o) => !o.public && o.credentialPolicy !== 'api_key');
    expect(refused.length).toBeGreaterThan(40);
    for (const role of ['company_staff', 'company_admin'] as const) {
      for (const o of refused) {
        for (const creds of [{ apiKey: keys[role] }, { token: keys[role] }]) {
          const r = await req(o.method, concrete(o.path), { ...creds, body: {} });
          expect(r.status, `${role} ${o.operationId}`).toBe(403);
          expect(r.body.code, `${role} ${o.operationId}`).toBe('api_key_not_allowed');
          expectMatchesContract(o.operationId, 403, r.body);
        }
      }
    }
  });

  test('M1: a company_admin key can neither invite a company_admin nor promote or re-activate staff', async () => {
    const { keys, admin, staff } = await agency();
    const list = await req('GET', '/api/v1/company/staff', { token: admin.token });
    const staffId = list.body.items.find((m: { user_id: string }) => m.user_id === staff.id)?.staff_id;
    expect(staffId, list.text).toBeTypeOf('number');
    const invite = await req('POST', '/api/v1/company/staff/invite', {
      apiKey: keys.company_admin,
      body: { email: 'attacker@example.test', full_name: 'X', role: 'company_admin' },
    });
    expect(invite.status).toBe(403);
    expect(invite.body.code).toBe('api_key_not_allowed');
    for (const body of [{ role: 'company_admin' }, { is_active: true }, { department: 'ops' }]) {
      const r = await req('PATCH', `/api/v1/company/staff/${staffId}`, { apiKey: keys.company_admin, body });
      expect(r.status, JSON.stringify(body)).toBe(403);
    }
    const deactivate = await req('POST', `/api/v1/company/staff/${staffId}/deactivate`, {
      apiKey: keys.company_admin,
    });
    expect(deactivate.status).toBe(403);
    const row = await database.db
      .selectFrom('users')
      .select(['role', 'is_active'])
      .where('id', '=', staff.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ role: 'company_staff', is_active: true });
    // The admin in person still can.
    const promoted = await req('PATCH', `/api/v1/company/staff/${staffId}`, {
      token: admin.token,
      body: { role: 'company_admin' },
    });
    expect(promoted.status, promoted.text).toBe(200);
    const invited = await req('POST', '/api/v1/company/staff/invite', {
      token: admin.token,
      body: { email: `new-${staff.id}@example.test`, full_name: 'New', role: 'company_admin' },
    });
    expect(invited.status, invited.text).toBe(201);
  });
});

describe('impersonation is a session of the impersonator', () => {
  test('an impersonation token cannot call own_session operations: no keys, invitations or promotions', async () => {
    const { admin } = await agency();
    const { token } = await impersonate(admin.id);
    const own = operations.filter((o) => o.credentialPolicy === 'own_session');
    for (const o of own) {
      const r = await req(o.method, concrete(o.path), { token, body: {} });
      expect(r.status, o.operationId).toBe(403);
      expect(r.body.code, o.operationId).toBe('impersonation_not_allowed');
      expectMatchesContract(o.operationId, 403, r.body);
    }
    const key = await req('POST', '/api/v1/company/api-keys', {
      token,
      body: { name: 'x', role: 'company_admin' },
    });
    expect(key.status).toBe(403);
    const promote = await req('PATCH', '/api/v1/company/staff/1', { token, body: { role: 'company_admin' } });
    expect(promote.status).toBe(403);
    expect(
      await database.db
        .withTables<{ api_keys: { id: number; created_by: string } }>()
        .selectFrom('api_keys')
        .select('id')
        .where('created_by', '=', admin.id)
        .execute(),
    ).toHaveLength(2);
    // Reading as the user still works.
    const me = await req('GET', '/api/v1/company/staff', { token });
    expect(me.status, me.text).toBe(200);
  });

  test('suspending the impersonator ends it within one request, in another process with a warm cache', async () => {
    const { admin } = await agency();
    const { sa, token } = await impersonate(admin.id);
    expect((await req('GET', '/api/v1/auth/me', { token }, other)).status).toBe(200);
    const boss = await user('super_admin', null);
    const s = await req('POST', `/api/v1/admin/users/${sa.id}/suspend`, {
      token: boss.token,
      body: { reason: 'left' },
    });
    expect(s.status, s.text).toBe(200);
    const r = await req('GET', '/api/v1/auth/me', { token }, other);
    expect(r.status).toBe(401);
    expect(r.body.code).toBe('invalid_token');
    expect((await req('GET', '/api/v1/auth/me', { token })).status).toBe(401);
  });

  test('demoting the impersonator ends it within one request in another process', async () => {
    const { admin } = await agency();
    const { sa, token } = await impersonate(admin.id);
    expect((await req('GET', '/api/v1/auth/me', { token }, other)).status).toBe(200);
    // Demoted by a third process (straight in the database): neither app's cache is told.
    await database.db.updateTable('users').set({ role: 'customer' }).where('id', '=', sa.id).execute();
    const r = await req('GET', '/api/v1/auth/me', { token }, other);
    expect(r.status).toBe(401);
    expect((await req('GET', '/api/v1/auth/me', { token })).status).toBe(401);
  });

  test('it can be ended explicitly: the token then answers 401 in every process; audited with both ids', async () => {
    const { admin } = await agency();
    const { sa, token } = await impersonate(admin.id);
    expect((await req('GET', '/api/v1/auth/me', { token }, other)).status).toBe(200);
    const end = await req('POST', '/api/v1/auth/impersonation/end', { token });
    expect(end.status, end.text).toBe(200);
    expect(end.body).toEqual({ ended: true, user_id: admin.id, impersonator_id: sa.id });
    expectMatchesContract('endImpersonation', 200, end.body);
    expect((await req('GET', '/api/v1/auth/me', { token }, other)).status).toBe(401);
    expect((await req('GET', '/api/v1/auth/me', { token })).status).toBe(401);
    const audit = await database.db
      .selectFrom('audit_log')
      .select(['actor_id', 'impersonator_id'])
      .where('action', '=', 'impersonation_ended')
      .where('entity_id', '=', admin.id)
      .executeTakeFirstOrThrow();
    expect(audit).toEqual({ actor_id: admin.id, impersonator_id: sa.id });
    // An ordinary token has nothing to end.
    const plain = await req('POST', '/api/v1/auth/impersonation/end', { token: admin.token });
    expect(plain.status).toBe(400);
    expect(plain.body.code).toBe('not_impersonating');
  });

  test('no response broke the contract in the second process', () => {
    expect(violations).toEqual([]);
  });
});
