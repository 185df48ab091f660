/**
 * Issue 16, API keys: created by a company admin and shown once, stored only as a hash, accepted as
 * `X-API-Key` and as `Authorization: Bearer tk_...` where the contract lists `apiKeyAuth`, refused on
 * platform administration, scoped by role and company, rate limited per key, audited on money
 * operations, refused at once (in every process) when revoked or expired, and never logged. Runs the
 * full runtime (every domain, sandbox emulators without latency) on the repository's openapi.json, with
 * every response checked against it (strict).
 */
import { createHash, randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startEmulators } from '../../sandbox/emulators.ts';
import { type App, createApp } from '../../src/app.ts';
import { companyRoutes } from '../../src/domains/company/routes.ts';
import { ManualClock } from '../../src/internal/clock.ts';
import { loadConfig } from '../../src/internal/config.ts';
import type { Role } from '../../src/kernel/types.ts';
import { MemoryMailer } from '../../src/mail/mailer.ts';
import { createRuntime, type Runtime } from '../../src/runtime.ts';
import type { Database } from '../../src/storage/database.ts';
import { dispatch } from '../harness/dispatch.ts';
import { seedCompany, seedUser } from '../harness/seed.ts';
import { recordViolation } from '../helpers/app.ts';
import { expectMatchesContract, realContract } from '../helpers/contract.ts';
import { testDatabase } from '../helpers/db.ts';

process.env.PASSWORD_SCRYPT_N ??= '1024';

const doc = realContract();
if (!doc) throw new Error('openapi.json is missing: run pnpm openapi');

/** Everything every logger wrote, at trace level: scanned for keys at the end. */
const logLines: string[] = [];
const capture = () =>
  pino(
    { level: 'trace' },
    new Writable({
      write(chunk, _enc, cb) {
        logLines.push(String(chunk));
        cb();
      },
    }),
  );
/** Every secret this file ever saw. */
const secrets: string[] = [];

const clock = new ManualClock(new Date());
let database: Database;
let runtime: Runtime;
let emulators: Awaited<ReturnType<typeof startEmulators>> | undefined;
let app: App;
/** A second server process on the same database (its own caches), as behind a load balancer. */
let other: App;
let limited: App;
const violations: Parameters<typeof recordViolation>[0] = [];

const env = (extra: Record<string, string> = {}) =>
  loadConfig({
    SUPPLIERS: 'sandbox',
    PUBLIC_BASE_URL: 'http://travel.test',
    // Long on purpose: a key's revocation must not wait for the auth status cache.
    AUTH_STATUS_CACHE_MS: '60000',
    RESPONSE_VALIDATION: 'strict',
    RATE_LIMIT_SEARCH: '1000/60',
    RATE_LIMIT_API_KEY: '1000/60',
    ...extra,
  });

beforeAll(async () => {
  database = await testDatabase();
  emulators = await startEmulators({ latencyMs: 0 });
  const config = env();
  runtime = await createRuntime({
    config,
    database,
    mailer: new MemoryMailer(),
    logger: capture(),
    clock,
    contract: doc,
    sandboxUrls: emulators.urls,
    startJobs: false,
  });
  app = runtime.app;
  const second = (cfg: ReturnType<typeof env>) =>
    createApp({
      config: cfg,
      database,
      mailer: new MemoryMailer(),
      clock,
      contract: doc,
      logger: capture(),
      routes: (s) => companyRoutes(s),
      onResponseViolation: recordViolation(violations),
    });
  other = second(config);
  limited = second(env({ RATE_LIMIT_API_KEY: '3/60' }));
}, 120_000);

afterAll(async () => {
  await runtime?.close();
  await emulators?.close();
  await database?.close();
});

