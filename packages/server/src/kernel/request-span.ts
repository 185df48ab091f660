import type { SpanHandle } from '../observability/tracing.ts';
import type { Exchange } from './context.ts';

/** Names the request's span after its route, with the operation id, status and caller, and ends it. */
export function endRequestSpan(ex: Exchange, span: SpanHandle): void {
  const status = ex.result?.status ?? 500;
  const op = ex.operation;
  if (op) {
    span.set('travel.operation_id', op.operationId);
    span.set('http.route', op.path);
  }
  span.set('http.response.status_code', status);
  span.set('travel.request_id', ex.ctx.requestId);
  const a = ex.ctx.auth;
  if (a) {
    span.set('enduser.id', a.userId);
    if (a.companyId !== null) span.set('travel.company_id', a.companyId);
    if (a.apiKeyId) span.set('travel.api_key_id', a.apiKeyId);
  }
  if (status >= 500) span.fail(undefined, `HTTP ${status}`);
  span.end();
}
