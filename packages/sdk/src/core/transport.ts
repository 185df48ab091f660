/**
 * The fetch wrapper every request goes through, `client.raw` included: bearer token, per-attempt timeout,
 * retries with backoff (see retry.ts for when), debug logging with redaction, and the request id and
 * idempotency key of the final attempt recorded against the response (read them with `responseMeta`).
 */
import { ConnectionError, parseRetryAfterSeconds } from './errors.ts';
import { IDEMPOTENCY_HEADER } from './idempotency.ts';
import { type Logger, type LogRecord, redact, redactUrl } from './logging.ts';
import { backoffDelay, isRetryable, type RetryOptions, type Sleep } from './retry.ts';

/** A `fetch` that takes a `Request`, as openapi-fetch calls it. */
export type FetchLike = (input: Request) => Promise<Response>;

/** Returns the bearer token to send, or undefined for none; called before every attempt so it may refresh. */
export type TokenSource = () => string | undefined | Promise<string | undefined>;

/** Everything the transport needs; `createTravelClient` fills in the defaults. */
export interface TransportConfig {
  fetch: FetchLike;
  getToken: TokenSource;
  timeoutMs: number;
  retry: RetryOptions;
  logger: Logger | undefined;
  sleep: Sleep;
  random: () => number;
  now: () => number;
}

/** Per-request overrides. `timeoutMs: false` is for SSE streams, whose body legitimately stays open. */
export interface TransportCallOptions {
  timeoutMs?: number | false;
}

/** Sends one logical request (maybe several attempts) and resolves with the final response. */
export type Transport = (request: Request, options?: TransportCallOptions) => Promise<Response>;

/** What the SDK knows about the response a logical call ended with. */
export interface ResponseMeta {
  /** The server's `X-Request-Id` of the final attempt: quote it to support. */
  requestId: string | undefined;
  /** The `Idempotency-Key` sent on every attempt, when the call had one. */
  idempotencyKey: string | undefined;
  attempts: number;
}

const META = new WeakMap<Response, ResponseMeta>();

/**
 * The request id and idempotency key behind a response the transport returned.
 *
 * @example
 * const { response } = await client.raw.GET('/api/v1/auth/me');
 * responseMeta(response).requestId; // 'req_01H...'
 */
export function responseMeta(response: Response): ResponseMeta {
  return (
    META.get(response) ?? {
      requestId: response.headers.get('x-request-id') ?? undefined,
      idempotencyKey: undefined,
      attempts: 1,
    }
  );
}

/**
 * Builds the transport. One instance per client.
 *
 * @example
 * const transport = createTransport({ fetch, getToken: () => token, timeoutMs: 30_000, retry: DEFAULT_RETRY,
 *   logger: undefined, sleep, random: Math.random, now: Date.now });
 */
export function createTransport(config: TransportConfig): Transport {
  return async function transport(request, options = {}) {
    const idempotencyKey = request.headers.get(IDEMPOTENCY_HEADER) ?? undefined;
    const retryBase = { method: request.method, hasIdempotencyKey: idempotencyKey !== undefined };
    const timeoutMs = options.timeoutMs ?? config.timeoutMs;
    const logBody = config.logger ? await readJsonBody(request) : undefined;
    for (let attempt = 0; ; attempt++) {
      const canRetry = attempt < config.retry.maxRetries;
      const timeout = timeoutMs ? AbortSignal.timeout(timeoutMs) : undefined;
      const started = config.now();
      const log = (status: number | undefined, requestId: string | undefined, error?: string) =>
        config.logger?.debug(`${request.method} ${status ?? 'ERR'}`, {
          method: request.method,
          path: redactUrl(request.url),
          status,
          latencyMs: config.now() - started,
          requestId,
          attempt: attempt + 1,
          idempotencyKey,
          body: logBody,
          error,
        } satisfies LogRecord);
      let response: Response;
      try {
        response = await config.fetch(await prepareAttempt(request, config.getToken, timeout));
      } catch (error) {
        // The caller's own abort is not a network failure: surface it unchanged.
        if (request.signal.aborted) throw error;
        log(undefined, undefined, describeFailure(error));
        if (canRetry && isRetryable(retryBase)) {
          await config.sleep(backoffDelay(attempt, config.retry, config.random), request.signal);
          continue;
        }
        throw new ConnectionError({
          timedOut: timeout?.aborted ?? false,
          idempotencyKey,
          cause: error,
          message: describeFailure(error),
        });
      }
      const requestId = response.headers.get('x-request-id') ?? undefined;
      log(response.status, requestId);
      if (!response.ok && canRetry) {
        const code = response.status === 500 ? await peekErrorCode(response) : undefined;
        const wait = isRetryable({ ...retryBase, status: response.status, code })
          ? retryDelay(response, attempt, config)
          : undefined;
        if (wait !== undefined) {
          await response.body?.cancel().catch(() => undefined);
          await config.sleep(wait, request.signal);
          continue;
        }
      }
      META.set(response, { requestId, idempotencyKey, attempts: attempt + 1 });
      return response;
    }
  };
}

async function prepareAttempt(request: Request, getToken: TokenSource, timeout: AbortSignal | undefined) {
  const headers = new Headers(request.headers);
  const token = await getToken();
  if (token && !headers.has('authorization')) headers.set('Authorization', `Bearer ${token}`);
  const signal = timeout ? AbortSignal.any([request.signal, timeout]) : request.signal;
  // Clone per attempt: a body can be read once, and the original must stay intact for the next retry.
  return new Request(request.clone(), { headers, signal });
}

// Undefined means "do not retry after all": a Retry-After longer than we are willing to wait.
function retryDelay(response: Response, attempt: number, config: TransportConfig): number | undefined {
  const retryAfter = parseRetryAfterSeconds(response.headers, config.now());
  if (retryAfter === undefined) return backoffDelay(attempt, config.retry, config.random);
  const ms = retryAfter * 1000;
  return ms > config.retry.maxRetryAfterMs ? undefined : ms;
}

async function peekErrorCode(response: Response): Promise<string | undefined> {
  const body = (await response
    .clone()
    .json()
    .catch(() => undefined)) as { code?: unknown } | undefined;
  return typeof body?.code === 'string' ? body.code : undefined;
}

async function readJsonBody(request: Request): Promise<unknown> {
  if (!request.body) return undefined;
  const text = await request.clone().text();
  try {
    return redact(JSON.parse(text));
  } catch {
    return undefined;
  }
}

// "fetch failed" alone says nothing; undici puts the useful part (ECONNREFUSED, ENOTFOUND) in `cause`.
function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined;
  const detail =
    typeof cause?.code === 'string' ? cause.code : typeof cause?.message === 'string' ? cause.message : '';
  return detail ? `${error.message} (${detail})` : error.message;
}
