import { NO_PROXY } from '../internal/trust-proxy.ts';
import { CallScope, runInScope } from '../observability/call-scope.ts';
import { tracer } from '../observability/tracing.ts';
import { resolveClientAddress } from './client-address.ts';
import type { Exchange } from './context.ts';
import { listOperations } from './contract.ts';
import { answerError } from './error-answer.ts';
import { HttpError, notFound, ValidationError } from './errors.ts';
import { RequestsInFlight } from './in-flight.ts';
import type { DispatchInput, Kernel, KernelOptions, Reply, RequestInfo } from './kernel-api.ts';
import { accessRecorder } from './middleware/access-log.ts';
import { storedForm } from './middleware/idempotency.ts';
import { operationPlans } from './operation-plans.ts';
import { replyMakers } from './replies.ts';
import { KernelContext, KernelExchange } from './request-context.ts';
import { endRequestSpan } from './request-span.ts';
import { responseCheck } from './response-check.ts';
import { Router } from './router.ts';
import { SchemaCompiler } from './schema-compiler.ts';
import type { HandlerResult, RequestContext } from './types.ts';

// The kernel: `handle(request) -> response` without a socket, and `dispatch` for the node adapter.
// Here: a request's life (exchange, routing, the operation's plan, conclude). Elsewhere: the plans
// (operation-plans.ts), error answers (error-answer.ts), the response check (response-check.ts), the
// transports' answers (replies.ts), streams and shutdown (in-flight.ts), the options (kernel-api.ts).

export type { DispatchInput, Kernel, KernelOptions, Reply } from './kernel-api.ts';

const NO_HEADERS: readonly string[] = Object.freeze([]);

/** `Object.fromEntries` of a web `Headers`, lower-cased names (as before, the last `set-cookie` wins). */
const webHeaderRecord = (request: Request) => () =>
  Object.fromEntries([...request.headers].map(([k, v]) => [k.toLowerCase(), v]));

/** At most 100 characters of client input in an answer (a 404 names the path, never all of it). */
const clip = (s: string) => (s.length > 100 ? `${s.slice(0, 100)}…` : s);

