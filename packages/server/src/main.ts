import { existsSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import { ConfigError, loadConfig } from './internal/config.ts';
import { serve } from './kernel/node-adapter.ts';
import { createMailer } from './mail/mailer.ts';
import { createRuntime } from './runtime.ts';
import { seedSandboxAgency } from './sandbox-seed.ts';
import { openDatabase } from './storage/database.ts';

// The only process-level file: env -> deps -> listen, and the SIGTERM drain.
const log = pino({ level: process.env.LOG_LEVEL || 'info', base: { service: 'travel-server' } });

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env);
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
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: join(config.dataDir, 'pglite'),
  });
  const mailer = createMailer({
    mailUrl: config.mailUrl,
    from: config.mailFrom,
    outboxDir: join(config.dataDir, 'outbox'),
  });
  const runtime = await createRuntime({ config, database, mailer, logger: log });
  const app = runtime.app;
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
    `  mode: ${config.sandbox ? 'sandbox' : 'live'}; ${app.kernel.unimplemented.length} of ${app.kernel.operations.length} operations not implemented yet (501)`,
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
}

main().catch((err) => {
  log.fatal({ err }, 'failed to start');
  process.exitCode = 1;
});
