/**
 * A booking test world: the sandbox emulators over real HTTP, an app on a database that can be closed
 * and reopened (a private schema on TEST_DATABASE_URL's PostgreSQL server, or PGlite in a temp
 * directory), dispatch without a socket, every response checked against openapi.json (strict: a
 * violation answers 500, and `violations` lists it), and offers seeded the way the search engine stores
 * them. The money tests use the same world with `WorldOptions` (a fast-failing Stripe adapter, the admin
 * payment routes and the ticketing/money job queues).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { type MockServers, startMockServers } from '../../../mock-server/src/index.ts';
import { type App, createApp } from '../../src/app.ts';
import { adminPaymentRoutes } from '../../src/domains/admin/payments.ts';
import {
  type BookingSuppliers,
  bookingJobHandlers,
  bookingRoutes,
  sandboxBookingSuppliers,
  ticketingJobHandlers,
} from '../../src/domains/flight-booking/routes.ts';
import { ManualClock } from '../../src/internal/clock.ts';
import { type Config, loadConfig } from '../../src/internal/config.ts';
import { JobRunner } from '../../src/jobs/runner.ts';
import type { ResponseViolation } from '../../src/kernel/response-validator.ts';
import type { Role } from '../../src/kernel/types.ts';
import { MemoryMailer } from '../../src/mail/mailer.ts';
import { searchDb } from '../../src/search/tables.ts';
import { flightVertical } from '../../src/search/verticals.ts';
import { type Database, openDatabase } from '../../src/storage/database.ts';
import type { Currency, FlightSupplierName } from '../../src/suppliers/ports/errors.ts';
import type {
  FlightSearchLeg,
  FlightSearchQuery,
  SupplierFlightOffer,
} from '../../src/suppliers/ports/flight.ts';
import { StripeAdapter } from '../../src/suppliers/stripe/index.ts';
import { dispatch } from '../harness/dispatch.ts';
import { seedCompany, seedUser } from '../harness/seed.ts';
import { recordViolation, testResponseValidation } from '../helpers/app.ts';
import { realContract } from '../helpers/contract.ts';

process.env.PASSWORD_SCRYPT_N ??= '1024';

export interface Res<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface World {
  app: App;
  database: Database;
  mailer: MemoryMailer;
  clock: ManualClock;
  mocks: MockServers;
  suppliers: BookingSuppliers;
  runner: JobRunner;
  /** Every response that broke openapi.json since the world was created, across restarts (strict: each was a 500). */
  violations: ResponseViolation[];
  req<T = any>(
    method: string,
    path: string,
    o?: { token?: string; body?: unknown; key?: string },
  ): Promise<Res<T>>;
  company(): Promise<number>;
  user(o?: { role?: Role; companyId?: number | null }): Promise<{ id: string; token: string }>;
  /** Seeds a search with the supplier's offers for `caller`; returns the stored offer ids and offers. */
  seedOffers(
    supplier: FlightSupplierName,
    caller: { userId: string; companyId: number | null },
    q?: Partial<FlightSearchQuery>,
  ): Promise<{ offer_id: string; offer: SupplierFlightOffer }[]>;
  /** Closes the app and its database, keeping the data (a server restart), and opens them again. */
  restart(): Promise<World>;
  /** Closes the app and its database and drops the data (the schema or the PGlite directory). */
  close(): Promise<void>;
}

export interface WorldOptions {
  /**
   * The Stripe adapter gives up after this many ms and never retries (a hanging provider is a fast
   * test). Default: the sandbox adapter's own timeout and retries.
   */
  stripeTimeoutMs?: number;
  /** The Stripe adapter's fetch (a test that loses an answer after the provider acted). */
  stripeFetch?: typeof fetch;
  /** The money world: the admin payment routes, and the ticketing follow-up and money.reconcile queues. */
  money?: boolean;
  /** Called with every statement the world's database is sent (test/storage/round-trips.test.ts). */
  onStatement?: (sql: string) => void;
}

/**
 * Where a world keeps its data across restarts: a private schema on TEST_DATABASE_URL (the schema name
 * is kept, so a restart reopens it; `drop` removes it at the very end), or a PGlite directory.
 */
interface Store {
  open(): Promise<Database>;
  drop(): Promise<void>;
}

