/**
 * The running service: the composition root of `app.ts` (kernel + auth + platform) plus every domain,
 * the supplier registry, the search engine and the durable job runner. `main.ts` starts it from env;
 * full-stack tests start it with a test database and pinned emulators.
 */
import type { Logger as PinoLogger } from 'pino';
import { type App, createApp, type SharedServices } from './app.ts';
import { adminRoutes } from './domains/admin/routes.ts';
import { bookingJobHandlers, bookingRoutes } from './domains/booking/routes.ts';
import type { BookingSuppliers } from './domains/booking/suppliers.ts';
import { companyRoutes } from './domains/company/routes.ts';
import { customerRoutes } from './domains/customer/routes.ts';
import { searchMarkup } from './domains/markup/search-markup.ts';
import { referenceRoutes } from './domains/reference/routes.ts';
import {
  adminReservationRoutes,
  companyReservationRoutes,
  customerReservationRoutes,
  reservationJobHandlers,
  reservationRoutes,
} from './domains/reservation/index.ts';
import { gdsAdminRoutes } from './domains/search/gds-routes.ts';
import { searchRoutes } from './domains/search/routes.ts';
import { ticketingJobHandlers } from './domains/ticketing/service.ts';
import type { Clock } from './internal/clock.ts';
import { systemClock } from './internal/clock.ts';
import { type Config, ConfigError } from './internal/config.ts';
import { deriveSandboxRefSecret } from './internal/signed-ref.ts';
import { JobRunner } from './jobs/runner.ts';
import type { OpenApiDoc } from './kernel/contract.ts';
import { HttpError } from './kernel/errors.ts';
import type { Routes } from './kernel/types.ts';
import type { Mailer } from './mail/mailer.ts';
import { registerRuntimeMetrics } from './runtime-metrics.ts';
import { createSearchService, type SearchService } from './search/service.ts';
import type { Database } from './storage/database.ts';
import { createSupplierRegistry, type SupplierRegistry } from './suppliers/registry.ts';
import { type SandboxSuppliers, startSandboxSuppliers } from './suppliers/sandbox.ts';

export interface RuntimeOptions {
  config: Config;
  database: Database;
  mailer: Mailer;
  logger: PinoLogger;
  clock?: Clock;
  contract?: OpenApiDoc;
  /** Sandbox emulator URLs already started by the caller (tests, or SANDBOX_SUPPLIER_URLS: several
   * processes sharing one set of emulators); otherwise sandbox mode starts them. */
  sandboxUrls?: SandboxSuppliers['urls'];
  /** Emulator latency when this runtime starts the emulators itself; default a realistic 50-250 ms. */
  sandboxLatencyMs?: number | { min: number; max: number };
  /** Start the job runner's polling loop (tests drive `jobs.runOnce()` themselves). Default true. */
  startJobs?: boolean;
  /** PostgreSQL schema in use (tests), to keep search notifications apart. */
  schema?: string;
}

export interface Runtime {
  app: App;
  suppliers: SupplierRegistry;
  search: SearchService;
  jobs: JobRunner;
  /** Emulator URLs in sandbox mode. */
  sandboxUrls: SandboxSuppliers['urls'] | undefined;
  /** Ends running searches, stops the job runner and the emulators it started; the caller closes the db. */
  close(): Promise<void>;
}

/** Search tuning knobs read straight from env (not part of `Config`: operators rarely touch them). */
function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0)
    throw new ConfigError(`${name} must be a non-negative number, got "${raw}"`);
  return n;
}

/** The booking domains' view of the registry: a flight supplier by name and the payment provider. */
function bookingSuppliers(registry: SupplierRegistry): BookingSuppliers {
  return {
    flight: (name) => registry.flight(name),
    fx: registry.fx,
    payments: () => {
      const provider = registry.payment();
      if (!provider)
        throw new HttpError(503, 'payment_provider_unavailable', 'No payment provider is configured.');
      return provider;
    },
  };
}

