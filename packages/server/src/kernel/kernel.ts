import type { Logger as PinoLogger } from 'pino';
import type { IdempotencyStore } from '../idempotency/idempotency-store.ts';
import type { RateRule } from '../internal/config.ts';
import { newRequestId } from '../internal/ids.ts';
import type { TokenService } from '../internal/tokens.ts';
import type { RateLimitStore } from '../rate-limit/rate-limit-store.ts';
import type { Db } from '../storage/schema.ts';
import { compose, type Middleware } from './compose.ts';
import type { Exchange } from './context.ts';
import { listOperations, type OpenApiDoc, type Operation } from './contract.ts';
import { notSupported } from './errors.ts';
import type { HttpMetrics } from './metrics.ts';
import { accessLog } from './middleware/access-log.ts';
import { authenticate, roles } from './middleware/auth.ts';
import { bodyLimit } from './middleware/body-limit.ts';
import { contentType } from './middleware/content-type.ts';
import { errorHandler } from './middleware/error-handler.ts';
import { idempotency, storedForm } from './middleware/idempotency.ts';
import { jsonBody } from './middleware/json-body.ts';
import { type RateClass, rateLimit } from './middleware/rate-limit.ts';
import { requestId } from './middleware/request-id.ts';
import { route } from './middleware/route.ts';
import { tenant } from './middleware/tenant.ts';
import { validate } from './middleware/validate.ts';
import type { PrincipalStore } from './principal.ts';
import { Router } from './router.ts';
import { SchemaCompiler } from './schema-compiler.ts';
import { SSE_HEADERS, sseStream } from './sse.ts';
import type { HandlerResult, RequestContext, Routes } from './types.ts';

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

export interface Kernel {
  /** Dispatch without a socket: a web Request in, a web Response out. */
  handle(request: Request, info?: RequestInfo): Promise<Response>;
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

export function createKernel(o: KernelOptions): Kernel {
  const operations = listOperations(o.doc);
  const compiler = new SchemaCompiler(o.doc);
  const router = new Router(operations);
  const shutdownController = new AbortController();
  let active = 0;

  // A handler is registered under its operationId, or under `METHOD /path` (fixed platform paths).
  const handlerFor = (op: Operation) => o.routes[op.operationId] ?? o.routes[`${op.method} ${op.path}`];
  const handlerStep: Middleware = async function handlerMiddleware(ex) {
    const op = ex.operation;
    const handler = op && handlerFor(op);
    if (!op || !handler) {
      throw notSupported('not_implemented', `${op?.operationId ?? 'This operation'} is not implemented yet.`);
    }
    ex.result = await handler(ex.ctx);
  };

  const run = compose([
    requestId({ logger: o.logger }),
    accessLog({ metrics: o.metrics }),
    errorHandler(),
    route({ router }),
    contentType(),
    bodyLimit({ limitBytes: o.bodyLimitBytes }),
    jsonBody(),
    authenticate({ tokens: o.tokens, principals: o.principals }),
    roles(),
    validate({ compiler, operations }),
    tenant(),
    rateLimit({ store: o.rateLimitStore, rules: o.rateRules }),
    idempotency({ store: o.idempotencyStore }),
    handlerStep,
  ]);

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

  async function handle(request: Request, info: RequestInfo = {}): Promise<Response> {
    active += 1;
    try {
      const url = new URL(request.url);
      const rid = newRequestId();
      const signal = info.signal ?? request.signal;
      const ex: Exchange = {
        request,
        url,
        startedAt: performance.now(),
        operation: undefined,
        route: '',
        rawParams: {},
        rawBody: undefined,
        result: undefined,
        responseHeaders: {},
        idempotency: undefined,
        ctx: undefined as unknown as RequestContext,
      };
      const ctx: RequestContext = {
        requestId: rid,
        operationId: '',
        method: request.method,
        path: url.pathname,
        params: {},
        query: {},
        headers: Object.fromEntries([...request.headers].map(([k, v]) => [k.toLowerCase(), v])),
        body: undefined,
        auth: null,
        ip: info.ip ?? '127.0.0.1',
        signal,
        log: o.logger,
        transaction: (fn) => makeTransaction(ex)(fn),
      };
      ex.ctx = ctx;
      await run(ex);
      return toResponse(
        ex,
        ex.result ?? {
          status: 500,
          body: { detail: 'No response.', code: 'internal_error', request_id: rid },
        },
      );
    } finally {
      active -= 1;
    }
  }

  return {
    handle,
    operations,
    unimplemented: operations.filter((op) => !handlerFor(op)).map((op) => op.operationId),
    inFlight: () => active,
    shutdown: () => shutdownController.abort(),
    shuttingDown: shutdownController.signal,
  };
}
