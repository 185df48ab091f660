import type { Logger as PinoLogger } from 'pino';
import type { IdempotencyStore } from '../idempotency/idempotency-store.ts';
import type { RateRule } from '../internal/config.ts';
import type { TokenService } from '../internal/tokens.ts';
import { NO_PROXY, type TrustProxy } from '../internal/trust-proxy.ts';
import { CallScope, runInScope } from '../observability/call-scope.ts';
import { tracer } from '../observability/tracing.ts';
import type { RateLimitStore } from '../rate-limit/rate-limit-store.ts';
import type { Db } from '../storage/schema.ts';
import { resolveClientAddress } from './client-address.ts';
import { compose, type Middleware, type Step } from './compose.ts';
import type { Exchange, KernelRequest, RequestUrl } from './context.ts';
import { listOperations, type OpenApiDoc, type Operation } from './contract.ts';
import { ClientClosedRequest, HttpError, notFound, notSupported, ValidationError } from './errors.ts';
import type { HttpMetrics } from './metrics.ts';
import { recordAccess } from './middleware/access-log.ts';
import { authenticator, roleCheck } from './middleware/auth.ts';
import { bodyLimit } from './middleware/body-limit.ts';
import { contentTypeCheck } from './middleware/content-type.ts';
import type { CorsPolicy } from './middleware/cors.ts';
import { deprecationStep } from './middleware/deprecation.ts';
import { knownError, renderError } from './middleware/error-handler.ts';
import { idempotency, RawReplays, storedForm } from './middleware/idempotency.ts';
import { parseJsonBody } from './middleware/json-body.ts';
import { type RateClass, rateClassOf, rateLimit } from './middleware/rate-limit.ts';
import { tenantCheck } from './middleware/tenant.ts';
import { inputValidator } from './middleware/validate.ts';
import type { PrincipalStore } from './principal.ts';
import { constantJson } from './reply.ts';
import { HYGIENE_HEADERS, KernelContext, KernelExchange } from './request-context.ts';
import { endRequestSpan } from './request-span.ts';
import {
  type ResponseValidationMode,
  ResponseValidator,
  type ResponseViolation,
} from './response-validator.ts';
import { Router } from './router.ts';
import { SchemaCompiler } from './schema-compiler.ts';
import { runSse, SSE_HEADERS, type SseRun, type SseTransport, sseStream } from './sse.ts';
import type { HandlerResult, HandlerTable, RequestContext, SseMessage, UncheckedHandler } from './types.ts';

export interface KernelOptions {
  doc: OpenApiDoc;
  /** operationId -> handler; a domain's checked `Routes` pass through `handlerTable()`. */
  routes: HandlerTable;
  db: Db;
  logger: PinoLogger;
  tokens: TokenService;
  principals: PrincipalStore;
  idempotencyStore: IdempotencyStore;
  rateLimitStore: RateLimitStore;
  rateRules: Record<RateClass, RateRule>;
  bodyLimitBytes?: number;
  metrics?: HttpMetrics;
  /** Cross-origin callers allowed (none when omitted). */
  cors?: CorsPolicy;
  /**
   * Check every response of an operation against the contract: `log` logs a violation, `strict` also
   * answers 500 instead (tests run strict, so a violation fails them). Default `off`.
   */
  responseValidation?: ResponseValidationMode;
  /** Called with each violation found (after logging), in `log` and `strict` modes. */
  onResponseViolation?: (v: ResponseViolation) => void;
  /** TRUST_PROXY: which forwarded addresses to believe (`ctx.ip` is the client's); none by default. */
  trustProxy?: TrustProxy;
}

export interface RequestInfo {
  /** Client address; tests may set it to exercise per-address limits. */
  ip?: string;
  /** Aborted when the client disconnects. */
  signal?: AbortSignal;
}

/** What a transport hands to `dispatch`: the request without a web `Request` around it. */
export interface DispatchInput {
  request: KernelRequest;
  url: RequestUrl;
  ip: string;
  /** The client-gone signal, or a function making it: called only when something reads `ctx.signal`. */
  signal: AbortSignal | (() => AbortSignal);
  /** All request headers, lower-cased names (for `ctx.headers`); called only when read. */
  headers: () => Record<string, string>;
}

/**
 * What `dispatch` answers: a plain status, headers (a flat `[name, value, ...]` list, lower-cased names,
 * as node's `writeHead` takes them) and body to write at once; or an SSE stream the transport writes
 * after its headers; or, for non-JSON results, a web `Response` to stream out.
 */
