import { API_VERSION } from '@travel/contract';
import type { Logger as PinoLogger } from 'pino';
import type { SpanHandle } from '../observability/tracing.ts';
import type { Exchange, IdempotencyClaim, KernelRequest, RequestUrl } from './context.ts';
import type { Operation } from './contract.ts';
import type { DispatchInput } from './kernel.ts';
import { incomingRequestId, mintRequestId } from './middleware/request-id.ts';
import type { AuthContext, HandlerResult, IdempotencyContext, Logger, RequestContext } from './types.ts';

/**
 * On every response (contracts §9): the API version, no MIME sniffing, and nothing stored by a browser or proxy cache,
 * since most answers are a caller's own data or carry tokens. A handler may set its own cache-control
 * for public data (the contract document).
 */
export const HYGIENE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
  // The contract version that served the answer (docs/api-versioning.md).
  'api-version': API_VERSION,
});

const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});

/** One request's exchange: a class, so every request gets the same object shape without closures. */
export class KernelExchange implements Exchange {
  request: KernelRequest;
  url: RequestUrl;
  startedAt = performance.now();
  operation: Operation | undefined = undefined;
  route = '';
  /** Set by the router; until then none (shared and frozen: validation copies it, nothing writes it). */
  rawParams: Record<string, string> = NO_PARAMS;
  rawBody: Uint8Array | undefined = undefined;
  ctx!: RequestContext;
  result: HandlerResult | undefined = undefined;
  idempotency: IdempotencyClaim | undefined = undefined;
  span: SpanHandle | undefined = undefined;
  /** The CORS headers for this request's origin, flat `[name, value, ...]` (shared: never written). */
  readonly corsHeaders: readonly string[];
  #responseHeaders: Record<string, string> | undefined;

  constructor(request: KernelRequest, url: RequestUrl, corsHeaders: readonly string[]) {
    this.request = request;
    this.url = url;
    this.corsHeaders = corsHeaders;
  }

  /** Hygiene, CORS and request id headers as a record, made on first read (the JSON path never reads it). */
  get responseHeaders(): Record<string, string> {
    if (!this.#responseHeaders) {
      const h: Record<string, string> = { ...HYGIENE_HEADERS };
      const cors = this.corsHeaders;
      for (let i = 0; i + 1 < cors.length; i += 2) h[cors[i] as string] = cors[i + 1] as string;
      h['x-request-id'] = this.ctx.requestId;
      this.#responseHeaders = h;
    }
    return this.#responseHeaders;
  }
  set responseHeaders(v: Record<string, string>) {
    this.#responseHeaders = v;
  }

  /** Whether `responseHeaders` was read or set (it may have been changed: the reply then merges it). */
  get responseHeadersMade(): boolean {
    return this.#responseHeaders !== undefined;
  }
}

type MakeTransaction = (ex: Exchange) => RequestContext['transaction'];

/**
 * The handler's context. The request id is the incoming `X-Request-Id` when sane, else a minted one.
 * What is costly and often unused is made on first read: the logger bound to the request id (a pino
 * child), the header record, and the client-gone signal (the adapter then listens for the socket).
 */
export class KernelContext implements RequestContext {
  requestId: string;
  operationId = '';
  method: string;
  path: string;
  params: Record<string, unknown> = {};
  query: Record<string, unknown> = {};
  body: unknown = undefined;
  auth: AuthContext | null = null;
  ip: string;
  idempotency: IdempotencyContext | undefined = undefined;
  #input: DispatchInput;
  #root: PinoLogger;
  #ex: Exchange;
  #makeTransaction: MakeTransaction;
  #log: Logger | undefined;
  #headers: Record<string, string | undefined> | undefined;
  #signal: AbortSignal | undefined;
  #transaction: RequestContext['transaction'] | undefined;

  constructor(input: DispatchInput, root: PinoLogger, ex: Exchange, makeTransaction: MakeTransaction) {
    this.#input = input;
    this.#root = root;
    this.#ex = ex;
    this.#makeTransaction = makeTransaction;
    this.requestId = incomingRequestId(input.request.headers.get('x-request-id')) ?? mintRequestId();
    this.method = input.request.method;
    this.path = input.url.pathname;
    this.ip = input.ip;
    if (typeof input.signal !== 'function') this.#signal = input.signal;
  }

  get headers(): Record<string, string | undefined> {
    this.#headers ??= this.#input.headers();
    return this.#headers;
  }
  set headers(v: Record<string, string | undefined>) {
    this.#headers = v;
  }

  get signal(): AbortSignal {
    this.#signal ??= (this.#input.signal as () => AbortSignal)();
    return this.#signal;
  }
  set signal(v: AbortSignal) {
    this.#signal = v;
  }

  get log(): Logger {
    // With tracing on, every line of the request names its trace.
    this.#log ??= this.#root.child(
      this.#ex.span
        ? { req_id: this.requestId, trace_id: this.#ex.span.traceId }
        : { req_id: this.requestId },
    );
    return this.#log;
  }
  set log(v: Logger) {
    this.#log = v;
  }

  /** Made on first read (most requests never open one). */
  get transaction(): RequestContext['transaction'] {
    this.#transaction ??= (fn) => this.#makeTransaction(this.#ex)(fn);
    return this.#transaction;
  }
  set transaction(v: RequestContext['transaction']) {
    this.#transaction = v;
  }
}
