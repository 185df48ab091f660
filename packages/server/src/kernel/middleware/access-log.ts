import type { Logger as PinoLogger } from 'pino';
import type { Exchange } from '../context.ts';
import type { HttpMetrics } from '../metrics.ts';

/**
 * One structured log line and one metrics observation for a finished request, with latency. The log
 * object is only built when `info` is enabled on the root logger (the request's child is made lazily).
 */
export function recordAccess(ex: Exchange, metrics: HttpMetrics | undefined, root?: PinoLogger): void {
  const ms = performance.now() - ex.startedAt;
  const status = ex.result?.status ?? 500;
  const operation = ex.operation?.operationId ?? (status === 404 ? 'unmatched' : 'none');
  metrics?.observe(ex.request.method, operation, status, ms / 1000);
  if (root && typeof root.isLevelEnabled === 'function' && !root.isLevelEnabled('info')) return;
  ex.ctx.log.info(
    { method: ex.request.method, path: ex.url.pathname, operation, status, ms: Math.round(ms * 10) / 10 },
    'request',
  );
}
