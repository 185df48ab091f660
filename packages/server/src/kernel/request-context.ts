import type { Logger as PinoLogger } from 'pino';
import type { Exchange, IdempotencyClaim, KernelRequest, RequestUrl } from './context.ts';
import type { Operation } from './contract.ts';
import type { DispatchInput } from './kernel.ts';
import { incomingRequestId, mintRequestId } from './middleware/request-id.ts';
import type { AuthContext, HandlerResult, Logger, RequestContext } from './types.ts';

/** One request's exchange: a class, so every request gets the same object shape without closures. */
export class KernelExchange implements Exchange {
  request: KernelRequest;
  url: RequestUrl;
  startedAt = performance.now();
  operation: Operation | undefined = undefined;
  route = '';
  rawParams: Record<string, string> = {};
  rawBody: Uint8Array | undefined = undefined;
  ctx!: RequestContext;
  result: HandlerResult | undefined = undefined;
  responseHeaders: Record<string, string> = {};
  idempotency: IdempotencyClaim | undefined = undefined;

  constructor(request: KernelRequest, url: RequestUrl) {
    this.request = request;
    this.url = url;
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
  #input: DispatchInput;
  #root: PinoLogger;
  #ex: Exchange;
  #makeTransaction: MakeTransaction;
  #log: Logger | undefined;
  #headers: Record<string, string | undefined> | undefined;
  #signal: AbortSignal | undefined;

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
    this.#log ??= this.#root.child({ req_id: this.requestId });
    return this.#log;
  }
  set log(v: Logger) {
    this.#log = v;
  }

  transaction: RequestContext['transaction'] = (fn) => this.#makeTransaction(this.#ex)(fn);
}
