import { bool, errorResponse, jsonResponse, queryParam, str } from '../lib.ts';
import { type OpDef, surface } from '../op.ts';
import { badRequest, ok } from './shared.ts';

const health = (path: string, operationId: string, alias: string): OpDef => ({
  method: 'get',
  path,
  operationId,
  summary: `Health check${alias}`,
  description:
    'Aggregated availability of the cache and the document store (database). Four aliases answer identically (`/health/` and `/api/v1/health/` also without the trailing slash). 200 when ok or degraded, 503 when down.',
  auth: 'none',
  // Its own 503 (the Health body) says the database is down.
  database: false,
  responses: {
    ...ok('Health', 'ok or degraded.'),
    503: jsonResponse('A required component is down.', { $ref: '#/components/schemas/Health' }),
  },
});

/** METRICS_TOKEN: when the operator sets it, the metrics endpoints need it as a Bearer token. */
const metricsGuard = {
  401: errorResponse(401, ['not_authenticated', 'invalid_token'], {
    description:
      'METRICS_TOKEN is set and the request does not send it as `Authorization: Bearer <METRICS_TOKEN>`.',
  }),
};
const metricsNote =
  ' When the server sets METRICS_TOKEN, send it as `Authorization: Bearer <METRICS_TOKEN>` (else 401).';

const devOnly = 'Development use: enabled in sandbox mode only; elsewhere it answers 403 development_only.';

const defs: OpDef[] = [
  health('/health/', 'getHealth', ''),
  health('/health/health', 'getHealthAlias', ' (alias)'),
  health('/api/v1/health/', 'getApiHealth', ' (alias)'),
  health('/api/v1/health/health', 'getApiHealthAlias', ' (alias)'),
  {
    method: 'get',
    path: '/health/live',
    operationId: 'getLiveness',
    summary: 'Liveness probe',
    description:
      'Addition (not in the spec): 200 while the process answers at all, whatever the database does. Wire it as the liveness probe; a database outage must not restart the process.',
    auth: 'none',
    addition: true,
    database: false,
    responses: ok('Liveness', 'The process answers.'),
  },
  {
    method: 'get',
    path: '/health/ready',
    operationId: 'getReadiness',
    summary: 'Readiness probe',
    description:
      'Addition (not in the spec): 200 when the database answers, every migration this build knows is applied and the process is not draining; else 503 with the same body. On SIGTERM it turns 503 at once, READINESS_DRAIN_MS before the listener closes, so a load balancer stops sending traffic first.',
    auth: 'none',
    addition: true,
    database: false,
    responses: {
      ...ok('Readiness', 'Ready to take traffic.'),
      503: jsonResponse('Not ready: database down, migrations pending, or draining.', {
        $ref: '#/components/schemas/Readiness',
      }),
    },
  },
  {
    method: 'get',
    path: '/metrics/cache',
    database: false,
    operationId: 'getCacheMetrics',
    summary: 'Cache metrics',
    description: metricsNote.trim(),
    auth: 'none',
    responses: ok('CacheMetrics', 'Cache metrics.'),
    errors: metricsGuard,
  },
  {
    method: 'get',
    path: '/metrics/combined',
    database: false,
    operationId: 'getCombinedMetrics',
    summary: 'Combined metrics',
    description: metricsNote.trim(),
    auth: 'none',
    responses: ok('CombinedMetrics', 'Cache, store, request and search metrics.'),
    errors: metricsGuard,
  },
  {
    method: 'get',
    path: '/metrics/redis',
    database: false,
    operationId: 'getCacheStoreMetrics',
    summary: 'Cache-store metrics',
    description: `Metrics of the cache store (the spec’s “redis”; the store behind the cache).${metricsNote}`,
    auth: 'none',
    responses: ok('CacheStoreMetrics', 'Cache-store metrics.'),
    errors: metricsGuard,
  },
  {
    method: 'get',
    path: '/config',
    database: false,
    operationId: 'getPublicConfig',
    summary: 'Public application configuration',
    description: 'Never contains a secret.',
    auth: 'none',
    responses: ok('PublicConfig', 'The public configuration.'),
  },
  {
    method: 'get',
    path: '/',
    database: false,
    operationId: 'getApiInfo',
    summary: 'API information',
    auth: 'none',
    responses: ok('ApiInfo', 'Name, version and links.'),
  },
  {
    method: 'post',
    path: '/admin/cache/clear',
    operationId: 'clearAllCache',
    summary: 'Clear all cache data',
    description: `confirm=true is required (else 400 confirmation_required). ${devOnly}`,
    auth: 'none',
    parameters: [queryParam('confirm', bool({ default: false }))],
    responses: ok('ClearCacheResult', 'Cache cleared.'),
    errors: {
      ...badRequest('confirmation_required'),
      403: {
        ...jsonResponse('Not in sandbox mode.', { $ref: '#/components/schemas/ErrorResponse' }),
        'x-error-codes': ['development_only'],
      },
    },
  },
  {
    method: 'post',
    path: '/admin/maintenance/run',
    operationId: 'runMaintenance',
    summary: 'Run cache maintenance',
    description: `Purges expired searches, cache entries and idempotency keys. ${devOnly}`,
    auth: 'none',
    responses: ok('MaintenanceResult', 'Maintenance done.'),
    errors: {
      403: {
        ...jsonResponse('Not in sandbox mode.', { $ref: '#/components/schemas/ErrorResponse' }),
        'x-error-codes': ['development_only'],
      },
    },
  },
  {
    method: 'get',
    path: '/openapi.json',
    database: false,
    operationId: 'getOpenApiDocument',
    summary: 'This contract',
    description:
      'Addition (not in the spec): the OpenAPI 3.1 document. Compressed (br or gzip) when `Accept-Encoding` asks for it; `ETag` per representation, 304 on a matching `If-None-Match`.',
    auth: 'none',
    addition: true,
    responses: {
      200: jsonResponse('The OpenAPI document.', { type: 'object', additionalProperties: true }),
      304: { description: 'Not modified: the `If-None-Match` ETag is current.' },
    },
  },
  {
    method: 'get',
    path: '/docs',
    database: false,
    operationId: 'getApiDocs',
    summary: 'API reference (HTML)',
    description:
      'Addition (not in the spec): a human-readable reference rendered from /openapi.json, its requests sent to the server the page came from. Compressed (br or gzip) when `Accept-Encoding` asks for it, cacheable for 5 minutes, `ETag` per representation.',
    auth: 'none',
    addition: true,
    responses: {
      200: { description: 'HTML page.', content: { 'text/html': { schema: str() } } },
      304: { description: 'Not modified: the `If-None-Match` ETag is current.' },
    },
  },
  {
    method: 'get',
    path: '/metrics',
    database: false,
    operationId: 'getPrometheusMetrics',
    summary: 'Prometheus metrics',
    description: `Addition (not in the spec): Prometheus text exposition format (requests by operation and status, latencies, supplier calls, circuit states, active streams; computed at each scrape: \`travel_database_up\`, \`travel_circuit_breaker_state{supplier,state}\`, \`travel_jobs_queued{queue}\`, \`travel_jobs_running{queue}\`, \`travel_jobs_oldest_ready_age_seconds{queue}\`, \`travel_reconciliation_backlog\`, \`travel_bookings_pending{vertical}\`).${metricsNote}`,
    auth: 'none',
    addition: true,
    responses: {
      200: {
        description: 'Prometheus text format 0.0.4.',
        content: { 'text/plain; version=0.0.4': { schema: str() } },
      },
    },
    errors: metricsGuard,
  },
];

export const platformOps = surface('platform', defs);