interface Res {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

interface Creds {
  token?: string;
  /** Sent as X-API-Key. */
  apiKey?: string;
  /** Sent as Authorization: Bearer. */
  bearerKey?: string;
}

function call(
  on: App,
  method: string,
  path: string,
  o: Creds & { body?: unknown; idem?: string; headers?: Record<string, string> } = {},
): Promise<Res> {
  const { bearerKey, idem, token, ...rest } = o;
  const bearer = token ?? bearerKey;
  return dispatch(on, method, path, {
    ...rest,
    ...(bearer ? { token: bearer } : {}),
    ...(idem ? { key: idem } : {}),
  });
}
const req = (method: string, path: string, o: Parameters<typeof call>[3] = {}) => call(app, method, path, o);

const company = async (): Promise<number> => (await seedCompany(database.db, 'AK')).id;

const user = (role: Role, companyId: number | null, userCode: string | null = null) =>
  seedUser(database.db, app.services.tokens, {
    role,
    companyId,
    userCode,
    tag: 'ak',
    fullName: 'Key Test',
    verifiedAt: clock.now(),
  });

async function createKey(token: string, body: Record<string, unknown> = {}, idem?: string) {
  const r = await req('POST', '/api/v1/company/api-keys', {
    token,
    body: { name: 'CI smoke', ...body },
    ...(idem ? { idem } : {}),
  });
  expect(r.status, r.text).toBe(201);
  expectMatchesContract('companyCreateApiKey', 201, r.body);
  if (r.body.key) secrets.push(r.body.key);
  return r.body as { id: number; key: string; prefix: string; role: string };
}

/** A company with an admin, a staff member, and a staff-scoped and an admin-scoped key. */
async function agency() {
  const companyId = await company();
  const admin = await user('company_admin', companyId);
  const staff = await user('company_staff', companyId);
  const staffKey = await createKey(admin.token);
  const adminKey = await createKey(admin.token, { name: 'back office', role: 'company_admin' });
  return { companyId, admin, staff, staffKey, adminKey };
}

const inDays = (days: number) =>
  new Date(clock.now().getTime() + days * 86_400_000).toISOString().slice(0, 10);

/** A flight search and its offers, made with `creds`. */
async function amadeusOffer(creds: Creds, companyCode: string, userCode: string) {
  const started = await req('POST', '/api/v1/flight/getFare', {
    ...creds,
    body: {
      companyCode,
      userCode,
      currency: 'EUR',
      searchAirLegs: [{ origin: 'LHR', destination: 'DXB', departureDate: inDays(30) }],
    },
  });
  expect(started.status, started.text).toBe(202);
  const batch = await req('GET', `/api/v1/flight/getFare/batch/${started.body.searchId}?timeout=30`, creds);
  expect(batch.status, batch.text).toBe(200);
  const offers = (batch.body.results_by_gds.amadeus ?? []) as { offer_id: string; lcc: boolean }[];
  const offer = offers.find((o) => !o.lcc);
  if (!offer) throw new Error('no amadeus offer');
  return offer.offer_id;
}

const passenger = {
  type: 'ADT',
  title: 'MS',
  first_name: 'Ada',
  last_name: 'Lovelace',
  gender: 'F',
  date_of_birth: '1990-04-02',
  nationality: 'GB',
  document: { type: 'passport', number: 'A1234567', expiry: '2031-01-01', issuing_country: 'GB' },
};
const contact = { email: 'ada@example.test', phone: '+447700900123' };

async function companyCode(id: number) {
  const c = await database.db
    .selectFrom('companies')
    .select('company_code')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return c.company_code;
}

async function auditOf(keyId: number) {
  return database.db
    .selectFrom('audit_log')
    .selectAll()
    .where('api_key_id', '=', keyId)
    .orderBy('id')
    .execute();
}

describe('creating and listing keys', () => {
  test('a company admin creates a key: shown once (tk_test_ in sandbox), with a public prefix', async () => {
    const { admin } = await agency();
    const k = await createKey(admin.token, { name: 'integration' });
    expect(k.key).toMatch(/^tk_test_[A-Za-z0-9_-]{43}$/);
    expect(k.prefix).toBe(k.key.slice(0, 'tk_test_'.length + 8));
    expect(k.role).toBe('company_staff');
    const list = await req('GET', '/api/v1/company/api-keys', { token: admin.token });
    expect(list.status).toBe(200);
    expectMatchesContract('companyListApiKeys', 200, list.body);
    const listed = list.body.items.find((i: { id: number }) => i.id === k.id);
    expect(listed).toMatchObject({ prefix: k.prefix, name: 'integration', revoked_at: null });
    expect(listed).not.toHaveProperty('key');
    expect(list.text).not.toContain(k.key);
    expect(list.text).not.toContain(k.key.slice(k.prefix.length));
  });

  test('the table holds only the SHA-256 of each key; an Idempotency-Key replay answers key: null and stores no secret', async () => {
    const { admin } = await agency();
    const idem = `create-${randomUUID()}`;
    const k = await createKey(admin.token, { name: 'replayed' }, idem);
    const again = await req('POST', '/api/v1/company/api-keys', {
      token: admin.token,
      body: { name: 'replayed' },
      idem,
    });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toMatchObject({ id: k.id, prefix: k.prefix, key: null });
    expectMatchesContract('companyCreateApiKey', 201, again.body);

    const rows = await database.db
      .withTables<{ api_keys: Record<string, unknown> }>()
      .selectFrom('api_keys')
      .selectAll()
      .execute();
    expect(rows.length).toBeGreaterThan(0);
    const row = rows.find((r) => Number(r.id) === k.id);
    expect(row?.key_hash).toBe(createHash('sha256').update(k.key).digest('hex'));
    const dump = JSON.stringify(rows);
    const idemRows = JSON.stringify(await database.db.selectFrom('idempotency_keys').selectAll().execute());
    const auditRows = JSON.stringify(await database.db.selectFrom('audit_log').selectAll().execute());
    for (const s of secrets) {
      const random = s.slice('tk_test_'.length);
      for (const stored of [dump, idemRows, auditRows]) {
        expect(stored).not.toContain(s);
        expect(stored).not.toContain(random);
      }
    }
  });

  test('expires_at in the past is 400 invalid_expiry; staff cannot create or list keys', async () => {
    const { admin, staff } = await agency();
    const past = await req('POST', '/api/v1/company/api-keys', {
      token: admin.token,
      body: { name: 'x', expires_at: new Date(clock.now().getTime() - 1000).toISOString() },
    });
    expect(past.status).toBe(400);
    expect(past.body.code).toBe('invalid_expiry');
    const create = await req('POST', '/api/v1/company/api-keys', { token: staff.token, body: { name: 'x' } });
    expect(create.status).toBe(403);
    expect(create.body.code).toBe('insufficient_role');
    expect((await req('GET', '/api/v1/company/api-keys', { token: staff.token })).status).toBe(403);
  });

  test('a super admin lists and revokes any company’s keys; a company admin sees only their own', async () => {
    const a = await agency();
    const b = await agency();
    const root = await user('super_admin', null);
    const listed = await req('GET', `/api/v1/admin/companies/${a.companyId}/api-keys`, { token: root.token });
    expect(listed.status).toBe(200);
    expectMatchesContract('adminListCompanyApiKeys', 200, listed.body);
    expect(listed.body.items.map((i: { id: number }) => i.id).sort()).toEqual(
      [a.staffKey.id, a.adminKey.id].sort(),
    );
    const mine = await req('GET', '/api/v1/company/api-keys', { token: b.admin.token });
    expect(mine.body.items.map((i: { id: number }) => i.id).sort()).toEqual(
      [b.staffKey.id, b.adminKey.id].sort(),
    );
    // Another company's key is "not found" to a company admin.
    const foreign = await req('DELETE', `/api/v1/company/api-keys/${a.staffKey.id}`, {
      token: b.admin.token,
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('api_key_not_found');
    const revoked = await req('DELETE', `/api/v1/admin/companies/${a.companyId}/api-keys/${a.staffKey.id}`, {
      token: root.token,
    });
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked_at).not.toBeNull();
    const r = await req('GET', '/api/v1/company/profile', { apiKey: a.staffKey.key });
    expect(r.status).toBe(401);
    expect(r.body.code).toBe('api_key_revoked');
  });
});

describe('using a key', () => {
  test('as X-API-Key and as Bearer on a company operation; last_used_at is set; /current names the key', async () => {
    const { admin, staffKey, companyId } = await agency();
    for (const creds of [{ apiKey: staffKey.key }, { bearerKey: staffKey.key }]) {
      const r = await req('GET', '/api/v1/company/profile', creds);
      expect(r.status, r.text).toBe(200);
      expect(r.body.id ?? r.body.company_id).toBe(companyId);
    }
    const current = await req('GET', '/api/v1/company/api-keys/current', { apiKey: staffKey.key });
    expect(current.status).toBe(200);
    expectMatchesContract('companyGetCurrentApiKey', 200, current.body);
    expect(current.body).toMatchObject({ id: staffKey.id, prefix: staffKey.prefix, role: 'company_staff' });
    expect(current.body.last_used_at).not.toBeNull();
    const withToken = await req('GET', '/api/v1/company/api-keys/current', { token: admin.token });
    expect(withToken.status).toBe(400);
    expect(withToken.body.code).toBe('not_an_api_key');
  });

  test('a key learns the codes its searches name: company_code and its creator’s user_code (on /current, create and list); a search made with them is accepted', async () => {
    const companyId = await company();
    const code = await companyCode(companyId);
    const userCode = `AG${randomUUID().slice(0, 8).toUpperCase()}`;
    const creator = await user('company_admin', companyId, userCode);
    const created = await createKey(creator.token, { name: 'CI' });
    expect(created).toMatchObject({ company_code: code, user_code: userCode, created_by: creator.id });
    const list = await req('GET', '/api/v1/company/api-keys', { token: creator.token });
    expect(list.body.items.find((i: { id: number }) => i.id === created.id)).toMatchObject({
      company_code: code,
      user_code: userCode,
    });

    const current = await req('GET', '/api/v1/company/api-keys/current', { apiKey: created.key });
    expect(current.status, current.text).toBe(200);
    expectMatchesContract('companyGetCurrentApiKey', 200, current.body);
    expect(current.body).toMatchObject({ company_code: code, user_code: userCode, created_by: creator.id });
    // What /current says is what a search made with the key must name (contracts §5): accepted...
    const search = (companyCode: string, userCodeSent: string) =>
      req('POST', '/api/v1/flight/getFare', {
        apiKey: created.key,
        body: {
          companyCode,
          userCode: userCodeSent,
          searchAirLegs: [{ origin: 'LHR', destination: 'DXB', departureDate: inDays(30) }],
        },
      });
    const ok = await search(current.body.company_code, current.body.user_code);
    expect(ok.status, ok.text).toBe(202);
    // ...whereas another user's code is refused, so the codes are not merely echoed.
    await user('company_staff', companyId, `${userCode}X`);
    const wrong = await search(code, `${userCode}X`);
    expect(wrong.status).toBe(403);
    expect(wrong.body.code).toBe('company_mismatch');

    // The creator's user code changes: the key reports the current one (read per request, not stored).
    await database.db.updateTable('users').set({ user_code: null }).where('id', '=', creator.id).execute();
    const noCode = await req('GET', '/api/v1/company/api-keys/current', { bearerKey: created.key });
    expect(noCode.status).toBe(200);
    expectMatchesContract('companyGetCurrentApiKey', 200, noCode.body);
    expect(noCode.body.user_code).toBeNull();
    // Without a user code the creator is named by id, which searches accept.
    const byId = await search(code, noCode.body.created_by);
    expect(byId.status, byId.text).toBe(202);
  });

  test('searches and books (createPnr) with a key, in both headers; the money operations are audited with the key id', async () => {
    const { staffKey, companyId, admin } = await agency();
    const code = await companyCode(companyId);
    const creator = await database.db
      .selectFrom('users')
      .select('email')
      .where('id', '=', admin.id)
      .executeTakeFirstOrThrow();
    for (const creds of [{ apiKey: staffKey.key }, { bearerKey: staffKey.key }] as Creds[]) {
      const offerId = await amadeusOffer(creds, code, creator.email);
      const booked = await req('POST', '/api/v1/bookings/createPnr', {
        ...creds,
        idem: `book-${randomUUID()}`,
        body: { offer_id: offerId, currency: 'EUR', passengers: [passenger], contact },
      });
      expect(booked.status, booked.text).toBe(200);
      expect(booked.body.pnr).toMatch(/^[A-Z0-9]{6}$/);
      const pay = await req('POST', `/api/v1/bookings/${booked.body.booking_id}/authorize`, {
        ...creds,
        idem: `pay-${randomUUID()}`,
        body: { token: 'tok_sandbox_ok', currency: 'EUR', amount_minor: booked.body.pricing.total_minor },
      });
      expect(pay.status, pay.text).toBe(200);
    }
    const rows = await auditOf(staffKey.id);
    const moneyOps = rows
      .filter((r) => r.action === 'money_operation')
      .map((r) => (r.changes as { operation_id: string }).operation_id);
    expect(moneyOps).toEqual(['createPnr', 'authorizePayment', 'createPnr', 'authorizePayment']);
    for (const r of rows) {
      expect(r.actor_id).toBe(admin.id);
      expect(r.company_id).toBe(companyId);
    }
    // The booking's own audit row names the key too.
    expect(rows.filter((r) => r.entity_type === 'booking' && r.action === 'created')).toHaveLength(2);
    // A replay of the same Idempotency-Key moves no money and writes no row.
  });

  test('refused (403 api_key_not_allowed) on platform admin, the caller’s own account and key management', async () => {
    const { adminKey } = await agency();
    for (const [method, path, op] of [
      ['GET', '/api/v1/admin/companies', 'adminListCompanies'],
      ['GET', '/api/v1/auth/me', 'getCurrentUser'],
      ['GET', '/api/v1/company/api-keys', 'companyListApiKeys'],
      ['POST', '/api/v1/company/api-keys', 'companyCreateApiKey'],
    ] as const) {
      for (const creds of [{ apiKey: adminKey.key }, { bearerKey: adminKey.key }]) {
        const r = await req(method, path, { ...creds, body: { name: 'sneaky' } });
        expect(r.status, `${method} ${path}`).toBe(403);
        expect(r.body.code).toBe('api_key_not_allowed');
        expectMatchesContract(op, 403, r.body);
      }
    }
  });

  test('a staff-scoped key cannot call company-admin operations; an admin-scoped key can', async () => {
    const { staffKey, adminKey } = await agency();
    const staff = await req('GET', '/api/v1/company/staff', { apiKey: staffKey.key });
    expect(staff.status).toBe(403);
    expect(staff.body.code).toBe('insufficient_role');
    const wallet = await req('GET', '/api/v1/company/wallet', { bearerKey: staffKey.key });
    expect(wallet.status).toBe(403);
    expect((await req('GET', '/api/v1/company/staff', { apiKey: adminKey.key })).status).toBe(200);
  });

  test('an admin-scoped key acts no higher than its creator’s current role', async () => {
    const { admin, adminKey } = await agency();
    await database.db
      .updateTable('users')
      .set({ role: 'company_staff' })
      .where('id', '=', admin.id)
      .execute();
    app.services.principals.invalidate(admin.id);
    const r = await req('GET', '/api/v1/company/staff', { apiKey: adminKey.key });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe('insufficient_role');
  });

  test('another company’s key never sees this company’s data', async () => {
    const a = await agency();
    const b = await agency();
    const code = await companyCode(a.companyId);
    const offerId = await amadeusOffer({ apiKey: a.staffKey.key }, code, a.admin.email);
    const booked = await req('POST', '/api/v1/bookings/createPnr', {
      apiKey: a.staffKey.key,
      idem: `book-${randomUUID()}`,
      body: { offer_id: offerId, currency: 'EUR', passengers: [passenger], contact },
    });
    expect(booked.status, booked.text).toBe(200);
    const id = booked.body.booking_id;
    for (const path of [`/api/v1/bookings/${id}`, `/api/v1/company/bookings/${id}`]) {
      const r = await req('GET', path, { apiKey: b.adminKey.key });
      expect(r.status, path).toBe(404);
    }
    const list = await req('GET', '/api/v1/company/bookings', { apiKey: b.adminKey.key });
    expect(list.status).toBe(200);
    expect(
      list.body.items.map((i: { booking_id?: number; id?: number }) => i.booking_id ?? i.id),
    ).not.toContain(id);
    const own = await req('GET', `/api/v1/company/bookings/${id}`, { apiKey: a.staffKey.key });
    expect(own.status).toBe(200);
    // Naming the other company in a search is refused before anything runs.
    const foreign = await req('POST', '/api/v1/flight/getFare', {
      apiKey: b.staffKey.key,
      body: {
        companyCode: code,
        userCode: a.admin.email,
        searchAirLegs: [{ origin: 'LHR', destination: 'DXB', departureDate: inDays(30) }],
      },
    });
    expect(foreign.status).toBe(403);
  });

  test('an unknown key is 401 invalid_api_key; a key in both headers is 401 not_authenticated', async () => {
    const { staffKey, admin } = await agency();
    const fake = `tk_test_${'A'.repeat(43)}`;
    const live = staffKey.key.replace('tk_test_', 'tk_live_');
    for (const k of [fake, live, 'garbage']) {
      const r = await req('GET', '/api/v1/company/profile', { apiKey: k });
      expect(r.status).toBe(401);
      expect(r.body.code).toBe('invalid_api_key');
      expectMatchesContract('companyGetProfile', 401, r.body);
    }
    const both = await req('GET', '/api/v1/company/profile', { apiKey: staffKey.key, token: admin.token });
    expect(both.status).toBe(401);
    expect(both.body.code).toBe('not_authenticated');
    expect(both.body.detail).toContain('the same value in both counts as one');
  });

  test('the same value in both headers counts as one credential (a generated client answering every scheme)', async () => {
    const { staffKey, admin } = await agency();
    // The access token as Authorization: Bearer and as X-API-Key: the person's token, once.
    const token = await req('GET', '/api/v1/company/profile', { apiKey: admin.token, token: admin.token });
    expect(token.status, JSON.stringify(token.body)).toBe(200);
    // The key in both: the key, once (and still refused where keys are not accepted).
    const key = await req('GET', '/api/v1/company/profile', { apiKey: staffKey.key, token: staffKey.key });
    expect(key.status, JSON.stringify(key.body)).toBe(200);
    const me = await req('GET', '/api/v1/auth/me', { apiKey: staffKey.key, token: staffKey.key });
    expect(me.status).toBe(403);
    expect(me.body.code).toBe('api_key_not_allowed');
    // A wrong token in both headers is that token's error, not a second credential.
    const bad = await req('GET', '/api/v1/company/profile', { apiKey: 'nope', token: 'nope' });
    expect(bad.status).toBe(401);
    expect(bad.body.code).toBe('invalid_token');
  });
});

describe('revocation, expiry and rate limits', () => {
  test('a revoked key is 401 api_key_revoked at once, in this process and in another one', async () => {
    const { admin, staffKey } = await agency();
    // The other process has just served the key (its caches are warm).
    expect((await call(other, 'GET', '/api/v1/company/profile', { apiKey: staffKey.key })).status).toBe(200);
    expect((await req('GET', '/api/v1/company/profile', { apiKey: staffKey.key })).status).toBe(200);
    const revoked = await req('DELETE', `/api/v1/company/api-keys/${staffKey.id}`, { token: admin.token });
    expect(revoked.status).toBe(200);
    expectMatchesContract('companyRevokeApiKey', 200, revoked.body);
    for (const on of [app, other]) {
      for (const creds of [{ apiKey: staffKey.key }, { bearerKey: staffKey.key }]) {
        const r = await call(on, 'GET', '/api/v1/company/profile', creds);
        expect(r.status).toBe(401);
        expect(r.body.code).toBe('api_key_revoked');
        expect(r.text).not.toContain(staffKey.key);
      }
    }
    // Revoking again answers the same revoked key.
    const again = await req('DELETE', `/api/v1/company/api-keys/${staffKey.id}`, { token: admin.token });
    expect(again.body.revoked_at).toBe(revoked.body.revoked_at);
    const listed = await req('GET', '/api/v1/company/api-keys', { token: admin.token });
    expect(listed.body.items.map((i: { id: number }) => i.id)).not.toContain(staffKey.id);
    const all = await req('GET', '/api/v1/company/api-keys?include_revoked=true', { token: admin.token });
    expect(all.body.items.map((i: { id: number }) => i.id)).toContain(staffKey.id);
  });

  test('a key past its expires_at is 401 api_key_expired', async () => {
    const { admin } = await agency();
    const k = await createKey(admin.token, {
      expires_at: new Date(clock.now().getTime() + 3_600_000).toISOString(),
    });
    expect((await req('GET', '/api/v1/company/profile', { apiKey: k.key })).status).toBe(200);
    clock.advance(3_600_000);
    try {
      for (const on of [app, other]) {
        const r = await call(on, 'GET', '/api/v1/company/profile', { bearerKey: k.key });
        expect(r.status).toBe(401);
        expect(r.body.code).toBe('api_key_expired');
        expectMatchesContract('companyGetProfile', 401, r.body);
      }
    } finally {
      clock.advance(1);
    }
  });

  test('each key has its own rate limit (RATE_LIMIT_API_KEY): 429 with Retry-After, other keys unaffected', async () => {
    const { staffKey, adminKey } = await agency();
    for (let i = 0; i < 3; i++) {
      expect((await call(limited, 'GET', '/api/v1/company/profile', { apiKey: staffKey.key })).status).toBe(
        200,
      );
    }
    const over = await call(limited, 'GET', '/api/v1/company/profile', { apiKey: staffKey.key });
    expect(over.status).toBe(429);
    expect(over.body.code).toBe('rate_limited');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await call(limited, 'GET', '/api/v1/company/profile', { apiKey: adminKey.key })).status).toBe(
      200,
    );
  });

  test('no response broke the contract in the second processes', () => {
    expect(violations).toEqual([]);
  });
});

describe('logs', () => {
  test('no key ever appears in the logs (trace level, every request of this file)', () => {
    expect(secrets.length).toBeGreaterThan(10);
    expect(logLines.length).toBeGreaterThan(50);
    const all = logLines.join('');
    for (const s of secrets) {
      expect(all).not.toContain(s);
      expect(all).not.toContain(s.slice('tk_test_'.length));
    }
  });
});