function newStore(onStatement?: (sql: string) => void): Store {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    const dataDir = mkdtempSync(join(tmpdir(), 'bk-'));
    return {
      open: () => openDatabase({ dataDir, onStatement }),
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const schema = `w_${randomBytes(6).toString('hex')}`;
  return {
    // Pool as testDatabase's: ten racing requests, each with its lease heartbeat, fit without queueing.
    open: () => openDatabase({ databaseUrl: url, schema, poolSize: 30, onStatement }),
    async drop() {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        await c.query(`drop schema if exists ${schema} cascade`);
      } finally {
        await c.end();
      }
    },
  };
}

let seq = 0;
const config: Config = loadConfig({
  SUPPLIERS: 'sandbox',
  PUBLIC_BASE_URL: 'http://travel.test',
  AUTH_STATUS_CACHE_MS: '0',
  RESPONSE_VALIDATION: testResponseValidation(),
});

/** Each supplier's sandbox route and currency for `seedOffers`. */
export const SANDBOX_ROUTES: Record<FlightSupplierName, { leg: FlightSearchLeg; currency: Currency }> = {
  duffel: { leg: { origin: 'LHR', destination: 'BCN', departureDate: '2026-12-20' }, currency: 'GBP' },
  amadeus: { leg: { origin: 'LHR', destination: 'DXB', departureDate: '2026-12-20' }, currency: 'EUR' },
  mystifly: { leg: { origin: 'DAC', destination: 'LHR', departureDate: '2026-12-20' }, currency: 'USD' },
};

/** A one-adult economy search on the supplier's sandbox route, with `q` on top. */
export function sandboxQuery(
  supplier: FlightSupplierName,
  q: Partial<FlightSearchQuery> = {},
): FlightSearchQuery {
  const route = SANDBOX_ROUTES[supplier];
  return {
    legs: [route.leg],
    journeyType: 'OneWay',
    adults: 1,
    children: 0,
    infants: 0,
    childAges: [],
    cabinClass: 'Economy',
    currency: route.currency,
    maxResults: 50,
    ...q,
  };
}

/** An offer of a seeded search that every booking operation can work on, per supplier. */
export function pickBookable<T extends { offer: SupplierFlightOffer }>(
  supplier: FlightSupplierName,
  offers: T[],
): T | undefined {
  // Duffel: W6 sells no services and low-cost content cannot be held; Mystifly: LCC tickets are not IATA.
  if (supplier === 'duffel') return offers.find((o) => !o.offer.lcc && o.offer.validating_carrier !== 'W6');
  return offers.find((o) => !o.offer.lcc);
}

export async function startMocks(): Promise<MockServers> {
  return startMockServers({
    suppliers: ['amadeus', 'duffel', 'mystifly', 'stripe'],
    options: { latencyMs: 0, seed: 11 },
  });
}

/**
 * A world on a fresh database (a private schema on TEST_DATABASE_URL, else PGlite in a temp directory).
 * `restart()` reopens the same data; `close()` drops it.
 */
export async function createWorld(mocks: MockServers, opts: WorldOptions = {}): Promise<World> {
  return openWorld(mocks, opts, newStore(opts.onStatement), []);
}

