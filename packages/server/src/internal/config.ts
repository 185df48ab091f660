import { randomBytes } from 'node:crypto';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseTrustProxy, type TrustProxy } from './trust-proxy.ts';

/** A fixed window: at most `limit` hits per `windowSeconds`. Env syntax `limit/windowSeconds`, e.g. `5/300`. */
export interface RateRule {
  limit: number;
  windowSeconds: number;
}

export interface JwtKey {
  kid: string;
  secret: string;
}

export interface Config {
  port: number;
  host: string;
  /** Sandbox mode (SUPPLIERS=sandbox): emulated suppliers, dev conveniences, default admin login. */
  sandbox: boolean;
  suppliers: string;
  dataDir: string;
  databaseUrl: string | undefined;
  openapiPath: string;
  publicBaseUrl: string;
  logLevel: string;
  bodyLimitBytes: number;
  /** CORS_ORIGINS: browser origins allowed to call the API (`*:port` wildcards allowed). */
  corsOrigins: string[];
  /** RESPONSE_VALIDATION: check every response against the contract (`log`, `strict`; tests) or not (`off`). */
  responseValidation: 'off' | 'log' | 'strict';
  /** The first key signs; every key verifies (rotation: prepend the new key, drop the old one later). */
  jwtKeys: JwtKey[];
  /** Sandbox without JWT_SECRET(S): `jwtKeys` is a random per-process key; `main.ts` replaces it with the
   * data directory's key (`sandboxJwtKey`), so tokens survive a restart. */
  jwtKeysGenerated: boolean;
  /** METRICS_TOKEN: when set, `/metrics` and `/metrics/*` need `Authorization: Bearer <it>`. */
  metricsToken: string | undefined;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  verifyTokenTtlSeconds: number;
  admin: { email: string; password: string; fromDefaults: boolean };
  mailUrl: string | undefined;
  mailFrom: string;
  searchTtlSeconds: number;
  /** How long a caller's current status (suspension, role) is cached before re-reading the database. */
  authStatusCacheMs: number;
  /** Login and refresh count failures only (per account+address, per address); registration counts
   * every attempt per address. */
  rateLimits: {
    loginAccount: RateRule;
    loginIp: RateRule;
    registerIp: RateRule;
    search: RateRule;
    stream: RateRule;
    /** RATE_LIMIT_API_KEY: every request made with one API key, across processes. */
    apiKey: RateRule;
  };
  /** TRUST_PROXY / TRUST_PROXY_HEADER: which forwarded client addresses to believe (`client-address.ts`). */
  trustProxy: TrustProxy;
  http: {
    keepAliveTimeoutMs: number;
    headersTimeoutMs: number;
    requestTimeoutMs: number;
    shutdownGraceMs: number;
    /** On SIGTERM, how long /health/ready answers 503 before the listener closes (within the grace). */
    readinessDrainMs: number;
  };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const SANDBOX_ADMIN = { email: 'admin@sandbox.travel', password: 'sandbox-admin-pass' };
const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

const int = (env: NodeJS.ProcessEnv, name: string, fallback: number): number => {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0)
    throw new ConfigError(`${name} must be a non-negative number, got "${raw}"`);
  return n;
};

const rule = (env: NodeJS.ProcessEnv, name: string, fallback: RateRule): RateRule => {
  const raw = env[name];
  if (!raw) return fallback;
  const m = /^(\d+)\/(\d+)$/.exec(raw.trim());
  if (!m) throw new ConfigError(`${name} must look like "limit/windowSeconds", got "${raw}"`);
  return { limit: Number(m[1]), windowSeconds: Math.max(1, Number(m[2])) };
};

