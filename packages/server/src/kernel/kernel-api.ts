import type { Logger as PinoLogger } from 'pino';
import type { IdempotencyStore } from '../idempotency/idempotency-store.ts';
import type { RateRule } from '../internal/config.ts';
import type { TokenService } from '../internal/tokens.ts';
import type { TrustProxy } from '../internal/trust-proxy.ts';
import type { RateLimitStore } from '../rate-limit/rate-limit-store.ts';
import type { Db } from '../storage/schema.ts';
import type { KernelRequest, RequestUrl } from './context.ts';
import type { OpenApiDoc, Operation } from './contract.ts';
import type { HttpMetrics } from './metrics.ts';
import type { CorsPolicy } from './middleware/cors.ts';
import type { RateClass } from './middleware/rate-limit.ts';
import type { PrincipalStore } from './principal.ts';
import type { ResponseValidationMode, ResponseViolation } from './response-validator.ts';
import type { SseRun, SseTransport } from './sse.ts';
import type { HandlerTable } from './types.ts';

// The kernel's surface: what `createKernel` (kernel.ts) takes, and what its transports call.

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