export type Reply =
  | { status: number; headers: string[]; body: string | null }
  | { status: number; headers: Record<string, string>; stream: (transport: SseTransport) => SseRun }
  | { response: Response };

export interface Kernel {
  /** Dispatch without a socket: a web Request in, a web Response out. */
  handle(request: Request, info?: RequestInfo): Promise<Response>;
  /**
   * The same dispatch without building web objects (the node adapter's path). The reply itself when
   * every step and the handler answered synchronously (no promise in between), else a promise of it;
   * it never throws (a failure is a rejected promise). Optional so a stub kernel with only `handle`
   * still serves.
   */
  dispatch?(input: DispatchInput): Reply | Promise<Reply>;
  readonly operations: Operation[];
  /** Operation ids in the contract with no handler registered (they answer 501). */
  readonly unimplemented: string[];
  /** Requests (including open streams) not yet finished. */
  inFlight(): number;
  /** Ends open SSE streams with a final event; new streams end at once. */
  shutdown(): void;
  readonly shuttingDown: AbortSignal;
}

const jsonHeaders = { 'content-type': 'application/json' };
/** The first reply headers, flat: hygiene, and before it the JSON content type for a JSON body. */
const HYGIENE_LIST: readonly string[] = Object.entries(HYGIENE_HEADERS).flat();
const JSON_HEAD: readonly string[] = ['content-type', 'application/json', ...HYGIENE_LIST];
const NO_HEADERS: readonly string[] = Object.freeze([]);
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/** `Object.fromEntries` of a web `Headers`, lower-cased names (as before, the last `set-cookie` wins). */
const webHeaderRecord = (request: Request) => () =>
  Object.fromEntries([...request.headers].map(([k, v]) => [k.toLowerCase(), v]));

const isHttpSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

/**
 * Response headers as a web `Headers` would send them: names lower-cased, names differing only in case
 * joined with `, `, values trimmed of HTTP whitespace.
 */
function normalizeHeaders(merged: Record<string, unknown>): Record<string, string> {
  let out: Record<string, string> | undefined;
  for (const k in merged) {
    const raw = merged[k];
    const v = typeof raw === 'string' ? raw : String(raw);
    const lk = k.toLowerCase();
    if (
      lk !== k ||
      v !== raw ||
      (v.length > 0 && (isHttpSpace(v.charCodeAt(0)) || isHttpSpace(v.charCodeAt(v.length - 1))))
    ) {
      out ??= {};
      break;
    }
  }
  if (!out) return merged as Record<string, string>;
  for (const k in merged) {
    const raw = merged[k];
    const v = (typeof raw === 'string' ? raw : String(raw)).replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '');
    const lk = k.toLowerCase();
    const prev = out[lk];
    out[lk] = prev === undefined ? v : `${prev}${lk === 'cookie' ? '; ' : ', '}${v}`;
  }
  return out;
}

/** At most 100 characters of client input in an answer (a 404 names the path, never all of it). */
const clip = (s: string) => (s.length > 100 ? `${s.slice(0, 100)}…` : s);

const isEmpty = (o: object) => {
  for (const _ in o) return false;
  return true;
};

/** A middleware that only acts before `next()` (body limit, JSON body), run as a step. */
const asStep =
  (mw: Middleware): Step =>
  (ex) =>
    mw(ex, next);
const done = Promise.resolve();
const next = () => done;

/** Steps before the handler (each may be synchronous), then the chain around it, if any. */
interface Plan {
  before: Step[];
  around: ((ex: Exchange) => Promise<void>) | undefined;
}

/** A promise or any other thenable (what `await` would wait for). */
const isThenable = (v: unknown): v is PromiseLike<HandlerResult> =>
  typeof v === 'object' && v !== null && typeof (v as { then?: unknown }).then === 'function';

const isAbort = (err: unknown) =>
  err instanceof Error && (err.name === 'AbortError' || (err as { code?: string }).code === 'ABORT_ERR');

