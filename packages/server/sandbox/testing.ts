/**
 * `@travel/server/testing`: the REAL server in the caller's process on a loopback port, for the SDK's and
 * the CLI's tests. It is wired as `src/server.ts` wires it (`createRuntime`: every domain), with a fresh
 * PGlite data directory, the sandbox supplier emulators in this process at no latency (deterministic;
 * emulators.ts), a memory mailer, the seeded admin and the seeded sandbox agency (the agent searches and
 * bookings need). A composition root outside src/, like main.ts here. Every response is checked
 * against openapi.json (`RESPONSE_VALIDATION=strict`): a violation answers 500 naming it and fails the test
 * that provoked it (`TEST_RESPONSE_VALIDATION=log` only logs it).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { ManualClock } from '../src/internal/clock.ts';
import { environment, loadConfig } from '../src/internal/config.ts';
import { serve } from '../src/kernel/node-adapter.ts';
import { MemoryMailer } from '../src/mail/mailer.ts';
import { createRuntime, type Runtime } from '../src/runtime.ts';
import { seedSandboxAgency } from '../src/sandbox-seed.ts';
import { openDatabase } from '../src/storage/database.ts';
import type { SandboxEmulators } from '../src/suppliers/sandbox.ts';
import { startEmulators } from './emulators.ts';

export interface Login {
  email: string;
  password: string;
}

export interface TestServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  url: string;
  admin: Login;
  /** The sandbox agency's company_admin: what searches need. Exactly a login body. */
  agent: Login;
  /** The agent's company and user code (SANDBOX, AGENT1), as searches and the CLI's identity name them. */
  agency: { companyCode: string; userCode: string };
  /** One pass of the durable job runner, as its polling loop would run it; resolves to the jobs run. */
  runJobs(): Promise<number>;
  /**
   * Compresses /docs and /openapi.json as src/server.ts does once it listens (the test server does not, so its
   * tests spend no CPU on it): until then both are served as they are. Resolves when every coding is ready.
   */
  compressDocuments(): Promise<void>;
  /** Moves the server's clock on (only with `manualClock`): tokens expire without waiting. */
  advanceClock(ms: number): void;
  close(): Promise<void>;
}

export interface TestServerOptions {
  /** More configuration, e.g. `{ ACCESS_TOKEN_TTL_SECONDS: '60' }`; wins over the defaults here. */
  env?: Record<string, string>;
  /** Run the server on a manual clock (starting now) that only `advanceClock` moves. */
  manualClock?: boolean;
  /** Start the job runner's polling loop; default false (tests call `runJobs()`). */
  startJobs?: boolean;
}

const OPENAPI_PATH = fileURLToPath(new URL('../../../openapi.json', import.meta.url));

/**
 * Starts the server; `close()` stops it and removes its data directory.
 *
 * @example
 * const server = await startTestServer({ manualClock: true, env: { ACCESS_TOKEN_TTL_SECONDS: '60' } });
 * const travel = createTravelClient({ baseUrl: server.url });
 * await travel.auth.login(server.agent);
 */
export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  // A cheap password hash: logins are many and the strength of a test password does not matter.
  environment().PASSWORD_SCRYPT_N ??= '1024';
  const dataDir = mkdtempSync(join(tmpdir(), 'travel-test-server-'));
  const config = loadConfig({
    SUPPLIERS: 'sandbox',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    // Many clients (and short-lived CLI processes) log in and search from one address during a run.
    RATE_LIMIT_LOGIN_ACCOUNT: '1000/60',
    RATE_LIMIT_LOGIN_IP: '1000/60',
    RATE_LIMIT_SEARCH: '1000/60',
    RATE_LIMIT_STREAM: '1000/60',
    RESPONSE_VALIDATION: environment().TEST_RESPONSE_VALIDATION === 'log' ? 'log' : 'strict',
    OPENAPI_PATH,
    ...options.env,
  });
  const clock = options.manualClock ? new ManualClock(new Date()) : undefined;
  const database = await openDatabase({ dataDir: join(dataDir, 'pglite') });
  let runtime: Runtime | undefined;
  let emulators: SandboxEmulators | undefined;
  try {
    emulators = await startEmulators({ latencyMs: 0 });
    runtime = await createRuntime({
      config,
      database,
      mailer: new MemoryMailer(),
      logger: pino({ level: environment().TEST_LOG_LEVEL || 'silent' }),
      sandboxUrls: emulators.urls,
      startJobs: options.startJobs ?? false,
      ...(clock ? { clock } : {}),
    });
    const rt = runtime;
    const sandbox = emulators;
    await rt.app.services.auth.seedAdmin(config.admin.email, config.admin.password);
    const agency = await seedSandboxAgency(database.db, rt.app.services.clock);
    const running = await serve(rt.app.kernel, { port: 0, host: '127.0.0.1', requestTimeoutMs: 0 });
    return {
      url: running.url.replace('localhost', '127.0.0.1'),
      compressDocuments: () => rt.app.precompressDocuments(),
      admin: { email: config.admin.email, password: config.admin.password },
      agent: { email: agency.email, password: agency.password },
      agency: { companyCode: agency.companyCode, userCode: 'AGENT1' },
      runJobs: () => rt.jobs.runOnce(),
      advanceClock: (ms) => {
        if (!clock) throw new Error('startTestServer({ manualClock: true }) to move the clock');
        clock.advance(ms);
      },
      close: async () => {
        await running.close(1000);
        await rt.close();
        await sandbox.close();
        await database.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await runtime?.close().catch(() => undefined);
    await emulators?.close().catch(() => undefined);
    await database.close().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}
