import type { Logger as PinoLogger } from 'pino';
import type { IdempotencyStore } from '../idempotency/idempotency-store.ts';
import type { RateRule } from '../internal/config.ts';
import type { TokenService } from '../internal/tokens.ts';
import type { RateLimitStore } from '../rate-limit/rate-limit-store.ts';
import type { Db } from '../storage/schema.ts';
import { compose, type Middleware } from './compose.ts';
import type { Exchange, KernelRequest, RequestUrl } from './context.ts';
import { listOperations, type OpenApiDoc, type Operation } from './contract.ts';
import { HttpError, notFound, notSupported, ValidationError } from './errors.ts';
import type { HttpMetrics } from './metrics.ts';
import { recordAccess } from './middleware/access-log.ts';
import { authenticate, roles } from './middleware/auth.ts';
import { bodyLimit } from './middleware/body-limit.ts';
import { contentType } from './middleware/content-type.ts';
import { renderError } from './middleware/error-handler.ts';
import { idempotency, storedForm } from './middleware/idempotency.ts';
import { jsonBody } from './middleware/json-body.ts';
import { type RateClass, rateClassOf, rateLimit } from './middleware/rate-limit.ts';
import { tenant } from './middleware/tenant.ts';
import { validate } from './middleware/validate.ts';
import type { PrincipalStore } from './principal.ts';
import { KernelContext, KernelExchange } from './request-context.ts';
import { Router } from './router.ts';
import { SchemaCompiler } from './schema-compiler.ts';
import { SSE_HEADERS, sseStream } from './sse.ts';
import type { Handler, HandlerResult, RequestContext, Routes } from './types.ts';