export function createKernel(o: KernelOptions): Kernel {
  const operations = listOperations(o.doc);
  const compiler = new SchemaCompiler(o.doc);
  const router = new Router(operations);
  const shutdownController = new AbortController();
  /** Open streams of the node path (`dispatch`), ended by `shutdown()`. */
  const streams = new Set<SseRun>();
  let active = 0;

  // A handler is registered under its operationId (literal in every route file).
  const handlerFor = (op: Operation) => o.routes[op.operationId];
  // Resolved once per operation; an operation without one is looked up again per request.
  const handlers = new Map<Operation, UncheckedHandler>();
  for (const op of operations) {
    const h = handlerFor(op);
    if (h) handlers.set(op, h);
  }
  /** The operation's handler, or 501 when none is registered (yet). */
  const handlerOf = (op: Operation): UncheckedHandler => {
    const handler = handlers.get(op) ?? handlerFor(op);
    if (!handler) throw notSupported('not_implemented', `${op.operationId} is not implemented yet.`);
    return handler;
  };
  // The end of an operation's chain: it runs only after routing has set the operation.
  const handlerStep: Middleware = async function handlerMiddleware(ex) {
    ex.result = await handlerOf(ex.operation as Operation)(ex.ctx);
  };

  // Every request: request id, access log + metrics, error handler and routing, inlined in `execute`
  // (the same code as those middlewares). After routing, the plan built once for the matched operation,
  // without the steps that cannot apply to it.
  const replays = new RawReplays(o.idempotencyStore);
  const validate = inputValidator({ compiler, operations });
  const steps = {
    contentType: contentTypeCheck,
    bodyLimit: asStep(bodyLimit({ limitBytes: o.bodyLimitBytes })),
    jsonBody: parseJsonBody,
    authenticate: authenticator({ tokens: o.tokens, principals: o.principals }),
    roles: roleCheck,
    validate,
    tenant: tenantCheck,
    rateLimit: rateLimit({ store: o.rateLimitStore, rules: o.rateRules }),
    idempotency: idempotency({ store: o.idempotencyStore, replays }),
    // With idempotency, a replay's raw request may skip parsing and validation (`RawReplays`).
    replayBody: replays.parse(parseJsonBody),
    replayValidate: replays.validate(parseJsonBody, validate),
  };
  /**
   * Which steps can act on `op` (each skipped step is a pass-through for it):
   * content-type acts only on POST/PUT/PATCH; body-limit only when the method may carry a body, and
   * json-body only parses what body-limit read; auth passes public operations through, and tenant acts
   * only on an authenticated caller; roles only with `x-roles`; rate-limit only with a rate class;
   * idempotency only on POST/PATCH or a declared `x-idempotency` (there, with a body, parsing and
   * validation go through `RawReplays`, which skips both for the raw request of an earlier replay).
   * Validation and the handler always run.
   * The steps up to tenant only act before the handler and run in line (a synchronous one costs no
   * promise); rate limit, idempotency (which wraps the handler) and the handler are a composed chain,
   * or, when neither applies, the handler is called directly.
   */
  function planFor(op: Operation): Plan {
    const method = op.method.toUpperCase();
    const idempotent = op.idempotency !== undefined || method === 'POST' || method === 'PATCH';
    const body = method !== 'GET' && method !== 'HEAD';
    const before: Step[] = [];
    const deprecated = deprecationStep(op);
    if (deprecated) before.push(deprecated);
    if (BODY_METHODS.has(method)) before.push(steps.contentType);
    if (body) before.push(steps.bodyLimit, idempotent ? steps.replayBody : steps.jsonBody);
    if (!op.public) before.push(steps.authenticate);
    if (op.roles && op.roles.length > 0) before.push(steps.roles);
    before.push(body && idempotent ? steps.replayValidate : steps.validate);
    if (!op.public) before.push(steps.tenant);
    const around: Middleware[] = [];
    if (rateClassOf(op)) around.push(steps.rateLimit);
    if (idempotent) around.push(steps.idempotency);
    return { before, around: around.length > 0 ? compose([...around, handlerStep]) : undefined };
  }
  const plans = new Map<Operation, Plan>();
  for (const op of operations) plans.set(op, planFor(op));
  const planOf = (op: Operation): Plan => {
    let plan = plans.get(op);
    if (!plan) {
      plan = planFor(op);
      plans.set(op, plan);
    }
    return plan;
  };

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

  function toResponse(ex: Exchange, result: HandlerResult): Response {
    const headers: Record<string, string> = { ...ex.responseHeaders, ...(result.headers ?? {}) };
    const head = ex.request.method === 'HEAD';
    if ('sse' in result) {
      const sseHeaders = { ...ex.responseHeaders, ...SSE_HEADERS, ...(result.headers ?? {}) };
      if (head) {
        // HEAD: the stream's headers, and the stream itself is never started.
        void result.sse[Symbol.asyncIterator]()
          .return?.()
          ?.catch(() => {});
        return new Response(null, { status: result.status, headers: sseHeaders });
      }
      active += 1;
      let closed = false;
      const body = sseStream(result.sse, {
        signal: ex.ctx.signal,
        shutdown: shutdownController.signal,
        onClose: () => {
          if (!closed) {
            closed = true;
            active -= 1;
          }
        },
        onError: (err) => ex.ctx.log.error({ err }, 'stream failed'),
      });
      return new Response(body, { status: result.status, headers: sseHeaders });
    }
    if ('raw' in result) {
      const nullBody = head || result.status === 204 || result.status === 304;
      return new Response(nullBody ? null : (result.raw as ConstructorParameters<typeof Response>[0]), {
        status: result.status,
        headers,
      });
    }
    if (result.status === 204 || result.status === 304 || result.body === undefined) {
      return new Response(null, { status: result.status, headers });
    }
    const text = JSON.stringify(result.body);
    if (head) {
      return new Response(null, {
        status: result.status,
        headers: { ...jsonHeaders, ...headers, 'content-length': String(Buffer.byteLength(text)) },
      });
    }
    return new Response(text, { status: result.status, headers: { ...jsonHeaders, ...headers } });
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

  const validator =
    o.responseValidation && o.responseValidation !== 'off' ? new ResponseValidator(o.doc) : undefined;
  /** `RESPONSE_VALIDATION`: the finished result against the contract; in strict mode a violation is a 500. */
  function checkResponse(ex: Exchange, result: HandlerResult): HandlerResult {
    const op = ex.operation;
    if (!validator || !op || result.status === 499) return result;
    const body = 'sse' in result || 'raw' in result ? undefined : result.body;
    const problems = validator.problems(op.operationId, result.status, body);
    if (problems.length === 0) return result;
    const violation: ResponseViolation = {
      operationId: op.operationId,
      method: ex.request.method,
      path: ex.url.pathname,
      status: result.status,
      problems,
    };
    ex.ctx.log.error({ violation }, 'response does not match the contract');
    o.onResponseViolation?.(violation);
    if (o.responseValidation !== 'strict') return result;
    return {
      status: 500,
      body: {
        detail: `Response validation (strict): ${op.operationId} ${result.status} does not match the contract: ${problems.slice(0, 5).join('; ')}`,
        code: 'internal_error',
        request_id: ex.ctx.requestId,
      },
    };
  }

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

  /** The operation's plan: the steps in line, then the chain or the handler (see `route`). */
  function runPlan(ex: KernelExchange, op: Operation): Promise<void> | undefined {
    const plan = planOf(op);
    const before = plan.before;
    for (let i = 0; i < before.length; i++) {
      const pending = (before[i] as Step)(ex);
      if (pending !== undefined) return finishPlan(ex, op, plan, i + 1, pending);
    }
    if (plan.around) return plan.around(ex);
    const result = handlerOf(op)(ex.ctx);
    if (isThenable(result)) return resultOf(ex, result);
    ex.result = result;
    return undefined;
  }

  /** The rest of a plan once a step went asynchronous: the steps from `from` on, then the handler. */
  async function finishPlan(
    ex: KernelExchange,
    op: Operation,
    plan: Plan,
    from: number,
    pending: Promise<void>,
  ): Promise<void> {
    await pending;
    const before = plan.before;
    for (let i = from; i < before.length; i++) {
      const next = (before[i] as Step)(ex);
      if (next !== undefined) await next;
    }
    if (plan.around) await plan.around(ex);
    else ex.result = await handlerOf(op)(ex.ctx);
  }

  async function resultOf(ex: KernelExchange, result: PromiseLike<HandlerResult>): Promise<void> {
    ex.result = await result;
  }

  /** A thrown error as the answer (the error handler middleware's rules). */
  function answerError(ex: KernelExchange, thrown: unknown): void {
    const err = knownError(thrown) ?? thrown;
    if (err instanceof HttpError || err instanceof ValidationError) {
      const r = renderError(err, ex.ctx.requestId);
      if (r.status >= 500)
        ex.ctx.log.warn({ err, code: (r.body as { code?: string }).code }, 'request failed');
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
        if (validator && ex.result) ex.result = checkResponse(ex, ex.result);
      } finally {
        recordAccess(ex, o.metrics, o.logger);
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
      active -= 1;
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
    active += 1;
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
      active -= 1;
      return Promise.reject(err);
    }
    return Promise.resolve(execute(ex, toResponse));
  }

  /**
   * The reply's headers, flat: the JSON content type (for a body), hygiene, CORS, request id, then the
   * result's own headers over them (a web `Headers`' normalization), then the content length. Without
   * headers of the result's own, the list is made straight from the kernel's, which need no
   * normalization (lower-case names, trimmed values).
   */
  function replyHeaders(ex: KernelExchange, result: HandlerResult, json: boolean, length?: string): string[] {
    const extra = result.headers;
    if (!ex.responseHeadersMade && (extra === undefined || isEmpty(extra))) {
      const h = (json ? JSON_HEAD : HYGIENE_LIST).slice();
      const cors = ex.corsHeaders;
      for (let i = 0; i < cors.length; i++) h.push(cors[i] as string);
      h.push('x-request-id', ex.ctx.requestId);
      if (length !== undefined) h.push('content-length', length);
      return h;
    }
    const merged = normalizeHeaders(
      json
        ? { ...jsonHeaders, ...ex.responseHeaders, ...(extra ?? {}) }
        : { ...ex.responseHeaders, ...(extra ?? {}) },
    );
    if (length !== undefined) merged['content-length'] = length;
    const h: string[] = [];
    for (const k in merged) h.push(k, merged[k] as string);
    return h;
  }

  /** The answer as the node adapter writes it: JSON at once, anything else as a `Response`. */
  function toReply(ex: KernelExchange, result: HandlerResult): Reply {
    const status = result.status;
    // A stream is written by the transport itself, after these headers (no web stream in between).
    if ('sse' in result && ex.request.method !== 'HEAD') {
      const source = result.sse;
      return {
        status: result.status,
        headers: normalizeHeaders({ ...ex.responseHeaders, ...SSE_HEADERS, ...(result.headers ?? {}) }),
        stream: (transport) => openStream(ex.ctx.requestId, source, transport),
      };
    }
    // HEAD of a stream, non-JSON bodies and statuses a web Response would refuse keep the Response path.
    if ('sse' in result || 'raw' in result || status < 200 || status > 599 || status === 205) {
      return { response: toResponse(ex, result) };
    }
    if (status === 204 || status === 304 || result.body === undefined) {
      return { status, headers: replyHeaders(ex, result, false), body: null };
    }
    const body = result.body;
    // A `constantResult`'s body was serialized once; any other is serialized now.
    const constant = typeof body === 'object' && body !== null ? constantJson(body) : undefined;
    if (constant) {
      const headers = replyHeaders(ex, result, true, constant.length);
      return { status, headers, body: ex.request.method === 'HEAD' ? null : constant.text };
    }
    const text = JSON.stringify(body) as string | undefined;
    if (text === undefined) return { status, headers: replyHeaders(ex, result, true), body: null };
    const headers = replyHeaders(ex, result, true, String(Buffer.byteLength(text)));
    return { status, headers, body: ex.request.method === 'HEAD' ? null : text };
  }

  function dispatch(input: DispatchInput): Reply | Promise<Reply> {
    active += 1;
    let ex: KernelExchange;
    try {
      ex = exchange(input);
    } catch (err) {
      active -= 1;
      return Promise.reject(err);
    }
    return execute(ex, toReply);
  }

  /**
   * An open stream of the node path: counted in flight until it ends, ended with the final `shutdown`
   * event by `shutdown()`. It keeps only the request id (the exchange is not held for the stream's life).
   */
  function openStream(requestId: string, source: AsyncIterable<SseMessage>, transport: SseTransport): SseRun {
    active += 1;
    let run: SseRun | undefined;
    run = runSse(source, transport, {
      onClose: () => {
        active -= 1;
        if (run) streams.delete(run);
      },
      onError: (err) => o.logger.child({ req_id: requestId }).error({ err }, 'stream failed'),
    });
    if (run.finished) return run;
    if (shutdownController.signal.aborted) run.shutdown();
    else streams.add(run);
    return run;
  }

  return {
    handle,
    dispatch,
    operations,
    unimplemented: operations.filter((op) => !handlerFor(op)).map((op) => op.operationId),
    inFlight: () => active,
    shutdown: () => {
      shutdownController.abort();
      for (const run of [...streams]) run.shutdown();
    },
    shuttingDown: shutdownController.signal,
  };
}
