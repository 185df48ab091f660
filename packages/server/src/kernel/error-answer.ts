import { ClientClosedRequest, HttpError, ValidationError } from './errors.ts';
import { knownError, renderError } from './middleware/error-handler.ts';
import type { KernelExchange } from './request-context.ts';

const isAbort = (err: unknown) =>
  err instanceof Error && (err.name === 'AbortError' || (err as { code?: string }).code === 'ABORT_ERR');

/** A thrown error as the answer (the error handler middleware's rules). */
export function answerError(ex: KernelExchange, thrown: unknown): void {
  const err = knownError(thrown) ?? thrown;
  if (err instanceof HttpError || err instanceof ValidationError) {
    const r = renderError(err, ex.ctx.requestId);
    if (r.status >= 500) ex.ctx.log.warn({ err, code: (r.body as { code?: string }).code }, 'request failed');
    ex.result = { status: r.status, body: r.body, headers: r.headers };
  } else if (err instanceof ClientClosedRequest || (isAbort(err) && ex.ctx.signal.aborted)) {
    // The client hung up: nothing to answer, and not a server failure (no 5xx, no error log).
    ex.ctx.log.info({ reason: (err as Error).message }, 'client closed the request');
    ex.result = { status: 499 };
  } else {
    ex.ctx.log.error({ err }, 'unhandled error');
    ex.result = {
      status: 500,
      body: {
        detail: 'Internal server error.',
        code: 'internal_error',
        request_id: ex.ctx.requestId,
      },
    };
  }
}