export interface KernelOptions {
  doc: OpenApiDoc;
  routes: Routes;
  db: Db;
  logger: PinoLogger;
  tokens: TokenService;
  principals: PrincipalStore;
  idempotencyStore: IdempotencyStore;
  rateLimitStore: RateLimitStore;
  rateRules: Record<RateClass, RateRule>;
  bodyLimitBytes?: number;
  metrics?: HttpMetrics;
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
 * What `dispatch` answers: a plain status, headers (lower-cased names) and body to write at once, or, for
 * streams and non-JSON results, a web `Response` to stream out.
 */
export type Reply =
  | { status: number; headers: Record<string, string>; body: string | null }
  | { response: Response };

export interface Kernel {
  /** Dispatch without a socket: a web Request in, a web Response out. */
  handle(request: Request, info?: RequestInfo): Promise<Response>;
  /**
   * The same dispatch without building web objects (the node adapter's path). Optional so a stub kernel
   * with only `handle` still serves.
   */
  dispatch?(input: DispatchInput): Promise<Reply>;
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

export function createKernel(o: KernelOptions): Kernel {
  const operations = listOperations(o.doc);
  const compiler = new SchemaCompiler(o.doc);
  const router = new Router(operations);
  const shutdownController = new AbortController();
  let active = 0;

  // A handler is registered under its operationId, or under `METHOD /path` (fixed platform paths).
  const handlerFor = (op: Operation) => o.routes[op.operationId] ?? o.routes[`${op.method} ${op.path}`];
  // Resolved once per operation; an operation without one is looked up again per request.
  const handlers = new Map<Operation, Handler>();
  for (const op of operations) {
    const h = handlerFor(op);
    if (h) handlers.set(op, h);
  }
  const handlerStep: Middleware = async function handlerMiddleware(ex) {
    const op = ex.operation;
    const handler = op && (handlers.get(op) ?? handlerFor(op));
    if (!op || !handler) {
      throw notSupported('not_implemented', `${op?.operationId ?? 'This operation'} is not implemented yet.`);
    }
    ex.result = await handler(ex.ctx);
  };

  // Every request: request id, access log + metrics, error handler and routing, inlined in `execute`
  // (the same code as those middlewares). After
  // routing, the chain built once for the matched operation, without the steps that cannot apply to it.
  const steps = {
    contentType: contentType(),
    bodyLimit: bodyLimit({ limitBytes: o.bodyLimitBytes }),
    jsonBody: jsonBody(),
    authenticate: authenticate({ tokens: o.tokens, principals: o.principals }),
    roles: roles(),
    validate: validate({ compiler, operations }),
    tenant: tenant(),
    rateLimit: rateLimit({ store: o.rateLimitStore, rules: o.rateRules }),
    idempotency: idempotency({ store: o.idempotencyStore }),
  };
  /**
   * Which steps can act on `op` (each skipped step is a pass-through for it):
   * content-type acts only on POST/PUT/PATCH; body-limit only when the method may carry a body, and
   * json-body only parses what body-limit read; auth passes public operations through, and tenant acts
   * only on an authenticated caller; roles only with `x-roles`; rate-limit only with a rate class;
   * idempotency only on POST/PATCH or a declared `x-idempotency`. Validation and the handler always run.
   */
  function chainFor(op: Operation): (ex: Exchange) => Promise<void> {
    const method = op.method.toUpperCase();
    const chain: Middleware[] = [];
    if (BODY_METHODS.has(method)) chain.push(steps.contentType);
    if (method !== 'GET' && method !== 'HEAD') chain.push(steps.bodyLimit, steps.jsonBody);
    if (!op.public) chain.push(steps.authenticate);
    if (op.roles && op.roles.length > 0) chain.push(steps.roles);
    chain.push(steps.validate);
    if (!op.public) chain.push(steps.tenant);
    if (rateClassOf(op)) chain.push(steps.rateLimit);
    if (op.idempotency !== undefined || method === 'POST' || method === 'PATCH')
      chain.push(steps.idempotency);
    chain.push(handlerStep);
    return compose(chain);
  }
  const chains = new Map<Operation, (ex: Exchange) => Promise<void>>();
  for (const op of operations) chains.set(op, chainFor(op));
  const runOperation = (ex: Exchange): Promise<void> => {
    const op = ex.operation as Operation;
    let chain = chains.get(op);
    if (!chain) {
      chain = chainFor(op);
      chains.set(op, chain);
    }
    return chain(ex);
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
    if ('sse' in result) {
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
      return new Response(body, { status: result.status, headers: { ...SSE_HEADERS, ...headers } });
    }
    if ('raw' in result) {
      return new Response(result.raw as ConstructorParameters<typeof Response>[0], {
        status: result.status,
        headers,
      });
    }
    if (result.status === 204 || result.status === 304 || result.body === undefined) {
      return new Response(null, { status: result.status, headers });
    }
    return new Response(JSON.stringify(result.body), {
      status: result.status,
      headers: { ...jsonHeaders, ...headers },
    });
  }

  /** The exchange and the handler's context for one request; log, headers and signal made when read. */
  function exchange(input: DispatchInput): Exchange {
    const ex = new KernelExchange(input.request, input.url);
    const ctx = new KernelContext(input, o.logger, ex, makeTransaction);
    ex.ctx = ctx;
    ex.responseHeaders['x-request-id'] = ctx.requestId;
    return ex;
  }

  /** Error handler, routing and the operation's chain (as the middleware did); then access log and metrics. */
  async function execute(ex: Exchange): Promise<HandlerResult> {
    try {
      try {
        const found = router.lookup(ex.request.method, ex.url.pathname);
        if (found.kind === 'not_found') throw notFound('not_found', `No such path: ${ex.url.pathname}`);
        if (found.kind === 'method_not_allowed') {
          throw new HttpError(405, 'method_not_allowed', `${ex.request.method} is not allowed here.`, {
            headers: { allow: found.allow.join(', ') },
          });
        }
        const op = found.match.operation;
        ex.operation = op;
        ex.route = op.path;
        ex.rawParams = found.match.params;
        ex.ctx.operationId = op.operationId;
        await runOperation(ex);
      } catch (err) {
        if (err instanceof HttpError || err instanceof ValidationError) {
          const r = renderError(err, ex.ctx.requestId);
          if (r.status >= 500)
            ex.ctx.log.warn({ err, code: (r.body as { code?: string }).code }, 'request failed');
          ex.result = { status: r.status, body: r.body, headers: r.headers };
        } else {
          ex.ctx.log.error({ err }, 'unhandled error');
          ex.result = {
            status: 500,
            body: { detail: 'Internal server error.', code: 'internal_error', request_id: ex.ctx.requestId },
          };
        }
      }
    } finally {
      recordAccess(ex, o.metrics, o.logger);
    }
    return (
      ex.result ?? {
        status: 500,
        body: { detail: 'No response.', code: 'internal_error', request_id: ex.ctx.requestId },
      }
    );
  }

  async function handle(request: Request, info: RequestInfo = {}): Promise<Response> {
    active += 1;
    try {
      const ex = exchange({
        request,
        url: new URL(request.url),
        ip: info.ip ?? '127.0.0.1',
        signal: info.signal ?? request.signal,
        headers: webHeaderRecord(request),
      });
      return toResponse(ex, await execute(ex));
    } finally {
      active -= 1;
    }
  }

  async function dispatch(input: DispatchInput): Promise<Reply> {
    active += 1;
    try {
      const ex = exchange(input);
      const result = await execute(ex);
      const status = result.status;
      // Streams, non-JSON bodies and statuses a web Response would refuse keep the Response path.
      if ('sse' in result || 'raw' in result || status < 200 || status > 599 || status === 205) {
        return { response: toResponse(ex, result) };
      }
      if (status === 204 || status === 304 || result.body === undefined) {
        return {
          status,
          headers: normalizeHeaders({ ...ex.responseHeaders, ...(result.headers ?? {}) }),
          body: null,
        };
      }
      const text = JSON.stringify(result.body) as string | undefined;
      const headers = normalizeHeaders({ ...jsonHeaders, ...ex.responseHeaders, ...(result.headers ?? {}) });
      if (text === undefined) return { status, headers, body: null };
      headers['content-length'] = String(Buffer.byteLength(text));
      return { status, headers, body: text };
    } finally {
      active -= 1;
    }
  }

  return {
    handle,
    dispatch,
    operations,
    unimplemented: operations.filter((op) => !handlerFor(op)).map((op) => op.operationId),
    inFlight: () => active,
    shutdown: () => shutdownController.abort(),
    shuttingDown: shutdownController.signal,
  };
}