async function openWorld(
  mocks: MockServers,
  opts: WorldOptions,
  store: Store,
  violations: ResponseViolation[],
): Promise<World> {
  const database = await store.open();
  const mailer = new MemoryMailer();
  const clock = new ManualClock(new Date());
  const sandbox = sandboxBookingSuppliers({
    amadeus: mocks.urls.amadeus,
    duffel: mocks.urls.duffel,
    mystifly: mocks.urls.mystifly,
    stripe: mocks.urls.stripe as string,
  });
  let suppliers: BookingSuppliers = sandbox;
  if (opts.stripeTimeoutMs !== undefined || opts.stripeFetch) {
    const stripe = new StripeAdapter({
      baseUrl: mocks.urls.stripe as string,
      secretKey: 'sk_test_sandbox',
      ...(opts.stripeTimeoutMs !== undefined
        ? { timeoutMs: opts.stripeTimeoutMs, maxNetworkRetries: 0 }
        : {}),
      ...(opts.stripeFetch ? { fetch: opts.stripeFetch } : {}),
    });
    suppliers = { flight: sandbox.flight, payments: () => stripe };
  }
  const deps = { db: database.db, clock, mailer, suppliers };
  const app = createApp({
    config,
    database,
    mailer,
    clock,
    contract: realContract(),
    logger: pino({ level: process.env.TEST_LOG_LEVEL || 'silent' }),
    routes: (s) => ({
      ...bookingRoutes(deps),
      ...(opts.money ? adminPaymentRoutes({ ...s, suppliers }) : {}),
    }),
    onResponseViolation: recordViolation(violations),
  });
  const runner = new JobRunner({
    db: database.db,
    handlers: { ...bookingJobHandlers(deps), ...(opts.money ? ticketingJobHandlers(deps) : {}) },
    clock,
    backoffBaseMs: 1000,
  });

  const req: World['req'] = async (method, path, o = {}) => {
    const r = await dispatch(app, method, path, o);
    return { status: r.status, headers: r.headers, body: r.body };
  };

  const company = async () => (await seedCompany(database.db, 'BK')).id;

  const user: World['user'] = async (u = {}) => {
    const made = await seedUser(database.db, app.services.tokens, {
      role: u.role ?? 'company_staff',
      companyId: u.companyId ?? null,
      tag: 'bk',
      verifiedAt: clock.now(),
    });
    return { id: made.id, token: made.token };
  };

  const seedOffers: World['seedOffers'] = async (name, caller, q = {}) => {
    const supplier = suppliers.flight(name);
    if (!supplier) throw new Error(`no ${name}`);
    const query = sandboxQuery(name, q);
    const offers = await supplier.search(query);
    const searchId = `fs_test${++seq}`;
    const sdb = searchDb(database.db);
    const expires = new Date(clock.now().getTime() + 900_000);
    await sdb
      .insertInto('search_sessions')
      .values({
        id: searchId,
        vertical: 'flight',
        status: 'completed',
        user_id: caller.userId,
        company_id: caller.companyId,
        request: '{}',
        suppliers: JSON.stringify([name]),
        created_at: clock.now(),
        expires_at: expires,
      })
      .execute();
    const out: { offer_id: string; offer: SupplierFlightOffer }[] = [];
    for (const [i, o] of offers.entries()) {
      const offerId = `of_t${seq}_${i}`;
      // Shown in the currency the query asks for (each sandbox route's supplier prices in it: no rates needed).
      const shown = {
        offerId,
        searchId,
        companyId: caller.companyId,
        currency: query.currency,
        fx: null,
      };
      const p = flightVertical.present(o, shown);
      await sdb
        .insertInto('search_offers')
        .values({
          offer_id: offerId,
          search_id: searchId,
          supplier: name,
          position: i,
          offer: JSON.stringify(p.offer),
          supplier_ref: JSON.stringify(p.supplierRef ?? null),
          total_minor: p.totalMinor,
          expires_at: expires,
        })
        .execute();
      out.push({ offer_id: offerId, offer: o });
    }
    return out;
  };

  const shut = async () => {
    await runner.stop();
    await database.close();
  };
  return {
    app,
    database,
    mailer,
    clock,
    mocks,
    suppliers,
    runner,
    violations,
    req,
    company,
    user,
    seedOffers,
    async close() {
      await shut();
      await store.drop();
      // Strict mode already answered each of these 500; this names them even where a test did not look.
      if (violations.length > 0 && testResponseValidation() === 'strict')
        throw new Error(
          `responses that break openapi.json:\n${violations.map((v) => JSON.stringify(v)).join('\n')}`,
        );
    },
    async restart() {
      await shut();
      return openWorld(mocks, opts, store, violations);
    },
  };
}

export const passenger = (last = 'RAHMAN', extra: Record<string, unknown> = {}) => ({
  type: 'ADT',
  title: 'MS',
  first_name: 'Ayesha',
  last_name: last,
  gender: 'F',
  date_of_birth: '1990-04-02',
  nationality: 'GB',
  document: { type: 'passport', number: 'A1234567', expiry: '2031-01-01', issuing_country: 'GB' },
  ...extra,
});

export const contact = { email: 'ayesha@example.test', phone: '+447700900123' };
