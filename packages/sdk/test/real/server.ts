/**
 * Starts the REAL travel server in this process on a loopback port, as packages/server/src/main.ts does:
 * every domain wired by `createRuntime`, a fresh PGlite data directory, the sandbox supplier emulators with
 * no latency (deterministic), a memory mailer, the seeded sandbox admin and the sandbox agency agent.
 * The job runner does not poll: tests drive it with `runJobs()` (reconciliation of PENDING bookings).
 * Imported by path at runtime so the SDK's typecheck does not pull in the server's sources.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const serverRoot = fileURLToPath(new URL('../../../server/', import.meta.url));
const server = (path: string) => join(serverRoot, 'src', path);

export interface Login {
  email: string;
  password: string;
}

export interface RealServer {
  url: string;
  admin: Login;
  /** The sandbox agency's company_admin (company SANDBOX, user code AGENT1): what searches need. */
  agent: Login;
  /** One pass of the durable job runner, as its polling loop would run it; resolves to jobs run. */
  runJobs(): Promise<number>;
  /** Moves the server's clock on (only with `manualClock`): tokens expire without waiting. */
  advanceClock(ms: number): void;
  close(): Promise<void>;
}

/** The slice of the server's `Runtime` used here (the server's types stay out of the SDK's typecheck). */
interface Runtime {
  app: {
    services: { auth: { seedAdmin(email: string, password: string): Promise<unknown> }; clock: unknown };
    kernel: unknown;
  };
  jobs: { runOnce(): Promise<number> };
  close(): Promise<void>;
}

export interface RealServerOptions {
  /** More configuration, e.g. `{ ACCESS_TOKEN_TTL_SECONDS: '60' }`. */
  env?: Record<string, string>;
  /** Run the server on a manual clock (starting now) that only `advanceClock` moves. */
  manualClock?: boolean;
}

export async function startRealServer(options: RealServerOptions = {}): Promise<RealServer> {
  process.env.PASSWORD_SCRYPT_N ??= '1024';
  const [
    { ManualClock },
    { createRuntime },
    { loadConfig },
    { openDatabase },
    { MemoryMailer },
    { serve },
    { seedSandboxAgency },
    pinoModule,
  ] = await Promise.all([
    import(server('internal/clock.ts')),
    import(server('runtime.ts')),
    import(server('internal/config.ts')),
    import(server('storage/database.ts')),
    import(server('mail/mailer.ts')),
    import(server('kernel/node-adapter.ts')),
    import(server('sandbox-seed.ts')),
    import(createRequire(join(serverRoot, 'package.json')).resolve('pino')),
  ]);
  const pino = (pinoModule.default ?? pinoModule) as (o: object) => unknown;
  const dataDir = mkdtempSync(join(tmpdir(), 'travel-sdk-server-'));
  const config = loadConfig({
    SUPPLIERS: 'sandbox',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_LOGIN_ACCOUNT: '1000/60',
    RATE_LIMIT_LOGIN_IP: '1000/60',
    RATE_LIMIT_SEARCH: '1000/60',
    RATE_LIMIT_STREAM: '1000/60',
    // Every response is checked against openapi.json; a violation answers 500 naming it, failing the test
    // that provoked it (TEST_RESPONSE_VALIDATION=log only logs it).
    RESPONSE_VALIDATION: process.env.TEST_RESPONSE_VALIDATION === 'log' ? 'log' : 'strict',
    OPENAPI_PATH: fileURLToPath(new URL('../../../../openapi.json', import.meta.url)),
    ...options.env,
  });
  const clock = options.manualClock ? new ManualClock(new Date()) : undefined;
  const database = await openDatabase({ dataDir: join(dataDir, 'pglite') });
  let runtime: Runtime | undefined;
  try {
    runtime = await createRuntime({
      config,
      database,
      mailer: new MemoryMailer(),
      logger: pino({ level: process.env.TEST_LOG_LEVEL || 'silent' }),
      sandboxLatencyMs: 0,
      startJobs: false,
      ...(clock ? { clock } : {}),
    });
    const rt = runtime as Runtime;
    await rt.app.services.auth.seedAdmin(config.admin.email, config.admin.password);
    const agency = await seedSandboxAgency(database.db, rt.app.services.clock);
    const running = await serve(rt.app.kernel, { port: 0, host: '127.0.0.1', requestTimeoutMs: 0 });
    return {
      url: String(running.url).replace('localhost', '127.0.0.1'),
      admin: { email: config.admin.email, password: config.admin.password },
      agent: { email: agency.email, password: agency.password },
      runJobs: () => rt.jobs.runOnce(),
      advanceClock: (ms) => {
        if (!clock) throw new Error('startRealServer({ manualClock: true }) to move the clock');
        clock.advance(ms);
      },
      close: async () => {
        await running.close(1000);
        await rt.close();
        await database.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await runtime?.close().catch(() => undefined);
    await database.close().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}
