/**
 * Platform operations outside the `/api/v1` surfaces: API info, health, metrics, public config, cache and
 * maintenance, the OpenAPI document and its docs page.
 *
 * METHOD /path → operationId:
 *   GET  / → getApiInfo
 *   POST /admin/cache/clear → clearAllCache
 *   POST /admin/maintenance/run → runMaintenance
 *   GET  /api/v1/health/ → getApiHealth
 *   GET  /api/v1/health/health → getApiHealthAlias
 *   GET  /config → getPublicConfig
 *   GET  /docs → getApiDocs
 *   GET  /health/ → getHealth
 *   GET  /health/health → getHealthAlias
 *   GET  /health/live → getLiveness
 *   GET  /health/ready → getReadiness
 *   GET  /metrics → getPrometheusMetrics
 *   GET  /metrics/cache → getCacheMetrics
 *   GET  /metrics/combined → getCombinedMetrics
 *   GET  /metrics/redis → getCacheStoreMetrics
 *   GET  /openapi.json → getOpenApiDocument
 */

import type { TtlCache } from '../../cache/ttl-cache.ts';
import type { Config } from '../../internal/config.ts';
import { notModified, type StaticDocument } from '../../kernel/compression.ts';
import { forbidden, HttpError } from '../../kernel/errors.ts';
import type { HttpMetrics } from '../../kernel/metrics.ts';
import { constantResult } from '../../kernel/reply.ts';
import type { RawResult, RequestContext, Routes } from '../../kernel/types.ts';
import { CURRENCIES } from '../../suppliers/ports/errors.ts';
import type { PlatformDocuments } from './documents.ts';
import { type HealthDeps, healthHandlers } from './health.ts';

/** A static document's answer: 304 when the client holds this representation, else its bytes. */
function staticResult(ctx: RequestContext, doc: StaticDocument, headers: Record<string, string>): RawResult {
  const rep = doc.for(ctx.headers['accept-encoding']);
  const all = { ...headers, ...rep.headers };
  if (notModified(ctx.headers['if-none-match'], rep.headers.etag as string))
    return { status: 304, headers: all, raw: '' };
  return { status: 200, headers: all, raw: rep.body };
}

export interface PlatformDeps extends HealthDeps {
  config: Pick<Config, 'sandbox' | 'searchTtlSeconds'>;
  cache: TtlCache;
  metrics: HttpMetrics;
  databaseKind: 'pglite' | 'postgres';
  /** The contract (served verbatim) and the docs page, compressed when the server starts. */
  documents: PlatformDocuments;
  /** The API version (the contract's info.version); the build's own is `build`. */
  apiVersion: string;
  inFlight(): number;
  /** Purges expired keys, counters and cache entries. */
  runMaintenance(): Promise<{ cacheKeys: number; idempotencyKeys: number; searches: number }>;
}

const round = (ms: number) => Math.round(ms * 100) / 100;

/**
 * Platform endpoints. Registered by `METHOD path` (the kernel also accepts that form), since these are
 * fixed by the spec's paths; the four health aliases share one handler.
 */
export function platformRoutes(d: PlatformDeps): Routes {
  const cacheMetrics = () => {
    const s = d.cache.stats();
    return {
      hits: s.hits,
      misses: s.misses,
      hit_ratio: s.hit_ratio,
      keys: s.entries,
      evictions: s.evictions,
    };
  };
  // There is no Redis: the cache is in-process. This endpoint keeps its spec name and says so.
  const storeMetrics = () => {
    const s = d.cache.stats();
    return {
      connected: true,
      backend: 'memory',
      description: 'In-process TTL cache (no Redis). Shared state lives in the database.',
      keys: s.entries,
      used_memory_bytes: null,
      hits: s.hits,
      misses: s.misses,
      expired_keys: 0,
    };
  };
  // The contract's code for these (paths/platform.ts): `development_only`.
  const sandboxOnly = () => {
    if (!d.config.sandbox)
      throw forbidden('development_only', 'This development convenience answers only in sandbox mode.');
  };

  const apiInfo = constantResult({
    status: 200,
    body: {
      name: 'Travel Service API',
      version: d.apiVersion,
      build: d.build,
      environment: d.config.sandbox ? 'sandbox' : 'live',
      docs_url: '/docs',
      openapi_url: '/openapi.json',
      health_url: '/health/',
    },
  });

  return {
    // The same answer for the life of the process: returned as it is (no promise), serialized once.
    getApiInfo: () => apiInfo,
    ...healthHandlers(d),
    getCacheMetrics: async () => ({ status: 200, body: cacheMetrics() }),
    getCacheStoreMetrics: async () => ({ status: 200, body: storeMetrics() }),
    getCombinedMetrics: async () => {
      const counts = await d.metrics.requests.get();
      let total = 0;
      let errors = 0;
      for (const v of counts.values) {
        total += v.value;
        if (String(v.labels.status).startsWith('5')) errors += v.value;
      }
      return {
        status: 200,
        body: {
          cache: cacheMetrics(),
          store: storeMetrics(),
          requests: { total, errors_5xx: errors, in_flight: d.inFlight() },
          searches: { active: 0, total: 0 },
          uptime_seconds: (Date.now() - d.startedAt) / 1000,
        },
      };
    },
    getPublicConfig: async () => ({
      status: 200,
      body: {
        app_name: 'Travel Service',
        version: d.apiVersion,
        environment: d.config.sandbox ? 'sandbox' : 'live',
        api_prefix: '/api/v1',
        currencies: [...CURRENCIES],
        suppliers: {
          flight: ['amadeus', 'duffel', 'mystifly'],
          hotel: ['hotelbeds', 'duffel_stays'],
          transfer: ['hotelbeds_transfers', 'amadeus_transfers'],
        },
        search_ttl_seconds: d.config.searchTtlSeconds,
        sandbox: d.config.sandbox,
      },
    }),
    clearAllCache: async (ctx) => {
      sandboxOnly();
      if (ctx.query.confirm !== true) {
        throw new HttpError(400, 'confirmation_required', 'Pass confirm=true to clear the cache.');
      }
      // ClearCacheResult, as adminClearCache answers: everything matches the pattern `*`.
      const cleared = d.cache.clear();
      return { status: 200, body: { pattern: '*', cleared } };
    },
    runMaintenance: async () => {
      sandboxOnly();
      const t0 = performance.now();
      const r = await d.runMaintenance();
      return {
        status: 200,
        body: {
          expired_searches_purged: r.searches,
          expired_cache_keys_removed: r.cacheKeys,
          expired_idempotency_keys_removed: r.idempotencyKeys,
          duration_ms: round(performance.now() - t0),
        },
      };
    },
    getPrometheusMetrics: async () => ({
      status: 200,
      headers: { 'content-type': d.metrics.registry.contentType },
      raw: await d.metrics.registry.metrics(),
    }),
    // The contract and its page are public and the same for everyone: compressed once per coding when the
    // server starts (documents.ts), revalidated by ETag (a 304 when unchanged).
    getOpenApiDocument: async (ctx) =>
      staticResult(ctx, d.documents.contract, {
        'content-type': 'application/json',
        'cache-control': 'no-cache',
      }),
    getApiDocs: async (ctx) => {
      const { page, doc } = await d.documents.docs();
      return staticResult(ctx, doc, {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'public, max-age=300, must-revalidate',
        'content-security-policy': page.csp,
        'x-frame-options': 'DENY',
        'referrer-policy': 'no-referrer',
      });
    },
  };
}
