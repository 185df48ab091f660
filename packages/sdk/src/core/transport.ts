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

/** Sets the request's credentials (unless it carries its own); returns the bearer token it sent, if any. */
export type Authorize = (headers: Headers) => Promise<string | undefined>;

/** Everything the transport needs; `createTravelClient` fills in the defaults. */
export interface TransportConfig {
  fetch: FetchLike;
  authorize: Authorize;
  /**
   * Called once per call after a 401 `token_expired` with the token that was sent; resolves true when a
   * fresh token is in place (the call is then sent again, same Idempotency-Key), false to keep the 401.
   */
  renew?: ((sent: string | undefined) => Promise<boolean>) | undefined;
  timeoutMs: number;
  retry: RetryOptions;
  logger: Logger | undefined;
  /** Sent as `User-Agent` unless the request names its own; undefined where the runtime forbids it. */
  userAgent?: string | undefined;
  /** Sent on every request that does not name the header itself. */
  defaultHeaders?: Record<string, string> | undefined;
  sleep: Sleep;
  random: () => number;
  now: () => number;
}

/** Per-request overrides. `timeoutMs: false` is for SSE streams, whose body legitimately stays open. */
export interface TransportCallOptions {
  timeoutMs?: number | false;
  /** Send without credentials and never renew (the session's own login and refresh calls). */
  anonymous?: boolean;
  /** Automatic retries for this call instead of the client's. */
  maxRetries?: number;
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
 * const transport = createTransport({ fetch, authorize: credentialsFrom({ token: () => token }), timeoutMs: 30_000, retry: DEFAULT_RETRY,
 *   logger: undefined, sleep, random: Math.random, now: Date.now });
 */
export function createTransport(config: TransportConfig): Transport {
  return async function transport(request, options = {}) {
    const idempotencyKey = request.headers.get(IDEMPOTENCY_HEADER) ?? undefined;
    const retryBase = { method: request.method, hasIdempotencyKey: idempotencyKey !== undefined };
    const timeoutMs = options.timeoutMs ?? config.timeoutMs;
    const logBody = config.logger ? await readJsonBody(request) : undefined;
    const authorize = options.anonymous ? noCredentials : config.authorize;
    let renewed = options.anonymous === true || !config.renew;
    const maxRetries = options.maxRetries ?? config.retry.maxRetries;
    for (let attempt = 0; ; attempt++) {
      const canRetry = attempt < maxRetries;
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
      // Outside the network try: a session that cannot renew (SessionEndedError) is not a connection failure.
      const prepared = await prepareAttempt(request, authorize, timeout, config);
      const sent = prepared.sent;
      let response: Response;
      try {
        response = await untilAborted(config.fetch(prepared.request), request.signal, timeout);
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
      // An expired access token: renew once (shared with concurrent calls) and send the same request
      // again, Idempotency-Key included. Not counted as a retry.
      if (response.status === 401 && !renewed && (await peekErrorCode(response)) === 'token_expired') {
        renewed = true;
        if (await config.renew?.(sent)) {
          await response.body?.cancel().catch(() => undefined);
          attempt -= 1;
          continue;
        }
      }
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

const noCredentials: Authorize = async () => undefined;

/**
 * The fetch's answer, or the reason of whichever signal aborts first, even from a fetch that ignores its
 * signal. The listeners sit on the caller's signal and the attempt's timeout themselves, not only on the
 * `AbortSignal.any` handed to fetch: that one holds its sources weakly, and Node's timeout timer holds its
 * signal weakly too, so a timeout with no listener of its own can be garbage-collected before it fires
 * (nodejs/node#57736). When nothing else refers to the waiting call (a fetch with no socket behind it),
 * a collection then takes the call with it and it never ends. A timeout with a listener is kept until it
 * fires (the DOM spec's rule). The listeners go once the fetch settles, so the signals are free again.
 */
function untilAborted<T>(work: Promise<T>, ...signals: (AbortSignal | undefined)[]): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const live = signals.filter((signal): signal is AbortSignal => signal !== undefined);
    const onAbort = (event: Event) => reject((event.target as AbortSignal).reason);
    const done = () => {
      for (const signal of live) signal.removeEventListener('abort', onAbort);
    };
    work.then(resolve, reject).finally(done);
    for (const signal of live) {
      if (signal.aborted) return reject(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
    }
  });
}

async function prepareAttempt(
  request: Request,
  authorize: Authorize,
  timeout: AbortSignal | undefined,
  { userAgent, defaultHeaders }: Pick<TransportConfig, 'userAgent' | 'defaultHeaders'>,
) {
  const headers = new Headers(request.headers);
  for (const [name, value] of Object.entries(defaultHeaders ?? {}))
    if (!headers.has(name)) headers.set(name, value);
  if (userAgent && !headers.has('user-agent')) headers.set('User-Agent', userAgent);
  const sent = await authorize(headers);
  const signal = timeout ? AbortSignal.any([request.signal, timeout]) : request.signal;
  // Clone per attempt: a body can be read once, and the original must stay intact for the next retry.
  return { request: new Request(request.clone(), { headers, signal }), sent };
}

/**
 * The usual `authorize`: `X-API-Key` for an API key, else `Authorization: Bearer <token>` from `token()`;
 * a request that already names its credentials keeps them.
 *
 * @example
 * const authorize = credentialsFrom({ token: () => 'eyJ…' });
 */
export function credentialsFrom(source: { apiKey?: string | undefined; token: TokenSource }): Authorize {
  return async (headers) => {
    if (headers.has('authorization') || headers.has('x-api-key')) return undefined;
    if (source.apiKey) {
      headers.set('X-API-Key', source.apiKey);
      return undefined;
    }
    const token = await source.token();
    if (token) headers.set('Authorization', `Bearer ${token}`);
    return token;
  };
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
