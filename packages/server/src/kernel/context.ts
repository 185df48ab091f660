import type { SpanHandle } from '../observability/tracing.ts';
import type { Operation } from './contract.ts';
import type { HandlerResult, RequestContext } from './types.ts';

/**
 * The parts of the incoming request the middleware reads. A web `Request` is one (`kernel.handle`); the
 * node adapter passes a lighter view of `IncomingMessage` whose body stream is only made when read.
 */
export interface KernelRequest {
  readonly method: string;
  readonly headers: { get(name: string): string | null };
  readonly body: ReadableStream<Uint8Array> | null;
  /**
   * The whole body read straight from the transport, without a web stream: the bytes, or null when it
   * runs past `limit` (reading stops there); rejects when the client went away mid-body. Optional: the
   * body-limit step reads `body` where it is missing.
   */
  readBody?(limit: number): Promise<Uint8Array | null>;
}

/**
 * What the middleware chain passes along for one request: the request, the `RequestContext` the
 * handler will see (filled in step by step), and the result. Kernel-internal; handlers see only `ctx`.
 */
/** The parts of the request URL the middleware reads; a `URL` is one. */
export interface RequestUrl {
  readonly pathname: string;
  readonly search: string;
  readonly searchParams: URLSearchParams;
}

export interface Exchange {
  request: KernelRequest;
  url: RequestUrl;
  startedAt: number;
  /** Matched operation (set by the router). */
  operation: Operation | undefined;
  /** The route template for metrics and logs (never the raw path: unbounded label values). */
  route: string;
  /** Raw path parameters from the router. */
  rawParams: Record<string, string>;
  rawBody: Uint8Array | undefined;
  ctx: RequestContext;
  result: HandlerResult | undefined;
  /** Headers every response carries (request id, replay marker). */
  responseHeaders: Record<string, string>;
  /** Set by the idempotency middleware while a key is claimed. */
  idempotency: IdempotencyClaim | undefined;
  /** The request's span while tracing is on (observability/tracing.ts). */
  span?: SpanHandle | undefined;
}

export interface IdempotencyClaim {
  scope: string;
  /** True once the response is stored (inside the handler's transaction or after it). */
  stored: boolean;
}
