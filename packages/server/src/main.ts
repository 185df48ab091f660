import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { MOCK_SUPPLIERS, type MockSupplier } from '@travel/mock-server';
import pino from 'pino';
import { ConfigError, loadConfig } from './internal/config.ts';
import { sandboxJwtKey } from './internal/tokens.ts';
import { serve } from './kernel/node-adapter.ts';
import { createMailer } from './mail/mailer.ts';
import { createRuntime } from './runtime.ts';
import { seedSandboxAgency } from './sandbox-seed.ts';
import { openDatabase } from './storage/database.ts';

// The only process-level file: env -> deps -> listen, and the SIGTERM drain.
const log = pino({ level: process.env.LOG_LEVEL || 'info', base: { service: 'travel-server' } });

/**
 * SANDBOX_SUPPLIER_URLS=`amadeus=http://host:port,duffel=…`: use emulators that already run (the
 * standalone mock-server, or a test's) instead of starting private ones, so several server processes
 * in sandbox mode share one set of emulators and their state (orders, PNRs).
 */
function sandboxUrls(raw: string | undefined): Partial<Record<MockSupplier, string>> | undefined {
  if (!raw?.trim()) return undefined;
  const urls: Partial<Record<MockSupplier, string>> = {};
  for (const entry of raw
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const i = entry.indexOf('=');
    const name = entry.slice(0, i).trim() as MockSupplier;
    if (i <= 0 || !MOCK_SUPPLIERS.includes(name) || !URL.canParse(entry.slice(i + 1).trim())) {
      throw new ConfigError(
        `SANDBOX_SUPPLIER_URLS entries must look like "amadeus=http://host:port", got "${entry}"`,
      );
    }
    urls[name] = entry
      .slice(i + 1)
      .trim()
      .replace(/\/$/, '');
  }
  return urls;
}

/**
 * EXIT_WITH_PARENT=1, for a process started by another with an IPC channel (`fork`, or `spawn` with
 * 'ipc' in stdio), as multi-process tests do: when the channel closes (the parent exited, even by
 * kill -9) the server drains and exits instead of living on as an orphan holding a port.
 */
function parentGone(): Promise<void> | undefined {
  if (process.env.EXIT_WITH_PARENT !== '1') return undefined;
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

async function main() {
  const orphaned = parentGone();
  let config: ReturnType<typeof loadConfig>;
  let emulators: ReturnType<typeof sandboxUrls>;
  try {
    config = loadConfig(process.env);
    emulators = sandboxUrls(process.env.SANDBOX_SUPPLIER_URLS);
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
  // Sandbox without JWT_SECRET(S): the data directory's own random key (made on first start, 0600).
  if (config.jwtKeysGenerated) config.jwtKeys = [await sandboxJwtKey(config.dataDir)];
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: join(config.dataDir, 'pglite'),
  });
  const mailer = createMailer({
    mailUrl: config.mailUrl,
    from: config.mailFrom,
    outboxDir: join(config.dataDir, 'outbox'),
  });
  if (emulators && !config.sandbox) log.warn('SANDBOX_SUPPLIER_URLS is ignored outside sandbox mode');
  const runtime = await createRuntime({
    config,
    database,
    mailer,
    logger: log,
    ...(emulators && config.sandbox ? { sandboxUrls: emulators } : {}),
  });
  const app = runtime.app;
  // The kernel answers 501 for a contract operation without a handler (test apps mount a few domains);
  // the service itself never starts with one.
  if (app.kernel.unimplemented.length > 0) {
    log.fatal({ operations: app.kernel.unimplemented }, 'contract operations without a handler');
    await runtime.close();
    await database.close();
    process.exitCode = 1;
    return;
  }
  const seeded = await app.services.auth.seedAdmin(config.admin.email, config.admin.password);
  const agency = config.sandbox ? await seedSandboxAgency(database.db, app.services.clock) : undefined;
  const server = await serve(app.kernel, {
    port: config.port,
    host: config.host,
    keepAliveTimeoutMs: config.http.keepAliveTimeoutMs,
    headersTimeoutMs: config.http.headersTimeoutMs,
    requestTimeoutMs: config.http.requestTimeoutMs,
  });
  const maintenance = setInterval(() => {
    app.runMaintenance().catch((err) => log.warn({ err }, 'maintenance failed'));
  }, 60_000);
  maintenance.unref();

  const lines = [
    `Travel service listening on ${server.url}  (API reference: ${server.url}/docs)`,
    `  database: ${database.kind === 'pglite' ? `embedded PGlite in ${join(config.dataDir, 'pglite')}` : 'PostgreSQL server (DATABASE_URL)'}`,
    `  mail: ${config.mailUrl ? 'SMTP (MAIL_URL)' : `.eml files in ${join(config.dataDir, 'outbox')}`}`,
    `  mode: ${config.sandbox ? 'sandbox' : 'live'}; ${app.kernel.operations.length} operations`,
  ];
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
  process.stdout.write(`${lines.join('\n')}\n`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'draining');
    clearInterval(maintenance);
    await server.close(config.http.shutdownGraceMs);
    await runtime.close();
    await database.close();
    log.info('stopped');
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  void orphaned?.then(async () => {
    // Nobody is left to send SIGTERM: drain as for it, and make sure nothing keeps the process alive.
    setTimeout(() => process.exit(0), config.http.shutdownGraceMs + 5000).unref();
    await stop('parent exited');
  });
}

main().catch((err) => {
  log.fatal({ err }, 'failed to start');
  process.exitCode = 1;
});
