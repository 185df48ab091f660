import type { Logger as PinoLogger } from 'pino';
import type { Middleware } from '../compose.ts';

const SAFE_ID = /^[\w.:-]{1,128}$/;

/**
 * Honours a sane incoming `X-Request-Id` (so ids follow a request across services), else keeps the minted
 * one; echoes it and binds it to the request's logger.
 */
export function requestId(opts: { logger: PinoLogger }): Middleware {
  return async function requestIdMiddleware(ex, next) {
    const incoming = ex.request.headers.get('x-request-id');
    if (incoming && SAFE_ID.test(incoming)) ex.ctx.requestId = incoming;
    ex.responseHeaders['x-request-id'] = ex.ctx.requestId;
    ex.ctx.log = opts.logger.child({ req_id: ex.ctx.requestId });
    await next();
  };
}