function trustProxy(env: NodeJS.ProcessEnv): TrustProxy {
  try {
    return parseTrustProxy(env.TRUST_PROXY, env.TRUST_PROXY_HEADER);
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
}

const generatedKeys = new WeakSet<JwtKey>();

/** `kid1:secret1,kid2:secret2` (JWT_SECRETS) or a single JWT_SECRET (kid `default`). */
function jwtKeys(env: NodeJS.ProcessEnv, sandbox: boolean): JwtKey[] {
  if (env.JWT_SECRETS) {
    const keys = env.JWT_SECRETS.split(',')
      .map((s) => s.trim())
      .filter(Boolean)
      .map((entry) => {
        const i = entry.indexOf(':');
        if (i <= 0) throw new ConfigError('JWT_SECRETS entries must look like "kid:secret"');
        return { kid: entry.slice(0, i), secret: entry.slice(i + 1) };
      });
    if (keys.length > 0) return checkKeys(keys);
  }
  if (env.JWT_SECRET) return checkKeys([{ kid: 'default', secret: env.JWT_SECRET }]);
  // Sandbox: a random key (per process here; per data directory once main.ts has read it), never one
  // written in the source.
  if (sandbox) {
    const key = { kid: 'sandbox', secret: randomBytes(48).toString('base64url') };
    generatedKeys.add(key);
    return [key];
  }
  throw new ConfigError('JWT_SECRET or JWT_SECRETS is required outside sandbox mode');
}

function checkKeys(keys: JwtKey[]): JwtKey[] {
  for (const k of keys) {
    if (k.secret.length < 32) throw new ConfigError(`JWT secret "${k.kid}" must be at least 32 characters`);
  }
  return keys;
}

/** CORS_ORIGINS, comma-separated; unset: none in live mode, any localhost port in sandbox. */
function corsOrigins(env: NodeJS.ProcessEnv, sandbox: boolean): string[] {
  if (env.CORS_ORIGINS === undefined)
    return sandbox ? ['http://localhost:*', 'http://127.0.0.1:*', 'http://[::1]:*'] : [];
  const list = env.CORS_ORIGINS.split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  for (const o of list) {
    if (o !== '*' && !/^https?:\/\/[^/\s]+$/.test(o))
      throw new ConfigError(`CORS_ORIGINS entries must look like "https://app.example.com", got "${o}"`);
  }
  return list;
}

function responseValidation(env: NodeJS.ProcessEnv): Config['responseValidation'] {
  const v = env.RESPONSE_VALIDATION || 'off';
  if (v !== 'off' && v !== 'log' && v !== 'strict')
    throw new ConfigError(`RESPONSE_VALIDATION must be off, log or strict, got "${v}"`);
  return v;
}

/**
 * How long after createPnr writes a booking ahead its supplier call may still create the order: longer
 * than any adapter's timeout (Duffel 30 s), with room for a supplier that finishes a request whose caller
 * is gone. `BOOKING_CALL_WINDOW_SECONDS`, default 120. Not found after it, there is no order.
 */
export function callWindowMs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.BOOKING_CALL_WINDOW_SECONDS;
  if (raw === undefined || raw.trim() === '') return 120_000;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0)
    throw new Error(`BOOKING_CALL_WINDOW_SECONDS must be a non-negative number, got "${raw}"`);
  return n * 1000;
}

/**
 * The process environment. This module is the only one that reads it (architecture.test.ts checks):
 * `loadConfig` for what is fixed at start, the named readers below for knobs read at call time (tests
 * change them between requests), and `environment()` for the callers that take a whole env map by
 * variable name (supplier credentials, fault hooks, password parameters), which pass it on as a value.
 */
export const environment = (): NodeJS.ProcessEnv => process.env;

/** A non-negative number from the environment, or the fallback when unset. */
export function envNumber(name: string, fallback: number, env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0)
    throw new ConfigError(`${name} must be a non-negative number, got "${raw}"`);
  return n;
}

/** Search and job-runner tuning knobs (operators rarely touch them; not part of `Config`). */
export function runtimeTuning(env: NodeJS.ProcessEnv = process.env) {
  return {
    searchHeartbeatMs: envNumber('SEARCH_HEARTBEAT_SECONDS', 15, env) * 1000,
    searchPollMs: envNumber('SEARCH_POLL_MS', 1000, env),
    searchOrphanGraceMs: envNumber('SEARCH_ORPHAN_GRACE_SECONDS', 10, env) * 1000,
    jobsPollMs: envNumber('JOBS_POLL_MS', 1000, env),
    /** How long a process holds the `gds_config` table in memory (a PATCH elsewhere shows within it). */
    gdsConfigCacheMs: envNumber('GDS_CONFIG_CACHE_MS', 5000, env),
    /** How long a booking's supplier calls are kept for its timeline (the maintenance pass purges). */
    supplierCallRetentionDays: envNumber('SUPPLIER_CALL_RETENTION_DAYS', 400, env),
    /** How often a process's one event-feed reader looks for new events while streams are open. */
    eventsPollMs: envNumber('EVENTS_POLL_MS', 250, env),
    /** How long events and finished webhook deliveries are kept (the maintenance pass purges). */
    eventsRetentionDays: envNumber('EVENTS_RETENTION_DAYS', 30, env),
    eventsHeartbeatMs: envNumber('EVENTS_HEARTBEAT_SECONDS', 15, env) * 1000,
    /** How often the order-refresh job re-reads live bookings' supplier orders (schedule changes). */
    scheduleChangeScanMs: envNumber('SCHEDULE_CHANGE_SCAN_MINUTES', 30, env) * 60_000,
  };
}

