/**
 * The whole server (`createRuntime`: every domain's routes, the search engine, the supplier registry) on
 * a test database (PGlite, or a private schema on TEST_DATABASE_URL), the sandbox emulators on loopback
 * (their request counters prove when no supplier was called), dispatch without a socket, and every
 * response checked against openapi.json (strict: a violation answers 500 and is listed).
 */
import { type MockServers, startMockServers } from '@travel/mock-server';
import pino from 'pino';
import { ManualClock } from '../../src/internal/clock.ts';
import { loadConfig } from '../../src/internal/config.ts';
import type { ResponseViolation } from '../../src/kernel/response-validator.ts';
import type { Role } from '../../src/kernel/types.ts';
import { MemoryMailer } from '../../src/mail/mailer.ts';
import { createRuntime, type Runtime } from '../../src/runtime.ts';
import type { Database } from '../../src/storage/database.ts';
import { dispatch } from '../harness/dispatch.ts';
import { seedCompany, seedUser } from '../harness/seed.ts';
import { realContract } from '../helpers/contract.ts';
import { testDatabase } from '../helpers/db.ts';

process.env.PASSWORD_SCRYPT_N ??= '1024';

export interface Res<T> {
  status: number;
  body: T;
}

export interface Journeys {
  runtime: Runtime;
  database: Database;
  mocks: MockServers;
  clock: ManualClock;
  violations: ResponseViolation[];
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
  req<T = any>(
    method: string,
    path: string,
    o?: { token?: string; body?: unknown; key?: string },
  ): Promise<Res<T>>;
  company(): Promise<{ id: number; code: string }>;
  user(role: Role, companyId: number | null): Promise<{ id: string; email: string; token: string }>;
  /** Supplier requests the emulators have served so far. */
  served(): Record<string, number>;
  close(): Promise<void>;
}

/**
 * `notify`: on PostgreSQL the runtime is told the server's URL and schema, so it LISTENs for the events'
 * NOTIFY as a deployed process does (and the search engine notifies across processes); off by default.
 */
export async function journeys(o: { notify?: boolean } = {}): Promise<Journeys> {
  const mocks = await startMockServers({
    options: { latencyMs: 0, seed: 7 },
    suppliers: ['amadeus', 'duffel', 'mystifly', 'hotelbeds', 'hotelbeds-transfers', 'stripe'],
  });
  const database = await testDatabase();
  const clock = new ManualClock(new Date());
  const violations: ResponseViolation[] = [];
  const runtime = await createRuntime({
    config: loadConfig({
      SUPPLIERS: 'sandbox',
      PUBLIC_BASE_URL: 'http://travel.test',
      AUTH_STATUS_CACHE_MS: '0',
      RESPONSE_VALIDATION: 'strict',
      RATE_LIMIT_SEARCH: '1000/60',
      ...(o.notify && database.url ? { DATABASE_URL: database.url } : {}),
    }),
    ...(o.notify && database.schema ? { schema: database.schema } : {}),
    database,
    mailer: new MemoryMailer(),
    logger: pino({ level: process.env.TEST_LOG_LEVEL || 'silent' }),
    clock,
    contract: realContract(),
    sandboxUrls: mocks.urls as never,
    startJobs: false,
  });
  const app = runtime.app;

  const req: Journeys['req'] = async (method, path, o = {}) => {
    const r = await dispatch(app, method, path, o);
    return { status: r.status, body: r.body };
  };

  return {
    runtime,
    database,
    mocks,
    clock,
    violations,
    req,
    company: () => seedCompany(database.db, 'JY'),
    user: (role, companyId) =>
      seedUser(database.db, app.services.tokens, {
        role,
        companyId,
        tag: 'jy',
        fullName: 'Journey Tester',
        verifiedAt: clock.now(),
        userCode: (id) => id,
      }),
    served: () => ({ ...mocks.requests() }) as Record<string, number>,
    async close() {
      await runtime.close();
      await database.close();
      await mocks.close();
    },
  };
}

export { futureDate } from '../harness/flight-search.ts';

let keys = 0;
export const key = (): string => `jy-${Date.now()}-${++keys}`;
