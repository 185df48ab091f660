/**
 * Per-request options, the last argument of every SDK method (as in openai-node and anthropic-sdk): they
 * override the client's defaults for one logical call and become openapi-fetch's per-request init.
 */
import { IDEMPOTENCY_HEADER } from './idempotency.ts';
import type { FetchLike, Transport } from './transport.ts';

/** Options every SDK method takes as its last argument; all optional. */
export interface RequestOptions {
  /** Aborts the call: every attempt, the waits between them and the polling of a pending booking. */
  signal?: AbortSignal;
  /** Per-attempt timeout in ms for this call (the client's `timeoutMs` otherwise). */
  timeout?: number;
  /** Automatic retries for this call (the client's `maxRetries` otherwise); `0` disables them. */
  maxRetries?: number;
  /** Extra headers for this call (a request that names `Authorization` or `X-API-Key` keeps its own). */
  headers?: Record<string, string>;
  /**
   * Sent as `Idempotency-Key`. Methods that move money or book make a fresh key when you give none and
   * return it; the others send it only when you give one (and then their POSTs are retried like theirs).
   */
  idempotencyKey?: string;
}

/** The part of openapi-fetch's per-request init the options turn into. */
export interface RequestInitParts {
  signal?: AbortSignal;
  headers?: Record<string, string>;
  fetch?: FetchLike;
}

/**
 * openapi-fetch init for one call: the signal, the headers (with `own`, e.g. the Idempotency-Key an
 * idempotent method resolved, on top) and, for a per-call timeout or retry budget, a fetch that tells the
 * transport so.
 *
 * @example
 * raw.GET('/api/v1/auth/me', requestInit(transport, { timeout: 5000, headers: { 'X-Trace': 't1' } }));
 */
export function requestInit(
  transport: Transport,
  options: RequestOptions | undefined,
  own?: Record<string, string>,
): RequestInitParts {
  const init: RequestInitParts = {};
  if (options?.signal) init.signal = options.signal;
  const headers = {
    ...(options?.idempotencyKey ? { [IDEMPOTENCY_HEADER]: options.idempotencyKey } : {}),
    ...options?.headers,
    ...own,
  };
  if (Object.keys(headers).length > 0) init.headers = headers;
  const timeout = options?.timeout;
  const maxRetries = options?.maxRetries;
  if (timeout !== undefined || maxRetries !== undefined) {
    init.fetch = (request) =>
      transport(request, {
        ...(timeout !== undefined ? { timeoutMs: timeout } : {}),
        ...(maxRetries !== undefined ? { maxRetries } : {}),
      });
  }
  return init;
}
