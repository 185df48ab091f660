/**
 * Answers a handler returns rather than throws. `errorResult` is for an error that must commit together
 * with the work of its transaction: returned from inside `ctx.transaction`, the idempotent record is
 * stored with it (a thrown error rolls both back). Its body is the one the kernel renders for a thrown
 * error (`renderError`): `{ detail, code, request_id }` plus the error's extra fields.
 */
import type { HttpError, ValidationError } from './errors.ts';
import { renderError } from './middleware/error-handler.ts';
import type { JsonResult, RequestContext } from './types.ts';

export function errorResult(
  err: HttpError | ValidationError,
  ctx: Pick<RequestContext, 'requestId'>,
): JsonResult {
  const r = renderError(err, ctx.requestId);
  return Object.keys(r.headers).length > 0
    ? { status: r.status, body: r.body, headers: r.headers }
    : { status: r.status, body: r.body };
}
