import type { Middleware } from '../compose.ts';
import type { HttpMetrics } from '../metrics.ts';

/** One structured log line and one metrics observation per request, with latency. */
export function accessLog(opts: { metrics?: HttpMetrics } = {}): Middleware {
  return async function accessLogMiddleware(ex, next) {
    try {
      await next();
    } finally {
      const ms = performance.now() - ex.startedAt;
      const status = ex.result?.status ?? 500;
      const operation = ex.operation?.operationId ?? (status === 404 ? 'unmatched' : 'none');
      opts.metrics?.observe(ex.request.method, operation, status, ms / 1000);
      ex.ctx.log.info(
        { method: ex.request.method, path: ex.url.pathname, operation, status, ms: Math.round(ms * 10) / 10 },
        'request',
      );
    }
  };
}
