import { readFileSync } from 'node:fs';
import type { Logger as PinoLogger } from 'pino';
import { Gauge } from 'prom-client';
import { ApiKeyStore } from './api-keys/api-keys.ts';
import { TtlCache } from './cache/ttl-cache.ts';
import { AuthService, authRoutes } from './domains/auth/index.ts';
import { auditApiKeyMoneyUse } from './domains/company/api-keys-audit.ts';
import { PlatformDocuments, platformRoutes } from './domains/platform/index.ts';
import { IdempotencyStore } from './idempotency/idempotency-store.ts';
import { type BuildInfo, buildInfo } from './internal/build-info.ts';
import type { Clock } from './internal/clock.ts';
import { systemClock } from './internal/clock.ts';
import { type Config, leaseSecondsFromEnv } from './internal/config.ts';
import { createLogger } from './internal/logger.ts';
import { TokenService } from './internal/tokens.ts';
import type { OpenApiDoc } from './kernel/contract.ts';
import { createKernel, type Kernel } from './kernel/kernel.ts';
import { HttpMetrics } from './kernel/metrics.ts';
import { protectMetrics } from './kernel/middleware/auth.ts';
import { corsPolicy } from './kernel/middleware/cors.ts';
import { PrincipalStore } from './kernel/principal.ts';
import type { ResponseViolation } from './kernel/response-validator.ts';
import { type HandlerTable, handlerTable, type Routes } from './kernel/types.ts';
import type { Mailer } from './mail/mailer.ts';
import { RateLimitStore } from './rate-limit/rate-limit-store.ts';
import type { Database } from './storage/database.ts';
import { pendingMigrations } from './storage/migrate.ts';
import type { Db } from './storage/schema.ts';

export interface AppDeps {
  config: Config;
  database: Database;
  mailer: Mailer;
  /** The contract; read from `config.openapiPath` when omitted. */
  contract?: OpenApiDoc;
  clock?: Clock;
  logger?: PinoLogger;
  /** Told of every response that breaks the contract (with RESPONSE_VALIDATION log or strict). */
  onResponseViolation?: (v: ResponseViolation) => void;
  /** More domains' routes (operationId -> handler), merged over the kernel's own: the checked `Routes`, or
   * an unchecked table for a fixture contract (tests, benches). */
  routes?: (shared: SharedServices) => Routes | HandlerTable;
  /** More purging for the maintenance pass (the runtime's supplier call retention). */
  maintenance?: () => Promise<void>;
}

/** What the composition root hands to every domain's `xxxRoutes(deps)`. */
export interface SharedServices {
  config: Config;
  db: Db;
  clock: Clock;
  cache: TtlCache;
  mailer: Mailer;
  logger: PinoLogger;
  tokens: TokenService;
  principals: PrincipalStore;
  rateLimits: RateLimitStore;
  idempotency: IdempotencyStore;
}

export interface App {
  /** Dispatch without a socket. */
  handle: Kernel['handle'];
  kernel: Kernel;
  services: SharedServices & { auth: AuthService; metrics: HttpMetrics };
  /** Purges expired idempotency keys, rate counters and cache entries. */
  runMaintenance(): Promise<{ cacheKeys: number; idempotencyKeys: number; searches: number }>;
  /** SIGTERM's first step: /health/ready answers 503 from now on (main.ts, before the listener closes). */
  startDraining(): void;
  /** Compresses /docs and /openapi.json in every coding (once; served as they are until then). */
  precompressDocuments(): Promise<void>;
}

