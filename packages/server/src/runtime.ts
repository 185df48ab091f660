/**
 * The running service: the composition root of `app.ts` (kernel + auth + platform) plus every domain,
 * the supplier registry, the search engine and the durable job runner. `server.ts` starts it from env;
 * full-stack tests start it with a test database and pinned emulators. It reaches the sandbox's emulators
 * by URL only (`sandboxUrls`): whoever starts them (a composition root, a test) also stops them.
 */

import type { Logger as PinoLogger } from 'pino';
import { type App, createApp, type SharedServices } from './app.ts';
import { adminRoutes } from './domains/admin/routes.ts';
import { companyRoutes } from './domains/company/routes.ts';
import { webhookRoutes } from './domains/company/webhook-routes.ts';
import { customerRoutes } from './domains/customer/routes.ts';
import { eventRoutes } from './domains/events/index.ts';
import {
  type BookingDeps,
  type BookingSuppliers,
  bookingJobHandlers,
  bookingRoutes,
  scheduleChangeJobHandlers,
  scheduleScheduleChangeScan,
  ticketingJobHandlers,
} from './domains/flight-booking/index.ts';
import { searchMarkup } from './domains/markup/index.ts';
import { referenceRoutes } from './domains/reference/index.ts';
import {
  adminReservationRoutes,
  companyReservationRoutes,
  customerReservationRoutes,
  reservationJobHandlers,
  reservationRoutes,
} from './domains/reservation/index.ts';
import { gdsAdminRoutes, searchRoutes } from './domains/search/index.ts';
import { EventFeed } from './events/feed.ts';
import { WEBHOOK_QUEUE } from './events/record.ts';
import { purgeEvents } from './events/retention.ts';
import { type EventWake, startEventWake } from './events/wake.ts';
import { deliverHandler } from './events/webhooks/deliver.ts';
import type { Clock } from './internal/clock.ts';
import { systemClock } from './internal/clock.ts';
import { type Config, retentionPolicy, runtimeTuning } from './internal/config.ts';
import { deriveSandboxRefSecret } from './internal/signed-ref.ts';
import { retentionJobHandlers, scheduleRetention } from './jobs/retention.ts';
import { JobRunner } from './jobs/runner.ts';
import type { OpenApiDoc } from './kernel/contract.ts';
import type { Routes } from './kernel/types.ts';
import type { Mailer } from './mail/mailer.ts';
import { SupplierCallStore } from './observability/supplier-call-store.ts';
import { SupplierMetrics } from './observability/supplier-metrics.ts';
import { registerRuntimeMetrics } from './runtime-metrics.ts';
import { createSearchService, type SearchService } from './search/service.ts';
import type { Database } from './storage/database.ts';
import { loadInstallation } from './storage/installation.ts';
import type { Db } from './storage/schema.ts';
import { createSupplierRegistry, type SupplierRegistry } from './suppliers/registry.ts';
import type { SandboxUrls } from './suppliers/sandbox.ts';

export interface RuntimeOptions {
  config: Config;
  database: Database;
  mailer: Mailer;
  logger: PinoLogger;
  clock?: Clock;
  contract?: OpenApiDoc;
  /**
   * Sandbox mode (required there): the emulators' URLs, started by the caller (`packages/server/sandbox/`,
   * a test) or named by SANDBOX_SUPPLIER_URLS (several processes sharing one set of emulators).
   */
  sandboxUrls?: SandboxUrls;
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
  /** The process's one reader of the events table for every event stream. */
  feed: EventFeed;
  /** What wakes the feed and the webhook deliveries when events commit (events/wake.ts). */
  eventWake: EventWake;
  /** Emulator URLs in sandbox mode. */
  sandboxUrls: SandboxUrls | undefined;
  /** Ends running searches and stops the job runner; the caller closes the db (and its emulators). */
  close(): Promise<void>;
}

/** The booking domains' view of the registry: a flight supplier by name and the payment provider. */
function bookingSuppliers(registry: SupplierRegistry): BookingSuppliers {
  return {
    flight: (name) => registry.flight(name),
    fx: registry.fx,
    payments: () => {
      const provider = registry.payment();
      // A deployment without a payment provider is misconfigured: a 500 (logged), not a code clients branch on.
      if (!provider) throw new Error('No payment provider is configured.');
      return provider;
    },
  };
}

/** The deps of the aggregates, built once and handed to both their routes and their job handlers. */
interface AggregateDeps {
  feed: EventFeed;
  booking: BookingDeps;
  reservations: { db: Db; clock: Clock; suppliers: SupplierRegistry; logger: PinoLogger };
}

