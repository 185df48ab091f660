import type { Middleware } from '../compose.ts';
import { HttpError, notFound } from '../errors.ts';
import type { Router } from '../router.ts';

/** Matches the request to a contract operation: unknown path 404, known path with another method 405. */
export function route(opts: { router: Router }): Middleware {
  return async function routeMiddleware(ex, next) {
    const found = opts.router.lookup(ex.request.method, ex.url.pathname);
    if (found.kind === 'not_found') throw notFound('not_found', `No such path: ${ex.url.pathname}`);
    if (found.kind === 'method_not_allowed') {
      throw new HttpError(405, 'method_not_allowed', `${ex.request.method} is not allowed here.`, {
        headers: { allow: found.allow.join(', ') },
      });
    }
    ex.operation = found.match.operation;
    ex.route = found.match.operation.path;
    ex.rawParams = found.match.params;
    ex.ctx.operationId = found.match.operation.operationId;
    await next();
  };
}