/** The composition root: builds the shared services once and mounts every domain's routes. */
export function createApp(deps: AppDeps): App {
  const { config, database } = deps;
  const clock = deps.clock ?? systemClock;
  const logger = deps.logger ?? createLogger(config.logLevel);
  const contractJson = deps.contract
    ? JSON.stringify(deps.contract)
    : readFileSync(config.openapiPath, 'utf8');
  const doc = deps.contract ?? (JSON.parse(contractJson) as OpenApiDoc);
  const db = database.db;
  const cache = new TtlCache({ clock });
  const metrics = new HttpMetrics();
  const tokens = new TokenService({
    keys: config.jwtKeys,
    clock,
    accessTtlSeconds: config.accessTokenTtlSeconds,
    verifyTtlSeconds: config.verifyTokenTtlSeconds,
  });
  const rateLimits = new RateLimitStore({ db, clock });
  const apiKeys = new ApiKeyStore({
    db,
    clock,
    rateLimits,
    rule: config.rateLimits.apiKey,
    sandbox: config.sandbox,
  });
  const principals = new PrincipalStore({ db, cache, ttlMs: config.authStatusCacheMs, clock, apiKeys });
  const idempotency = new IdempotencyStore({ db, clock, leaseSeconds: leaseSecondsFromEnv() });
  const shared: SharedServices = {
    config,
    db,
    clock,
    cache,
    mailer: deps.mailer,
    logger,
    tokens,
    principals,
    rateLimits,
    idempotency,
  };
  const auth = new AuthService({ db, clock, config, tokens, mailer: deps.mailer, rateLimits, principals });

  const runMaintenance = async () => {
    const cacheKeys = cache.prune();
    const idempotencyKeys = await idempotency.purgeExpired();
    await rateLimits.purgeExpired();
    await deps.maintenance?.();
    return { cacheKeys, idempotencyKeys, searches: 0 };
  };

  const build = buildInfo();
  const apiVersion = String(doc.info?.version ?? 'unknown');
  registerBuildInfo(metrics, build, apiVersion);
  let draining = false;
  const documents = new PlatformDocuments(contractJson);
  let kernel: Kernel | undefined;
  const routes: HandlerTable = {
    // METRICS_TOKEN, when set, guards /metrics and /metrics/* (kernel/middleware/auth.ts).
    ...protectMetrics(
      handlerTable(
        platformRoutes({
          config,
          cache,
          metrics,
          pingDatabase: () => database.ping(),
          storageFull: () => database.storage().full,
          pendingMigrations: () => pendingMigrations(db as never),
          draining: () => draining,
          build,
          databaseKind: database.kind,
          documents,
          apiVersion,
          startedAt: Date.now(),
          inFlight: () => kernel?.inFlight() ?? 0,
          runMaintenance,
        }),
      ),
      config.metricsToken,
      doc,
    ),
    ...handlerTable(authRoutes({ auth })),
    // Key-authenticated money operations are audited with the key id before they run (issue 16).
    ...auditApiKeyMoneyUse(handlerTable(deps.routes?.(shared) ?? {}), db),
  };
  kernel = createKernel({
    doc,
    routes,
    db,
    logger,
    tokens,
    principals,
    idempotencyStore: idempotency,
    rateLimitStore: rateLimits,
    rateRules: { search: config.rateLimits.search, stream: config.rateLimits.stream },
    bodyLimitBytes: config.bodyLimitBytes,
    metrics,
    cors: corsPolicy(config.corsOrigins),
    responseValidation: config.responseValidation,
    trustProxy: config.trustProxy,
    ...(deps.onResponseViolation ? { onResponseViolation: deps.onResponseViolation } : {}),
  });
  return {
    handle: kernel.handle,
    kernel,
    services: { ...shared, auth, metrics },
    runMaintenance,
    startDraining: () => {
      draining = true;
    },
    // Called once the server listens: /docs and /openapi.json compressed in the background.
    precompressDocuments: () => documents.precompute(),
  };
}

/** `travel_build_info{version,commit,api_version,node} 1`: which build answers, for dashboards and alerts. */
function registerBuildInfo(metrics: HttpMetrics, build: BuildInfo, apiVersion: string): void {
  new Gauge({
    name: 'travel_build_info',
    help: 'Always 1; the labels say which build of the server this is (build version, commit, API version, Node)',
    labelNames: ['version', 'commit', 'api_version', 'node'],
    registers: [metrics.registry],
  }).set({ version: build.version, commit: build.commit, api_version: apiVersion, node: process.version }, 1);
}