/** `JOBS_LEASE_MS`: how long a claimed job stays locked to its worker (default 30 s). */
export function jobsLeaseMs(env: NodeJS.ProcessEnv = process.env): number {
  return Number(env.JOBS_LEASE_MS) > 0 ? Number(env.JOBS_LEASE_MS) : 30_000;
}

/** `PASSWORD_HASH_CONCURRENCY`: password hashes run at once (default 2). */
export function passwordHashConcurrency(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.PASSWORD_HASH_CONCURRENCY);
  return Number.isInteger(n) && n >= 1 ? n : 2;
}

/**
 * `PASSWORD_HASH_QUEUE_PER_CLIENT`: password checks one client address may have waiting for a hash slot
 * (default 32); more are refused at once with 429 (the queue is bounded and fair per address).
 */
export function passwordHashQueuePerClient(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.PASSWORD_HASH_QUEUE_PER_CLIENT);
  return Number.isInteger(n) && n >= 1 ? n : 32;
}

/**
 * The job's first look after the intent (`MONEY_RECONCILE_DELAY_MS`, default 5000). While the owning request
 * is alive the job only waits (runner backoff); it settles at once when the owner is gone.
 */
export function moneyReconcileDelayMs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.MONEY_RECONCILE_DELAY_MS;
  if (raw === undefined || raw.trim() === '') return 5_000;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`MONEY_RECONCILE_DELAY_MS must be >= 0, got "${raw}"`);
  return n;
}

/** `IDEMPOTENCY_LEASE_SECONDS` (default 15); at least 1 s, so a heartbeat can keep up with it. */
export function leaseSecondsFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.IDEMPOTENCY_LEASE_SECONDS;
  if (raw === undefined || raw.trim() === '') return 15;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 1) throw new Error(`IDEMPOTENCY_LEASE_SECONDS must be >= 1, got "${raw}"`);
  return n;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const suppliers = env.SUPPLIERS || 'sandbox';
  const sandbox = suppliers === 'sandbox';
  const port = int(env, 'PORT', 8080);
  // pnpm runs the package script inside packages/server; relative paths mean the caller's directory.
  const base = env.INIT_CWD || process.cwd();
  const dataDir = env.DATA_DIR || '.data';
  let admin: Config['admin'];
  if (env.TRAVEL_ADMIN_EMAIL && env.TRAVEL_ADMIN_PASSWORD) {
    admin = { email: env.TRAVEL_ADMIN_EMAIL, password: env.TRAVEL_ADMIN_PASSWORD, fromDefaults: false };
  } else if (sandbox) {
    admin = { ...SANDBOX_ADMIN, fromDefaults: true };
  } else {
    throw new ConfigError('TRAVEL_ADMIN_EMAIL and TRAVEL_ADMIN_PASSWORD are required outside sandbox mode');
  }
  const keys = jwtKeys(env, sandbox);
  return {
    port,
    // Sandbox has published logins and development endpoints: loopback only unless HOST says otherwise.
    host: env.HOST || (sandbox ? '127.0.0.1' : '0.0.0.0'),
    sandbox,
    suppliers,
    dataDir: isAbsolute(dataDir) ? dataDir : resolve(base, dataDir),
    databaseUrl: env.DATABASE_URL || undefined,
    openapiPath: env.OPENAPI_PATH ? resolve(base, env.OPENAPI_PATH) : resolve(repoRoot, 'openapi.json'),
    publicBaseUrl: (env.PUBLIC_BASE_URL || `http://localhost:${port}`).replace(/\/$/, ''),
    logLevel: env.LOG_LEVEL || 'info',
    bodyLimitBytes: int(env, 'BODY_LIMIT_BYTES', 1024 * 1024),
    corsOrigins: corsOrigins(env, sandbox),
    responseValidation: responseValidation(env),
    jwtKeys: keys,
    jwtKeysGenerated: keys.length === 1 && keys[0] !== undefined && generatedKeys.has(keys[0]),
    metricsToken: env.METRICS_TOKEN || undefined,
    accessTokenTtlSeconds: int(env, 'ACCESS_TOKEN_TTL_SECONDS', 900),
    refreshTokenTtlSeconds: int(env, 'REFRESH_TOKEN_TTL_SECONDS', 30 * 24 * 3600),
    verifyTokenTtlSeconds: int(env, 'VERIFY_TOKEN_TTL_SECONDS', 24 * 3600),
    admin,
    mailUrl: env.MAIL_URL || undefined,
    mailFrom: env.MAIL_FROM || 'Travel Service <no-reply@travel.local>',
    searchTtlSeconds: int(env, 'SEARCH_TTL_SECONDS', 900),
    authStatusCacheMs: int(env, 'AUTH_STATUS_CACHE_MS', 5000),
    rateLimits: {
      loginAccount: rule(env, 'RATE_LIMIT_LOGIN_ACCOUNT', { limit: 5, windowSeconds: 300 }),
      loginIp: rule(env, 'RATE_LIMIT_LOGIN_IP', { limit: 30, windowSeconds: 300 }),
      registerIp: rule(env, 'RATE_LIMIT_REGISTER_IP', { limit: 30, windowSeconds: 300 }),
      search: rule(env, 'RATE_LIMIT_SEARCH', { limit: 60, windowSeconds: 60 }),
      stream: rule(env, 'RATE_LIMIT_STREAM', { limit: 120, windowSeconds: 60 }),
      apiKey: rule(env, 'RATE_LIMIT_API_KEY', { limit: 600, windowSeconds: 60 }),
    },
    trustProxy: trustProxy(env),
    http: {
      keepAliveTimeoutMs: int(env, 'HTTP_KEEP_ALIVE_TIMEOUT_MS', 65_000),
      headersTimeoutMs: int(env, 'HTTP_HEADERS_TIMEOUT_MS', 66_000),
      requestTimeoutMs: int(env, 'HTTP_REQUEST_TIMEOUT_MS', 0),
      shutdownGraceMs: int(env, 'SHUTDOWN_GRACE_MS', 10_000),
      readinessDrainMs: int(env, 'READINESS_DRAIN_MS', 0),
    },
  };
}

