/**
 * Starts the REAL server in process on a loopback port, the way packages/server/src/main.ts does: every
 * domain wired by `createRuntime`, a fresh PGlite data directory, the sandbox supplier emulators with no
 * latency (deterministic), a memory mailer, the seeded admin and the seeded sandbox agency (the agent
 * searches and books need). Imported by path at runtime so this package's typecheck does not pull in the
 * server's sources.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const serverRoot = fileURLToPath(new URL('../../../server/', import.meta.url));
const server = (path: string) => join(serverRoot, 'src', path);

export interface RunningTestServer {
  url: string;
  admin: { email: string; password: string };
  agent: { email: string; password: string; companyCode: string; userCode: string };
  /** operationIds the server answers 501 for (tests that need them skip; with the runtime: none). */
  unimplemented: string[];
  /** Runs the job runner once (reconciliation of PENDING bookings etc.), as its polling loop would. */
  runJobs(): Promise<unknown>;
  close(): Promise<void>;
}

export async function startServer(
  options: {
    startJobs?: boolean;
    /** Extra server settings, e.g. `{ ACCESS_TOKEN_TTL_SECONDS: '5' }`. */
    env?: Record<string, string>;
  } = {},
): Promise<RunningTestServer> {
  process.env.PASSWORD_SCRYPT_N ??= '1024';
  const [
    { createRuntime },
    { loadConfig },
    { openDatabase },
    { MemoryMailer },
    { serve },
    { seedSandboxAgency },
    pinoModule,
  ] = await Promise.all([
    import(server('runtime.ts')),
    import(server('internal/config.ts')),
    import(server('storage/database.ts')),
    import(server('mail/mailer.ts')),
    import(server('kernel/node-adapter.ts')),
    import(server('sandbox-seed.ts')),
    import(createRequire(join(serverRoot, 'package.json')).resolve('pino')),
  ]);
  const pino = (pinoModule.default ?? pinoModule) as (o: object) => unknown;
  const dataDir = mkdtempSync(join(tmpdir(), 'travel-cli-server-'));
  const config = loadConfig({
    SUPPLIERS: 'sandbox',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    // Many short-lived CLI processes log in from one address during a run.
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
  const database = await openDatabase({ dataDir: join(dataDir, 'pglite') });
  const logger = pino({ level: process.env.TEST_LOG_LEVEL || 'silent' });
  let runtime: Awaited<ReturnType<typeof createRuntime>> | undefined;
  try {
    runtime = await createRuntime({
      config,
      database,
      mailer: new MemoryMailer(),
      logger,
      sandboxLatencyMs: 0,
      startJobs: options.startJobs ?? true,
    });
    const app = runtime.app;
    await app.services.auth.seedAdmin(config.admin.email, config.admin.password);
    const agency = await seedSandboxAgency(database.db, app.services.clock);
    const running = await serve(app.kernel, { port: 0, host: '127.0.0.1', requestTimeoutMs: 0 });
    const rt = runtime;
    return {
      url: running.url.replace('localhost', '127.0.0.1'),
      admin: { email: config.admin.email, password: config.admin.password },
      agent: {
        email: agency.email,
        password: agency.password,
        companyCode: agency.companyCode,
        userCode: 'AGENT1',
      },
      unimplemented: [...app.kernel.unimplemented],
      runJobs: () => rt.jobs.runOnce(),
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
