import type { Logger as PinoLogger } from 'pino';
import { type AccessFields, accessWriter } from '../../internal/access-line.ts';
import { clientAddress } from '../client-address.ts';
import type { Exchange } from '../context.ts';
import type { HttpMetrics } from '../metrics.ts';

/** pino's level value of `info`. */
const INFO = 30;

/**
 * One structured log line and one metrics observation for a finished request, with latency, who called
 * (user, company, API key), from where (client address, after TRUST_PROXY) and with what (User-Agent),
 * and the trace id when tracing is on. The line is built only when `info` is enabled, straight on the
 * root logger with the request id as a field: no per-request child logger is made for it. With the
 * service's logger (`createLogger`) the line is written field by field (`accessWriter`), without pino's
 * generic serializer; with any other, through `logger.info`. Made once per kernel.
 */
export function accessRecorder(metrics: HttpMetrics | undefined, root: PinoLogger): (ex: Exchange) => void {
  const write = accessWriter(root);
  return (ex) => {
    const ms = performance.now() - ex.startedAt;
    const status = ex.result?.status ?? 500;
    const operation = ex.operation?.operationId ?? (status === 404 ? 'unmatched' : 'none');
    metrics?.observe(ex.request.method, operation, status, ms / 1000);
    if (write ? root.levelVal > INFO : !root.isLevelEnabled('info')) return;
    const a = ex.ctx.auth;
    const line: AccessFields = {
      req_id: ex.ctx.requestId,
      method: ex.request.method,
      path: ex.url.pathname,
      operation,
      status,
      ms,
      user_id: a ? a.userId : null,
      company_id: a ? a.companyId : null,
      api_key_id: a?.apiKeyId ?? null,
      ip: clientAddress(ex.ctx),
      user_agent: ex.request.headers.get('user-agent'),
      trace_id: ex.span ? ex.span.traceId : undefined,
    };
    if (write) write(line);
    else {
      line.ms = Math.round(ms * 10) / 10;
      root.info(line, 'request');
    }
  };
}