function domainRoutes(s: SharedServices, registry: SupplierRegistry, search: SearchService): Routes {
  const booking = {
    db: s.db,
    clock: s.clock,
    mailer: s.mailer,
    logger: s.logger,
    suppliers: bookingSuppliers(registry),
  };
  const services = { db: s.db, clock: s.clock, suppliers: registry, logger: s.logger };
  const accounts = {
    ...s,
    suppliers: booking.suppliers,
    startedAt: Date.now(),
    live: {
      activeSearches: () => search.engine.activeSearches(),
      activeStreams: () => 0,
      openConnections: () => 0,
    },
  };
  return {
    ...referenceRoutes(),
    ...searchRoutes(search),
    ...gdsAdminRoutes(search),
    ...bookingRoutes(booking),
    ...reservationRoutes(services),
    ...adminReservationRoutes(services),
    ...companyReservationRoutes(services),
    ...customerReservationRoutes(services),
    ...adminRoutes(accounts),
    ...companyRoutes(accounts),
    ...customerRoutes(accounts),
  };
}

export async function createRuntime(o: RuntimeOptions): Promise<Runtime> {
  const { config, database, logger } = o;
  const clock = o.clock ?? systemClock;
  let sandbox: SandboxSuppliers | undefined;
  let sandboxUrls = o.sandboxUrls;
  if (config.sandbox && !sandboxUrls) {
    sandbox = await startSandboxSuppliers({
      options: { latencyMs: o.sandboxLatencyMs ?? { min: 50, max: 250 } },
    });
    sandboxUrls = sandbox.urls;
  }
  const suppliers = await createSupplierRegistry({
    config: { sandbox: config.sandbox, suppliers: config.suppliers },
    db: database.db,
    ...(sandboxUrls ? { sandboxUrls } : {}),
    now: () => clock.now().getTime(),
    // Sandbox without SUPPLIER_REF_SECRET: references are signed with a key derived from the JWT key.
    ...(config.jwtKeys[0] ? { sandboxRefSecret: deriveSandboxRefSecret(config.jwtKeys[0].secret) } : {}),
  });
  const search = await createSearchService({
    db: database.db,
    suppliers,
    clock,
    log: logger,
    databaseUrl: database.kind === 'postgres' ? config.databaseUrl : undefined,
    schema: o.schema,
    ttlSeconds: config.searchTtlSeconds,
    markup: searchMarkup(database.db),
    heartbeatMs: envNumber('SEARCH_HEARTBEAT_SECONDS', 15) * 1000,
    pollMs: envNumber('SEARCH_POLL_MS', 1000),
    orphanGraceMs: envNumber('SEARCH_ORPHAN_GRACE_SECONDS', 10) * 1000,
  });
  const app = createApp({
    config,
    database,
    mailer: o.mailer,
    clock,
    logger,
    ...(o.contract ? { contract: o.contract } : {}),
    routes: (s) => domainRoutes(s, suppliers, search),
  });
  const s = app.services;
  const booking = { db: s.db, clock, mailer: s.mailer, logger, suppliers: bookingSuppliers(suppliers) };
  const services = { db: s.db, clock, suppliers, logger };
  const jobs = new JobRunner({
    db: database.db,
    clock,
    log: logger,
    pollMs: envNumber('JOBS_POLL_MS', 1000),
    handlers: {
      ...bookingJobHandlers(booking),
      ...ticketingJobHandlers(booking),
      ...reservationJobHandlers(services),
      ...search.jobHandlers,
    },
  });
  if (o.startJobs !== false) jobs.start();
  registerRuntimeMetrics({
    registry: s.metrics.registry,
    database,
    breakers: search.breakers,
    // Searchable suppliers are the ones behind a breaker (the engine guards each fan-out call with one).
    suppliers: () => {
      const n = suppliers.names();
      return [...n.flight, ...n.hotel, ...n.transfer];
    },
    clock,
    log: logger,
  });
  return {
    app,
    suppliers,
    search,
    jobs,
    sandboxUrls,
    async close() {
      await search.close();
      await jobs.stop();
      await sandbox?.close();
    },
  };
}
