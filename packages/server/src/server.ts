import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { buildInfo } from './internal/build-info.ts';
import { ConfigError, environment, loadConfig, retentionPolicy } from './internal/config.ts';
import { createLogger, flushLogs } from './internal/logger.ts';
import { sandboxJwtKey } from './internal/tokens.ts';
import type { Kernel } from './kernel/kernel.ts';
import { serve } from './kernel/node-adapter.ts';
import { createMailer } from './mail/mailer.ts';
import { purgeOutbox } from './mail/outbox-retention.ts';
import { startTracing, stopTracing } from './observability/tracing.ts';
import { createRuntime, type Runtime } from './runtime.ts';
import { seedSandboxAgency } from './sandbox-seed.ts';
import { backupEmbedded } from './storage/backup/archive.ts';
import { type ControlServer, DataDirInUseError, serveControl } from './storage/backup/control.ts';
import { type Database, openDatabase } from './storage/database.ts';
import {
  parseSandboxLatency,
  parseSandboxUrls,
  type SandboxEmulators,
  type StartEmulators,
} from './suppliers/sandbox.ts';

// The process: env -> deps -> listen, and the SIGTERM drain. Run by the entry points, `src/main.ts`
// (suppliers by URL only) and `packages/server/sandbox/main.ts` (`pnpm start`: emulators in-process).
// Lines are written asynchronously (internal/logger.ts); every way out below flushes what is buffered.
const log = createLogger(environment().LOG_LEVEL || 'info');
process.on('exit', () => flushLogs(log));

/**
 * What the start is doing (creating the embedded database, migrating, seeding): a first start takes tens
 * of seconds and must not look hung. A log line at info, and on a terminal a plain line too.
 */
function progress(message: string, fields: Record<string, unknown> = {}): void {
  log.info({ event: 'starting', ...fields }, message);
  if (process.stdout.isTTY) process.stdout.write(`  ${message}…\n`);
}

/**
 * EXIT_WITH_PARENT=1, for a process started by another with an IPC channel (`fork`, or `spawn` with
 * 'ipc' in stdio), as multi-process tests do: when the channel closes (the parent exited, even by
 * kill -9) the server drains and exits instead of living on as an orphan holding a port.
 */
function parentGone(): Promise<void> | undefined {
  if (environment().EXIT_WITH_PARENT !== '1') return undefined;
  if (!process.channel) {
    log.warn('EXIT_WITH_PARENT is set but there is no IPC channel to the parent; ignored');
    return undefined;
  }
  process.channel.unref();
  return new Promise((resolve) => {
    if (!process.connected) resolve();
    else process.once('disconnect', () => resolve());
  });
}

/**
 * The kernel as the socket sees it, with one more reason for `ctx.signal` to abort: the shutdown
 * deadline. Handlers hand `ctx.signal` to every supplier call (CallOptions.signal), so aborting it at the
 * end of the grace period ends those calls while the client is still connected: the handler records
 * what it knows (a 502 pending booking, say) and answers, instead of being cut off mid-way.
 */
function withDeadline(kernel: Kernel, deadline: AbortSignal): Kernel {
  const dispatch = kernel.dispatch;
  return {
    ...kernel,
    inFlight: () => kernel.inFlight(),
    shutdown: () => kernel.shutdown(),
    handle: (request, info = {}) =>
      kernel.handle(request, { ...info, signal: AbortSignal.any([info.signal ?? request.signal, deadline]) }),
    ...(dispatch
      ? {
          dispatch: (input) =>
            dispatch({
              ...input,
              signal: () =>
                AbortSignal.any([
                  typeof input.signal === 'function' ? input.signal() : input.signal,
                  deadline,
                ]),
            }),
        }
      : {}),
  };
}

/** Resolves when `done()` holds or at `until` (ms since the epoch), whichever comes first. */
async function settle(done: () => boolean, until: number): Promise<void> {
  while (!done() && Date.now() < until) {
    await new Promise((r) => setTimeout(r, Math.min(25, Math.max(1, until - Date.now()))));
  }
}

