/**
 * When to try a request again, and how long to wait. Pure functions plus an abortable sleep, so tests can
 * inject a fake `sleep` and `random` and never wait for real.
 */

/** Tunables for automatic retries; every field has a default. */
export interface RetryOptions {
  /** Retries after the first attempt (default 2). 0 disables retries. */
  maxRetries: number;
  /** First backoff step in ms (default 500); doubles per attempt. */
  baseDelayMs: number;
  /** Ceiling for one backoff step in ms (default 8000). */
  maxDelayMs: number;
  /** A `Retry-After` longer than this (ms, default 60000) is not waited out: the 429 is thrown instead. */
  maxRetryAfterMs: number;
}

/** Defaults used when the client is given no `retry` options. */
export const DEFAULT_RETRY: RetryOptions = {
  maxRetries: 2,
  baseDelayMs: 500,
  maxDelayMs: 8000,
  maxRetryAfterMs: 60_000,
};

/** Waits `ms`, rejecting early with the signal's reason when it aborts. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/**
 * The real sleep: a timer that an `AbortSignal` cancels.
 *
 * @example
 * await sleep(250, controller.signal);
 */
export const sleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** What the retry decision looks at. */
export interface RetryContext {
  method: string;
  /** Whether the request carries an `Idempotency-Key` (the server then replays instead of repeating). */
  hasIdempotencyKey: boolean;
  /** The HTTP status, or undefined for a network error / timeout. */
  status?: number | undefined;
  /** The `code` of a JSON error body, when there was one. */
  code?: string | undefined;
}

/**
 * Whether a failed attempt may be repeated. Only calls that cannot double an effect are retried (safe
 * methods, or any call with an Idempotency-Key), and only on failures that say "nothing happened, try
 * later": network errors, 429, 503, 504, and a 500 `internal_error` (the server rolled its transaction back
 * and released the key, see contracts.md section 3). Never 408 (batch partial result), 409 (in travel that
 * can mean the fare is gone), 502 (pending confirmation: the booking exists).
 *
 * @example
 * isRetryable({ method: 'POST', hasIdempotencyKey: true, status: 503 }); // true
 * isRetryable({ method: 'POST', hasIdempotencyKey: true, status: 502 }); // false
 */
export function isRetryable(ctx: RetryContext): boolean {
  if (!SAFE_METHODS.has(ctx.method.toUpperCase()) && !ctx.hasIdempotencyKey) return false;
  if (ctx.status === undefined) return true;
  if (ctx.status === 429 || ctx.status === 503 || ctx.status === 504) return true;
  return ctx.status === 500 && ctx.code === 'internal_error';
}

/**
 * Exponential backoff with "equal jitter": half the step is fixed, half random, so a burst of clients spreads
 * out without any of them retrying instantly.
 *
 * @example
 * backoffDelay(0, DEFAULT_RETRY, () => 0.5); // 375
 */
export function backoffDelay(
  attempt: number,
  options: RetryOptions,
  random: () => number = Math.random,
): number {
  const step = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** attempt);
  return Math.round(step / 2 + (step / 2) * random());
}
