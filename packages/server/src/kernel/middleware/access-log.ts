import type { Logger as PinoLogger } from 'pino';
import { lineWriter } from '../../internal/logger.ts';
import { clientAddress } from '../client-address.ts';
import type { Exchange } from '../context.ts';
import type { HttpMetrics } from '../metrics.ts';

/**
 * The client's address as the access log shows it: the socket's peer for now. When the kernel learns
 * TRUST_PROXY (the forwarded-for chain behind a trusted proxy), this is the one place to read it from.
 */

/**
 * One structured log line and one metrics observation for a finished request, with latency, who called
 * (user, company, API key), from where (client address) and with what (User-Agent), and the trace id
 * when tracing is on. The line is built only when `info` is enabled, straight on the root logger with
 * the request id as a field: no per-request child logger is made for it, and with the service's logger
 * (`createLogger`) pino's generic serializer is skipped too (`lineWriter`).
 */
export function recordAccess(ex: Exchange, metrics: HttpMetrics | undefined, root?: PinoLogger): void {
  const ms = performance.now() - ex.startedAt;
  const status = ex.result?.status ?? 500;
  const operation = ex.operation?.operationId ?? (status === 404 ? 'unmatched' : 'none');
  metrics?.observe(ex.request.method, operation, status, ms / 1000);
  if (root && typeof root.isLevelEnabled === 'function' && !root.isLevelEnabled('info')) return;
  const a = ex.ctx.auth;
  const line = {
    req_id: ex.ctx.requestId,
    method: ex.request.method,
    path: ex.url.pathname,
    operation,
    status,
    ms: Math.round(ms * 10) / 10,
    user_id: a ? a.userId : null,
    company_id: a ? a.companyId : null,
    api_key_id: a?.apiKeyId ?? null,
    ip: clientAddress(ex.ctx), // after TRUST_PROXY
    user_agent: ex.request.headers.get('user-agent'),
    trace_id: ex.span ? ex.span.traceId : undefined,
  };
  if (!root) ex.ctx.log.info(line, 'request');
  else {
    // The service's own logger: the same JSON line, built without pino's walk over the object.
    const write = lineWriter(root);
    if (write) write(line, 'request');
    else root.info(line, 'request');
  }
}