function domainRoutes(
  s: SharedServices,
  d: AggregateDeps,
  search: SearchService,
  database: Database,
): Routes {
  const { booking, reservations: services } = d;
  const accounts = {
    ...s,
    storageFull: () => database.storage().full,
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
    ...eventRoutes({ db: database.db, feed: d.feed }),
    ...webhookRoutes({ db: database.db, clock: s.clock, sandbox: s.config.sandbox }),
  };
}

export async function createRuntime(o: RuntimeOptions): Promise<Runtime> {
  const { config, database, logger } = o;
  const clock = o.clock ?? systemClock;
  const sandboxUrls = o.sandboxUrls;
  if (config.sandbox && !sandboxUrls) {
    throw new Error('sandbox mode needs the emulators it calls: pass their URLs (sandboxUrls)');
  }
  const tuning = runtimeTuning();
  const supplierMetrics = new SupplierMetrics();
  const supplierCalls = new SupplierCallStore(database.db, logger);
  const suppliers = await createSupplierRegistry({
    observe: { metrics: supplierMetrics, sink: supplierCalls.sink, log: logger, now: () => clock.now() },
    config: { sandbox: config.sandbox, suppliers: config.suppliers },
    db: database.db,
    ...(sandboxUrls ? { sandboxUrls } : {}),
    now: () => clock.now().getTime(),
    gdsConfigCacheMs: tuning.gdsConfigCacheMs,
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
    heartbeatMs: tuning.searchHeartbeatMs,
    pollMs: tuning.searchPollMs,
    orphanGraceMs: tuning.searchOrphanGraceMs,
    onBreakerChange: (name, from, to) => supplierMetrics.breakerChanged(name, from, to),
  });
  // One reader of the events table per process, for every open event stream (events/feed.ts).
  const feed = new EventFeed(database.db, {
    pollMs: tuning.eventsPollMs,
    heartbeatMs: tuning.eventsHeartbeatMs,
  });
  const deps: AggregateDeps = {
    feed,
    booking: {
      db: database.db,
      clock,
      mailer: o.mailer,
      logger,
      suppliers: bookingSuppliers(suppliers),
      supplierCalls,
      installation: await loadInstallation(database.db),
    },
    reservations: { db: database.db, clock, suppliers, logger },
  };
  const app = createApp({
    config,
    database,
    mailer: o.mailer,
    clock,
    logger,
    ...(o.contract ? { contract: o.contract } : {}),
    routes: (s) => domainRoutes(s, deps, search, database),
    maintenance: async () => {
      const days = tuning.supplierCallRetentionDays;
      await supplierCalls.purgeOlderThan(new Date(clock.now().getTime() - days * 86_400_000));
      await purgeEvents(
        database.db,
        new Date(clock.now().getTime() - tuning.eventsRetentionDays * 86_400_000),
      );
    },
  });
  const s = app.services;
  supplierMetrics.register(s.metrics.registry);
  const { booking, reservations: services } = deps;
  const retention = retentionPolicy();
  const jobs = new JobRunner({
    db: database.db,
    clock,
    log: logger,
    pollMs: tuning.jobsPollMs,
    handlers: {
      ...bookingJobHandlers(booking),
      ...ticketingJobHandlers(booking),
      ...scheduleChangeJobHandlers(booking, tuning.scheduleChangeScanMs),
      ...reservationJobHandlers(services),
      ...search.jobHandlers,
      [WEBHOOK_QUEUE]: deliverHandler({
        db: database.db,
        clock,
        mailer: o.mailer,
        log: logger,
        policy: { sandbox: config.sandbox },
      }),
      ...retentionJobHandlers({ db: database.db, clock, log: logger, policy: retention }),
    },
  });
  // Events committed wake the feed and the webhook deliveries at once (NOTIFY); the polls stay as fallback.
  const wake = await startEventWake({
    databaseUrl: database.kind === 'postgres' ? config.databaseUrl : undefined,
    schema: o.schema,
    log: logger,
    feed,
    jobs,
  });
  if (o.startJobs !== false) {
    jobs.start();
    // One purge job per slot across every process on the database (docs/retention.md).
    await scheduleRetention(database.db, retention, 'now', clock);
    // One order-refresh run per slot across every process (schedule changes, docs/events.md).
    await scheduleScheduleChangeScan(database.db, clock, tuning.scheduleChangeScanMs, 'now');
  }
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
    feed,
    eventWake: wake,
    sandboxUrls,
    async close() {
      feed.close();
      await wake.close();
      await search.close();
      await jobs.stop();
    },
  };
}