export function createKernel(o: KernelOptions): Kernel {
  const operations = listOperations(o.doc);
  const compiler = new SchemaCompiler(o.doc);
  const router = new Router(operations);
  const inFlight = new RequestsInFlight(o.logger);
  const { toReply, toResponse } = replyMakers(inFlight);
  // The plan built once per operation (the steps that can apply to it), and how a request runs it.
  const { handlerFor, runPlan } = operationPlans(o, compiler, operations);

  function makeTransaction(ex: Exchange): RequestContext['transaction'] {
    return async (fn) => {
      let recorded = false;
      const result = await o.db.transaction().execute(async (trx) => {
        const r = await fn(trx);
        const claim = ex.idempotency;
        const stored = claim && !claim.stored ? storedForm(r) : undefined;
        if (claim && stored) {
          await o.idempotencyStore.complete(claim.scope, stored, trx);
          recorded = true;
        }
        return r;
      });
      if (recorded && ex.idempotency) ex.idempotency.stored = true;
      return result;
    };
  }

  /**
   * The exchange and the handler's context for one request; log, headers, signal and the response
   * header record made when read.
   */
  const trust = o.trustProxy ?? NO_PROXY;
  function exchange(raw: DispatchInput): KernelExchange {
    const input =
      trust.kind === 'none' ? raw : { ...raw, ip: resolveClientAddress(raw.ip, raw.request.headers, trust) };
    const cors = o.cors ? o.cors.responseHeaderList(input.request.headers.get('origin')) : NO_HEADERS;
    const ex = new KernelExchange(input.request, input.url, cors);
    ex.ctx = new KernelContext(input, o.logger, ex, makeTransaction);
    return ex;
  }

  /** OPTIONS on a known path: 204 with `Allow`, plus the CORS preflight answer for an allowed origin. */
  function options(ex: Exchange): HandlerResult {
    const allow = router.allowed(ex.url.pathname);
    if (allow.length === 0) throw notFound('not_found', `No such path: ${clip(ex.url.pathname)}`);
    const preflight = o.cors?.preflightHeaders(ex.request.headers.get('origin'), allow);
    return { status: 204, headers: { allow: allow.join(', '), ...preflight } };
  }

  const checkResponse = responseCheck(o);
  const recordAccess = accessRecorder(o.metrics, o.logger);

  /**
   * Routing and the operation's plan, as far as it runs synchronously: the steps in line, then the
   * chain or the handler. Returns undefined when `ex.result` is set already (no promise made at all:
   * a handler may answer synchronously), else a promise of the rest. Throws what a step throws.
   */
  function route(ex: KernelExchange): Promise<void> | undefined {
    const method = ex.request.method;
    if (method === 'OPTIONS') {
      ex.result = options(ex);
      return undefined;
    }
    // HEAD is answered wherever GET is: the GET operation runs, the body is left out.
    const match = router.find(method === 'HEAD' ? 'GET' : method, ex.url.pathname);
    if (!match) {
      const allow = router.allowed(ex.url.pathname);
      if (allow.length === 0) {
        // A contract path whose parameter cannot be read (bad percent-encoding, longer than any id):
        // that operation's declared 422, naming the parameter, without echoing it.
        const shaped = router.shape(method === 'HEAD' ? 'GET' : method, ex.url.pathname);
        if (shaped) {
          ex.operation = shaped.operation;
          ex.route = shaped.operation.path;
          ex.ctx.operationId = shaped.operation.operationId;
          throw new ValidationError([
            { loc: ['path', shaped.param], msg: 'The path parameter cannot be read', type: 'value_error' },
          ]);
        }
        throw notFound('not_found', `No such path: ${clip(ex.url.pathname)}`);
      }
      throw new HttpError(405, 'method_not_allowed', `${ex.request.method} is not allowed here.`, {
        headers: { allow: allow.join(', ') },
      });
    }
    const op = match.operation;
    ex.operation = op;
    ex.route = op.path;
    ex.rawParams = match.params;
    ex.ctx.operationId = op.operationId;
    // Authenticated operations run in a call scope: their supplier calls log and record under this
    // request (public ones never reach a supplier, and cost nothing more).
    if (!op.public)
      return runInScope(new CallScope({ requestId: ex.ctx.requestId }, ex.ctx), () => runPlan(ex, op));
    return runPlan(ex, op);
  }

  /**
   * After the plan (or its error): the error's answer, the response check, access log and metrics,
   * then `finish` makes the transport's answer. The request ends here (`active`): the caller counted
   * it in.
   */
  function conclude<R>(
    ex: KernelExchange,
    finish: (ex: KernelExchange, result: HandlerResult) => R,
    threw: boolean,
    thrown: unknown,
  ): R {
    try {
      try {
        if (threw) answerError(ex, thrown);
        if (checkResponse && ex.result) ex.result = checkResponse(ex, ex.result);
      } finally {
        recordAccess(ex);
        if (ex.span) endRequestSpan(ex, ex.span);
      }
      return finish(
        ex,
        ex.result ?? {
          status: 500,
          body: { detail: 'No response.', code: 'internal_error', request_id: ex.ctx.requestId },
        },
      );
    } finally {
      inFlight.active -= 1;
    }
  }

  async function concludeLater<R>(
    ex: KernelExchange,
    finish: (ex: KernelExchange, result: HandlerResult) => R,
    pending: Promise<void>,
  ): Promise<R> {
    let threw = false;
    let thrown: unknown;
    try {
      await pending;
    } catch (err) {
      threw = true;
      thrown = err;
    }
    return conclude(ex, finish, threw, thrown);
  }

  /**
   * Error handler, routing and the operation's plan (as the middleware did), then `conclude`. When
   * every step and the handler answer synchronously, so does this (no promise, no microtask); else
   * a promise. It never throws: a failure after the error handler is a rejected promise.
   */
  function execute<R>(
    ex: KernelExchange,
    finish: (ex: KernelExchange, result: HandlerResult) => R,
  ): R | Promise<R> {
    const t = tracer;
    if (t === null) return executePlain(ex, finish);
    // Tracing on: the request's span (child of an inbound traceparent) is active for all it does.
    const h = ex.request.headers;
    const span = t.request(ex.request.method, ex.url.pathname, h.get('traceparent'), h.get('tracestate'));
    ex.span = span;
    return span.run(() => executePlain(ex, finish));
  }

  function executePlain<R>(
    ex: KernelExchange,
    finish: (ex: KernelExchange, result: HandlerResult) => R,
  ): R | Promise<R> {
    let pending: Promise<void> | undefined;
    try {
      pending = route(ex);
    } catch (thrown) {
      try {
        return conclude(ex, finish, true, thrown);
      } catch (err) {
        return Promise.reject(err);
      }
    }
    if (pending !== undefined) return concludeLater(ex, finish, pending);
    try {
      return conclude(ex, finish, false, undefined);
    } catch (err) {
      return Promise.reject(err);
    }
  }

  function handle(request: Request, info: RequestInfo = {}): Promise<Response> {
    inFlight.active += 1;
    let ex: KernelExchange;
    try {
      ex = exchange({
        request,
        url: new URL(request.url),
        ip: info.ip ?? '127.0.0.1',
        signal: info.signal ?? request.signal,
        headers: webHeaderRecord(request),
      });
    } catch (err) {
      inFlight.active -= 1;
      return Promise.reject(err);
    }
    return Promise.resolve(execute(ex, toResponse));
  }

  function dispatch(input: DispatchInput): Reply | Promise<Reply> {
    inFlight.active += 1;
    let ex: KernelExchange;
    try {
      ex = exchange(input);
    } catch (err) {
      inFlight.active -= 1;
      return Promise.reject(err);
    }
    return execute(ex, toReply);
  }

  return {
    handle,
    dispatch,
    operations,
    unimplemented: operations.filter((op) => !handlerFor(op)).map((op) => op.operationId),
    inFlight: () => inFlight.active,
    shutdown: () => inFlight.shutdown(),
    shuttingDown: inFlight.shuttingDown,
  };
}
