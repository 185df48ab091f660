/**
 * Issue 28 (review L-2): a hotel rate_key or a transfer quote_id from one company's search is that
 * company's: another company (or a traveller of none) gets 400 `invalid_rate_key` / `invalid_quote` for
 * it, as for any reference we did not issue, while the searching company still checks and quotes it.
 * Through the whole runtime: search, batch, check-rate and quote over the API.
 */
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startEmulators } from '../../sandbox/emulators.ts';
import { ManualClock } from '../../src/internal/clock.ts';
import { loadConfig } from '../../src/internal/config.ts';
import type { Role } from '../../src/kernel/types.ts';
import { MemoryMailer } from '../../src/mail/mailer.ts';
import { createRuntime, type Runtime } from '../../src/runtime.ts';
import type { Database } from '../../src/storage/database.ts';
import { type DispatchOptions, dispatch } from '../harness/dispatch.ts';
import { futureDate } from '../harness/flight-search.ts';
import { seedCompany, seedUser } from '../harness/seed.ts';
import { expectMatchesContract, realContract } from '../helpers/contract.ts';
import { testDatabase } from '../helpers/db.ts';

process.env.PASSWORD_SCRYPT_N ??= '1024';
const doc = realContract();
if (!doc) throw new Error('openapi.json is missing: run pnpm openapi');

let database: Database;
let runtime: Runtime;
let emulators: Awaited<ReturnType<typeof startEmulators>> | undefined;

beforeAll(async () => {
  database = await testDatabase();
  emulators = await startEmulators({ latencyMs: 0 });
  runtime = await createRuntime({
    config: loadConfig({
      SUPPLIERS: 'sandbox',
      PUBLIC_BASE_URL: 'http://travel.test',
      RESPONSE_VALIDATION: 'strict',
      RATE_LIMIT_SEARCH: '1000/60',
    }),
    database,
    mailer: new MemoryMailer(),
    logger: pino({ level: 'silent' }),
    clock: new ManualClock(new Date()),
    contract: doc,
    sandboxUrls: emulators.urls,
    startJobs: false,
  });
}, 120_000);
afterAll(async () => {
  await runtime?.close();
  await emulators?.close();
  await database?.close();
});

const req = (method: string, path: string, o: DispatchOptions = {}) => dispatch(runtime.app, method, path, o);

async function caller(role: Role, withCompany: boolean) {
  const company = withCompany ? await seedCompany(database.db, 'TR') : null;
  const u = await seedUser(database.db, runtime.app.services.tokens, {
    role,
    companyId: company?.id ?? null,
    userCode: (id) => id,
    tag: 'tr',
  });
  return { ...u, companyCode: company?.code ?? null };
}

type Caller = Awaited<ReturnType<typeof caller>>;

async function hotelKey(who: Caller) {
  const start = await req('POST', '/api/v1/hotel/search', {
    token: who.token,
    body: {
      destination: 'LON',
      check_in: futureDate(40),
      check_out: futureDate(42),
      company_code: who.companyCode,
      user_code: who.id,
    },
  });
  expect(start.status, start.text).toBe(202);
  const done = await req('GET', `/api/v1/hotel/search/batch/${start.body.search_id}?timeout=30`, {
    token: who.token,
  });
  const offer = (done.body.results_by_provider.hotelbeds ?? [])[0];
  expect(offer, done.text).toBeDefined();
  return offer.rate_key as string;
}

async function transferId(who: Caller) {
  const start = await req('POST', '/api/v1/transport/search', {
    token: who.token,
    body: {
      pickup_location: 'DXB',
      dropoff_location: 'Atlantis The Palm, Dubai',
      pickup_datetime: `${futureDate(40)}T14:30:00`,
      passengers: 2,
    },
  });
  expect(start.status, start.text).toBe(202);
  const done = await req('GET', `/api/v1/transport/search/batch/${start.body.search_id}?timeout=30`, {
    token: who.token,
  });
  const offer = (done.body.results_by_provider.hotelbeds_transfers ?? [])[0];
  expect(offer, done.text).toBeDefined();
  return offer.quote_id as string;
}

describe('signed references are bound to the tenant that searched', () => {
  test('a hotel rate_key: its company checks it; another company and a traveller get invalid_rate_key', async () => {
    const a = await caller('company_staff', true);
    const b = await caller('company_admin', true);
    const traveller = await caller('customer', false);
    const key = await hotelKey(a);
    const check = (who: Caller) =>
      req('POST', '/api/v1/hotel/check-rate', {
        token: who.token,
        body: { rate_key: key, provider: 'hotelbeds' },
      });
    const own = await check(a);
    expect(own.status, own.text).toBe(200);
    for (const other of [b, traveller]) {
      const r = await check(other);
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('invalid_rate_key');
      expectMatchesContract('checkHotelRate', 400, r.body);
    }
  });

  test('a transfer quote_id: its company quotes it; another company gets invalid_quote', async () => {
    const a = await caller('company_admin', true);
    const b = await caller('company_staff', true);
    const id = await transferId(a);
    const quote = (who: Caller) =>
      req('POST', '/api/v1/transport/quote', {
        token: who.token,
        body: { quote_id: id, provider: 'hotelbeds_transfers' },
      });
    expect((await quote(a)).status).toBe(200);
    const r = await quote(b);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('invalid_quote');
  });
});
