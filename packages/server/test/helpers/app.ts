import { appendFileSync } from 'node:fs';
import pino from 'pino';
import { expect } from 'vitest';
import { type App, createApp, type SharedServices } from '../../src/app.ts';
import { ManualClock } from '../../src/internal/clock.ts';
import { type Config, loadConfig } from '../../src/internal/config.ts';
import type { OpenApiDoc } from '../../src/kernel/contract.ts';
import type { ResponseViolation } from '../../src/kernel/response-validator.ts';
import type { Role, Routes } from '../../src/kernel/types.ts';
import { MemoryMailer } from '../../src/mail/mailer.ts';
import type { Database } from '../../src/storage/database.ts';
import { fixtureContract } from '../fixtures/contract.ts';
import { parseBody } from '../harness/dispatch.ts';
import { seedCompany, seedUser } from '../harness/seed.ts';
import { testDatabase } from './db.ts';

process.env.PASSWORD_SCRYPT_N ??= '1024';

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
export interface TestResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent verbatim (for malformed JSON tests). */
  rawBody?: string | Uint8Array;
  token?: string;
  headers?: Record<string, string>;
  ip?: string;
}

export interface TestApp {
  app: App;
  database: Database;
  mailer: MemoryMailer;
  clock: ManualClock;
  config: Config;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
  request<T = any>(method: string, path: string, opts?: RequestOptions): Promise<TestResponse<T>>;
  /** A verified, active user with a token. */
  user(opts?: {
    role?: Role;
    companyId?: number | null;
    email?: string;
  }): Promise<{ id: string; email: string; token: string }>;
  company(code?: string): Promise<number>;
  /** Every response so far that broke the app's contract (strict mode also answered it 500). */
  violations: ResponseViolation[];
  close(): Promise<void>;
}

/**
 * Every test app checks each of its responses against its contract (the kernel's response validator).
 * `strict` (the default) answers a violating response 500 with the problems in `detail`, so the test
 * that provoked it fails; TEST_RESPONSE_VALIDATION=log keeps the response, and
 * TEST_RESPONSE_VIOLATIONS_FILE appends each violation there as a JSON line (a survey across suites).
 */
export const testResponseValidation = (): 'log' | 'strict' =>
  process.env.TEST_RESPONSE_VALIDATION === 'log' ? 'log' : 'strict';

export function recordViolation(into: ResponseViolation[]): (v: ResponseViolation) => void {
  return (v) => {
    into.push(v);
    const file = process.env.TEST_RESPONSE_VIOLATIONS_FILE;
    if (file) appendFileSync(file, `${JSON.stringify({ ...v, test: expect.getState().currentTestName })}\n`);
  };
}

/**
 * An app on a fresh test database (PGlite, or a private schema on TEST_DATABASE_URL), dispatching
 * without a socket. `routes` adds handlers for the fixture's test operations.
 */
export async function createTestApp(
  opts: {
    contract?: OpenApiDoc;
    routes?: (s: SharedServices) => Routes;
    env?: Record<string, string>;
    clock?: ManualClock;
    /** Default: silent (TEST_LOG_LEVEL to see logs). */
    logger?: pino.Logger;
    /** Called with every statement sent to the app's database (round-trip counts). */
    onStatement?: (sql: string) => void;
  } = {},
): Promise<TestApp> {
  const database = await testDatabase(opts.onStatement ? { onStatement: opts.onStatement } : {});
  const mailer = new MemoryMailer();
  const clock = opts.clock ?? new ManualClock(new Date());
  const config = loadConfig({
    SUPPLIERS: 'sandbox',
    PUBLIC_BASE_URL: 'http://travel.test',
    AUTH_STATUS_CACHE_MS: '0',
    // The fixture contract is a kernel-test contract that declares no error statuses: apps on it are not
    // checked. Every app on a real contract (`openapi.json`) is.
    RESPONSE_VALIDATION: opts.contract ? testResponseValidation() : 'off',
    ...opts.env,
  });
  const violations: ResponseViolation[] = [];
  const app = createApp({
    config,
    database,
    mailer,
    clock,
    contract: opts.contract ?? fixtureContract,
    logger: opts.logger ?? pino({ level: process.env.TEST_LOG_LEVEL || 'silent' }),
    routes: opts.routes,
    onResponseViolation: recordViolation(violations),
  });

  const request = async (method: string, path: string, o: RequestOptions = {}): Promise<TestResponse> => {
    const headers: Record<string, string> = { ...o.headers };
    let body: ConstructorParameters<typeof Response>[0] | undefined;
    if (o.rawBody !== undefined) body = o.rawBody as ConstructorParameters<typeof Response>[0];
    else if (o.body !== undefined) body = JSON.stringify(o.body);
    else if (method === 'POST' || method === 'PATCH') body = '{}';
    if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
      headers['content-type'] = 'application/json';
    }
    if (o.token) headers.authorization = `Bearer ${o.token}`;
    const res = await app.handle(new Request(`http://travel.test${path}`, { method, headers, body }), {
      ip: o.ip,
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: parseBody(text), text };
  };

  const company = async (code?: string) => (await seedCompany(database.db, 'C', code)).id;

  const user: TestApp['user'] = (u = {}) =>
    seedUser(database.db, app.services.tokens, {
      role: u.role ?? 'customer',
      companyId: u.companyId ?? null,
      ...(u.email ? { email: u.email } : {}),
      verifiedAt: clock.now(),
    });

  return {
    app,
    database,
    mailer,
    clock,
    config,
    request,
    user,
    company,
    violations,
    close: () => database.close(),
  };
}
