/**
 * The service itself, outside `/api/v1`'s business resources: health checks, metrics, public
 * configuration, the contract and its docs page, and the operator's cache maintenance.
 */
import { unwrap } from '../core/result.ts';
import type { ClientContext, RequestOptions } from './context.ts';
import type { QueryOf } from './types.ts';

/**
 * The `service` namespace.
 *
 * @example
 * const { status } = await travel.service.health();
 * const contract = await travel.service.openapi(); // the OpenAPI document the server runs
 */
export function serviceResource(ctx: ClientContext) {
  const { raw } = ctx;
  return {
    /** API name, version and links. */
    info: (options?: RequestOptions) => unwrap(raw.GET('/', { ...ctx.init(options) })),
    /** The aggregated check: database and cache, and which build answers (no token needed). */
    health: (options?: RequestOptions) => unwrap(raw.GET('/health/', { ...ctx.init(options) })),
    /** Liveness: the process answers, whatever the database does. */
    live: (options?: RequestOptions) => unwrap(raw.GET('/health/live', { ...ctx.init(options) })),
    /** Readiness: database reachable, migrations current, not draining (503 otherwise). */
    ready: (options?: RequestOptions) => unwrap(raw.GET('/health/ready', { ...ctx.init(options) })),
    /** The same check under the legacy aliases, for load balancers configured with them. */
    healthAliases: {
      health: (options?: RequestOptions) => unwrap(raw.GET('/health/health', { ...ctx.init(options) })),
      api: (options?: RequestOptions) => unwrap(raw.GET('/api/v1/health/', { ...ctx.init(options) })),
      apiHealth: (options?: RequestOptions) =>
        unwrap(raw.GET('/api/v1/health/health', { ...ctx.init(options) })),
    },
    /** What a front end needs to know (no secrets). */
    config: (options?: RequestOptions) => unwrap(raw.GET('/config', { ...ctx.init(options) })),
    /** The OpenAPI document the server runs. */
    openapi: (options?: RequestOptions) => unwrap(raw.GET('/openapi.json', { ...ctx.init(options) })),
    /** The API reference page, as HTML text. */
    docs: (options?: RequestOptions) => unwrap(raw.GET('/docs', { parseAs: 'text', ...ctx.init(options) })),
    metrics: {
      /** Prometheus text exposition. */
      prometheus: (options?: RequestOptions) =>
        unwrap(raw.GET('/metrics', { parseAs: 'text', ...ctx.init(options) })),
      cache: (options?: RequestOptions) => unwrap(raw.GET('/metrics/cache', { ...ctx.init(options) })),
      combined: (options?: RequestOptions) => unwrap(raw.GET('/metrics/combined', { ...ctx.init(options) })),
      cacheStore: (options?: RequestOptions) => unwrap(raw.GET('/metrics/redis', { ...ctx.init(options) })),
    },
    /** Operator maintenance (admin token). */
    maintenance: {
      /** Clears every cache; refused without `confirm: true`. */
      clearCache: (query: QueryOf<'/admin/cache/clear', 'post'> = {}, options?: RequestOptions) =>
        unwrap(raw.POST('/admin/cache/clear', { params: { query }, body: {}, ...ctx.init(options) })),
      run: (options?: RequestOptions) =>
        unwrap(raw.POST('/admin/maintenance/run', { body: {}, ...ctx.init(options) })),
    },
  };
}