/** Sandbox mode with neither emulators in this process nor SANDBOX_SUPPLIER_URLS: the two ways out. */
const NO_EMULATORS =
  'sandbox mode (SUPPLIERS=sandbox, the default) calls the supplier emulators, and src/main.ts does not ' +
  'start them: run `pnpm start` (packages/server/sandbox/main.ts, the emulators in this process), or set ' +
  'SANDBOX_SUPPLIER_URLS to a running packages/mock-server (`MOCK_PORT_BASE=12100 pnpm --filter ' +
  '@travel/mock-server start`, then SANDBOX_SUPPLIER_URLS=amadeus=http://127.0.0.1:12100,duffel=…)';

export interface ServerOptions {
  /**
   * Runs the sandbox's emulators in this process when sandbox mode has no SANDBOX_SUPPLIER_URLS: the
   * port `packages/server/sandbox/main.ts` (`pnpm start`) hands in. Without it, src/ reaches suppliers
   * by URL only.
   */
  startEmulators?: StartEmulators;
}

async function start(o: ServerOptions) {
  const orphaned = parentGone();
  let config: ReturnType<typeof loadConfig>;
  let urls: ReturnType<typeof parseSandboxUrls>;
  let sandboxLatencyMs: ReturnType<typeof parseSandboxLatency>;
  try {
    config = loadConfig(environment());
    urls = parseSandboxUrls(environment().SANDBOX_SUPPLIER_URLS);
    sandboxLatencyMs = parseSandboxLatency(environment().SANDBOX_LATENCY_MS);
    if (config.sandbox && !urls && !o.startEmulators) throw new ConfigError(NO_EMULATORS);
  } catch (err) {
    if (err instanceof ConfigError) {
      log.fatal(err.message);
      process.exitCode = 1;
      return;
    }
    throw err;
  }
  if (!existsSync(config.openapiPath)) {
    log.fatal({ path: config.openapiPath }, 'openapi.json not found (set OPENAPI_PATH)');
    process.exitCode = 1;
    return;
  }
  // OpenTelemetry, only when OTEL_* asks for it (nothing of the SDK is loaded otherwise).
  await startTracing(environment(), { serviceVersion: buildInfo().version, log });
  // The embedded database lives in this process: its control socket (pnpm backup) is also DATA_DIR's
  // lock, taken before the database is opened, so no second server or restore runs on it meanwhile.
  let control: ControlServer | undefined;
  let embedded: Database | undefined;
  if (!config.databaseUrl) {
    await mkdir(config.dataDir, { recursive: true });
    try {
      control = await serveControl(config.dataDir, {
        backup: async () => (embedded ? (await backupEmbedded(embedded, config.dataDir)).archive : undefined),
      });
    } catch (err) {
      if (!(err instanceof DataDirInUseError)) throw err;
      log.fatal(`${err.message}: one server per DATA_DIR (PGlite is embedded in it)`);
      process.exitCode = 1;
      return;
    }
  }
  // Sandbox without JWT_SECRET(S): the data directory's own random key (made on first start, 0600).
  if (config.jwtKeysGenerated) config.jwtKeys = [await sandboxJwtKey(config.dataDir)];
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: join(config.dataDir, 'pglite'),
    log,
    progress,
  }).catch(async (err: unknown) => {
    await control?.close();
    throw err;
  });
  if (database.kind === 'pglite') embedded = database;
  const mailer = createMailer({
    mailUrl: config.mailUrl,
    from: config.mailFrom,
    outboxDir: join(config.dataDir, 'outbox'),
  });
  if (urls && !config.sandbox) log.warn('SANDBOX_SUPPLIER_URLS is ignored outside sandbox mode');
  const inProcess = config.sandbox && !urls ? o.startEmulators : undefined;
  progress(
    inProcess ? 'loading the contract and starting the sandbox supplier emulators' : 'loading the contract',
  );
  // The in-process emulators remember their orders, PNRs, tickets and payments with the data directory
  // (with DATABASE_URL too: DATA_DIR, default .data, also holds the sandbox JWT key).
  let emulators: SandboxEmulators | undefined;
  let runtime: Runtime;
  try {
    emulators = await inProcess?.({
      stateDir: join(config.dataDir, 'sandbox-suppliers'),
      ...(sandboxLatencyMs !== undefined ? { latencyMs: sandboxLatencyMs } : {}),
    });
    const sandboxUrls = config.sandbox ? (urls ?? emulators?.urls) : undefined;
    runtime = await createRuntime({
      config,
      database,
      mailer,
      logger: log,
      ...(sandboxUrls ? { sandboxUrls } : {}),
    });
  } catch (err) {
    // Whatever started is closed, so the process exits; the error reported is the start's own.
    await emulators?.close().catch(() => undefined);
    await database.close().catch(() => undefined);
    await control?.close().catch(() => undefined);
    throw err;
  }
  const app = runtime.app;
  // The kernel answers 501 for a contract operation without a handler (test apps mount a few domains);
  // the service itself never starts with one.
  if (app.kernel.unimplemented.length > 0) {
    log.fatal({ operations: app.kernel.unimplemented }, 'contract operations without a handler');
    await runtime.close();
    await emulators?.close();
    await database.close();
    await control?.close();
    process.exitCode = 1;
    return;
  }
  progress(config.sandbox ? 'seeding the admin and the sandbox agency' : 'seeding the admin');
  const seeded = await app.services.auth.seedAdmin(config.admin.email, config.admin.password);
  const agency = config.sandbox ? await seedSandboxAgency(database.db, app.services.clock) : undefined;
  const deadline = new AbortController();
  const server = await serve(withDeadline(app.kernel, deadline.signal), {
    port: config.port,
    host: config.host,
    keepAliveTimeoutMs: config.http.keepAliveTimeoutMs,
    headersTimeoutMs: config.http.headersTimeoutMs,
    requestTimeoutMs: config.http.requestTimeoutMs,
  });
  // /docs and /openapi.json are compressed now, in the background, never on a visitor's request.
  const t0Docs = Date.now();
  app
    .precompressDocuments()
    .then(() => log.info({ ms: Date.now() - t0Docs }, 'docs and contract compressed'))
    .catch((err) => log.warn({ err }, 'docs compression failed; served uncompressed'));
  const outboxMs = retentionPolicy(environment()).outboxMs;
  const maintenance = setInterval(() => {
    app.runMaintenance().catch((err) => log.warn({ err }, 'maintenance failed'));
    // The database is purged by the retention job (one process at a time); the outbox is this process's.
    if (!config.mailUrl) {
      purgeOutbox(join(config.dataDir, 'outbox'), new Date(Date.now() - outboxMs)).catch((err) =>
        log.warn({ err }, 'outbox purge failed'),
      );
    }
  }, 60_000);
  maintenance.unref();

  const lines = [
    `Travel service listening on ${server.url}  (API reference: ${server.url}/docs)`,
    `  database: ${database.kind === 'pglite' ? `embedded PGlite in ${join(config.dataDir, 'pglite')}` : 'PostgreSQL server (DATABASE_URL)'}`,
    `  mail: ${config.mailUrl ? 'SMTP (MAIL_URL)' : `.eml files in ${join(config.dataDir, 'outbox')}`}`,
    `  mode: ${config.sandbox ? 'sandbox' : 'live'}; ${app.kernel.operations.length} operations`,
  ];
  if (emulators) {
    lines.push(
      `  sandbox suppliers: in-process, their state in ${join(config.dataDir, 'sandbox-suppliers')}`,
    );
  }
  if (config.admin.fromDefaults) {
    lines.push(
      `  sandbox admin login: ${config.admin.email} / ${config.admin.password}${seeded.created ? ' (created)' : ''}`,
    );
  } else {
    lines.push(`  admin: ${config.admin.email}${seeded.created ? ' (created)' : ''}`);
  }
  if (agency) {
    lines.push(
      `  sandbox agency login: ${agency.email} / ${agency.password} (company ${agency.companyCode}, company_admin)`,
    );
  }
  // The start-up record: one JSON line whatever LOG_LEVEL says (a log collector and a test harness both
  // find the URL in it), without secrets. The human banner, sandbox logins included, only on a terminal.
  log.child({ component: 'lifecycle' }, { level: 'info' }).info(
    {
      event: 'listening',
      url: server.url,
      docs_url: `${server.url}/docs`,
      database: database.kind === 'pglite' ? 'pglite' : 'postgresql',
      mail: config.mailUrl ? 'smtp' : 'outbox',
      mode: config.sandbox ? 'sandbox' : 'live',
      operations: app.kernel.operations.length,
      admin: config.admin.email,
      ...(agency ? { sandbox_agency: agency.email, sandbox_company: agency.companyCode } : {}),
    },
    `Travel service listening on ${server.url}`,
  );
  if (process.stdout.isTTY) process.stdout.write(`${lines.join('\n')}\n`);

  let stopping = false;
  /**
   * SIGTERM: turn readiness 503 and keep serving for READINESS_DRAIN_MS; then stop accepting and polling,
   * end streams with their final event, let in-flight requests finish (SHUTDOWN_GRACE_MS from the signal);
   * then abort their supplier calls (ctx.signal) and give them a moment to record the outcome and answer;
   * then close what is left, stop the search engine, and only then close the database, so no handler
   * loses it mid-transaction. Whatever still holds the event loop (a supplier
   * socket that ignores its abort) cannot keep the process past grace + 1 s.
   */
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    const grace = config.http.shutdownGraceMs;
    const t0 = Date.now();
    setTimeout(() => {
      log.error({ resources: process.getActiveResourcesInfo() }, 'shutdown overran grace + 1 s; exiting');
      flushLogs(log);
      process.exit(process.exitCode ?? 1);
    }, grace + 950).unref();
    // Readiness first: /health/ready answers 503 while the listener still serves, for READINESS_DRAIN_MS
    // (within the grace), so a load balancer stops routing here before connections are refused.
    app.startDraining();
    const drainMs = signal === 'SIGTERM' ? Math.min(config.http.readinessDrainMs, grace) : 0;
    log.info({ signal, grace_ms: grace, readiness_drain_ms: drainMs }, 'draining');
    clearInterval(maintenance);
    const jobsStopped = runtime.jobs.stop({ graceMs: grace });
    if (drainMs > 0) await new Promise((r) => setTimeout(r, drainMs));
    log.info({ ms: Date.now() - t0 }, 'closing the listener');
    const closed = new Promise<void>((r) => server.server.close(() => r()));
    server.server.closeIdleConnections();
    app.kernel.shutdown();
    const idle = () => app.kernel.inFlight() === 0;
    await settle(idle, t0 + grace);
    if (!idle()) {
      log.warn({ in_flight: app.kernel.inFlight() }, 'grace period over: aborting supplier calls');
      deadline.abort(new Error('server shutting down'));
      await settle(idle, t0 + grace + 500);
    }
    server.server.closeIdleConnections();
    if (!idle()) log.error({ in_flight: app.kernel.inFlight() }, 'requests outlived the grace period; cut');
    server.server.closeAllConnections();
    await closed;
    // Each step is attempted even if one before it failed: the database is closed last, whatever happens.
    for (const [what, step] of [
      ['job runner', () => jobsStopped],
      ['runtime', () => runtime.close()],
      ['sandbox suppliers', () => emulators?.close() ?? Promise.resolve()],
      ['database', () => database.close()],
      ['tracing', () => stopTracing()],
      ['control socket', () => control?.close() ?? Promise.resolve()],
    ] as const) {
      await step().catch((err: unknown) => log.error({ err }, `shutdown: closing the ${what} failed`));
    }
    log.info({ ms: Date.now() - t0 }, 'stopped');
    flushLogs(log);
    // Nothing of ours is left; a handle that still holds the loop (an aborted SDK request's socket) must
    // not keep a stopped server alive.
    setTimeout(() => {
      log.warn({ resources: process.getActiveResourcesInfo() }, 'handles outlived shutdown; exiting');
      flushLogs(log);
      process.exit(process.exitCode ?? 0);
    }, 50).unref();
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  // Nobody is left to send SIGTERM: drain as for it.
  void orphaned?.then(() => stop('parent exited'));
}

/**
 * Runs the service as this process until a signal (or the parent's exit) drains it. Never rejects: a
 * start-up failure is logged as fatal, with exit code 1.
 */
export function runServer(o: ServerOptions = {}): Promise<void> {
  return start(o).catch((err) => {
    // The reason in words on the line itself (a DATA_DIR without room says where and how much).
    log.fatal({ err }, `failed to start: ${(err as Error)?.message ?? String(err)}`);
    flushLogs(log);
    process.exitCode = 1;
  });
}