// --- retention (jobs/retention.ts, docs/retention.md) ---

const RETENTION_HOUR = 3_600_000;
const RETENTION_DAY = 24 * RETENTION_HOUR;
/** The idempotency store's own retention (`IdempotencyStore`, default 24 h): keys older are expired there. */
const IDEMPOTENCY_RETENTION_MS = RETENTION_DAY;

export interface RetentionPolicy {
  /** Finished (`done`) jobs, after they finished. */
  jobsDoneMs: number;
  /** `failed` jobs (the dead letters an operator may still look at), after they failed. */
  jobsFailedMs: number;
  /** Search sessions with their events and offers, after the search expired (until then: 410, after: 404). */
  searchMs: number;
  /** Idempotency keys, after they were made: the contract's 24 hours (the store forgets them then too). */
  idempotencyMs: number;
  /** Expired refresh tokens and access-token revocations, after they expired. */
  expiredCredentialsMs: number;
  /** Supplier and booking error logs, after they were written. */
  errorLogsMs: number;
  /** `.eml` files in the mail outbox (DATA_DIR/outbox), after they were written. */
  outboxMs: number;
  batchSize: number;
  maxBatches: number;
  intervalMs: number;
}

function positive(raw: string | undefined, fallback: number): number {
  const n = Number(raw);
  return raw !== undefined && raw.trim() !== '' && Number.isFinite(n) && n > 0 ? n : fallback;
}

/** The periods from the environment (README, configuration; docs/retention.md), with their defaults. */
export function retentionPolicy(env: NodeJS.ProcessEnv = process.env): RetentionPolicy {
  return {
    jobsDoneMs: positive(env.RETENTION_JOBS_DONE_DAYS, 7) * RETENTION_DAY,
    jobsFailedMs: positive(env.RETENTION_JOBS_FAILED_DAYS, 30) * RETENTION_DAY,
    searchMs: positive(env.RETENTION_SEARCH_HOURS, 24) * RETENTION_HOUR,
    idempotencyMs: IDEMPOTENCY_RETENTION_MS,
    expiredCredentialsMs: positive(env.RETENTION_EXPIRED_CREDENTIALS_DAYS, 7) * RETENTION_DAY,
    errorLogsMs: positive(env.RETENTION_ERROR_LOGS_DAYS, 30) * RETENTION_DAY,
    outboxMs: positive(env.RETENTION_MAIL_OUTBOX_DAYS, 30) * RETENTION_DAY,
    batchSize: Math.floor(positive(env.RETENTION_BATCH_SIZE, 1000)),
    maxBatches: Math.floor(positive(env.RETENTION_MAX_BATCHES, 20)),
    intervalMs: positive(env.RETENTION_INTERVAL_MINUTES, 60) * 60_000,
  };
}
