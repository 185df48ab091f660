/**
 * `createTravelClient`: the composition root of the SDK. Everything runtime-specific (fetch, clock, sleep,
 * randomness) is injected here with web-standard defaults, so the same code runs on Node, browsers, Deno,
 * Bun and edge runtimes, and tests never wait for real time.
 */

import type { paths } from '@travel/contract';
import openapiFetch from 'openapi-fetch';
import type { Logger } from './core/logging.ts';
import type { PendingPollOptions } from './core/pending.ts';
import { requestInit } from './core/request.ts';
import { DEFAULT_RETRY, type RetryOptions, sleep as realSleep, type Sleep } from './core/retry.ts';
import { jsonPoster, Session, type TravelAuth } from './core/session.ts';
import { createTransport, credentialsFrom, type FetchLike, type TokenSource } from './core/transport.ts';
import { userAgent } from './core/user-agent.ts';
import { adminResource } from './resources/admin.ts';
import { ancillariesResource } from './resources/ancillaries.ts';
import { authResource } from './resources/auth.ts';
import { bookingsResource } from './resources/bookings.ts';
import { companyResource } from './resources/company.ts';
import type { ClientContext } from './resources/context.ts';
import { customerResource } from './resources/customer.ts';
import { eventsResource } from './resources/events.ts';
import { flightsResource } from './resources/flights.ts';
import { hotelsResource } from './resources/hotels.ts';
import { paymentsResource } from './resources/payments.ts';
import { referenceResource } from './resources/reference.ts';
import { seatsResource } from './resources/seats.ts';
import { serviceResource } from './resources/service.ts';
import { ticketsResource } from './resources/tickets.ts';
import { transfersResource } from './resources/transfers.ts';
import { VERSION } from './version.ts';

// openapi-fetch's CJS build sets `exports.default` without `__esModule`, so a CJS bundle's default import
// is the whole exports object there; unwrap it (the ESM build hands us the function directly).
const createClient: typeof openapiFetch =
  typeof openapiFetch === 'function'
    ? openapiFetch
    : (openapiFetch as unknown as { default: typeof openapiFetch }).default;

/** Options of `createTravelClient`; only `baseUrl` is required. */
export interface TravelClientOptions {
  /** e.g. `https://sandbox.example.com` (without `/api/v1`). */
  baseUrl: string;
  /**
   * How to authenticate: `{ apiKey }` (servers, CI), `{ email, password }` or `{ refreshToken }` (a
   * session the SDK keeps alive: renewed before the access token expires and after a 401 `token_expired`,
   * the call then sent again with the same Idempotency-Key; `onTokens` receives each new pair).
   */
  auth?: TravelAuth;
  /** A fixed bearer token (never renewed). `auth.login()` starts a renewable session instead. */
  token?: string;
  /** Called before every attempt (so it can refresh); wins over `token` and `auth`. */
  getToken?: TokenSource;
  /** Defaults to the global fetch, looked up at call time (so MSW and polyfills installed later apply). */
  fetch?: FetchLike;
  /** Sent on every request (a request's own `headers` option wins), e.g. `{ 'X-Client-Name': 'booking-ui' }`. */
  headers?: Record<string, string>;
  /** Per attempt, default 30000 ms. Streams are exempt once connected. */
  timeoutMs?: number;
  /** Automatic retries after the first attempt, default 2. */
  maxRetries?: number;
  /** Backoff tuning: `baseDelayMs`, `maxDelayMs`, `maxRetryAfterMs`. */
  retry?: Partial<Omit<RetryOptions, 'maxRetries'>>;
  /** Receives one redacted record per HTTP attempt. */
  logger?: Logger;
  /** Defaults for polling a 502 pending booking. */
  pending?: PendingPollOptions;
  /** Injectable for tests: how to wait, what time it is, where jitter comes from. */
  sleep?: Sleep;
  now?: () => number;
  random?: () => number;
}

/** The client: `raw` reaches every operation of the contract; the namespaces do the common work safely. */
export interface TravelClient {
  /** The typed openapi-fetch client (same auth, retries, logging). Every operation, typed by the contract. */
  raw: ReturnType<typeof createClient<paths>>;
  auth: ReturnType<typeof authResource>;
  reference: ReturnType<typeof referenceResource>;
  flights: ReturnType<typeof flightsResource>;
  bookings: ReturnType<typeof bookingsResource>;
  payments: ReturnType<typeof paymentsResource>;
  tickets: ReturnType<typeof ticketsResource>;
  seats: ReturnType<typeof seatsResource>;
  ancillaries: ReturnType<typeof ancillariesResource>;
  hotels: ReturnType<typeof hotelsResource>;
  transfers: ReturnType<typeof transfersResource>;
  admin: ReturnType<typeof adminResource>;
  company: ReturnType<typeof companyResource>;
  events: ReturnType<typeof eventsResource>;
  customer: ReturnType<typeof customerResource>;
  service: ReturnType<typeof serviceResource>;
}

/**
 * Creates a client.
 *
 * @example
 * // A server or CI job: an API key from the secret store.
 * const travel = createTravelClient({ baseUrl: 'http://localhost:8080', auth: { apiKey: process.env.TRAVEL_API_KEY! } });
 * // An app: a session that renews itself and hands each new refresh token to `onTokens`.
 * const app = createTravelClient({
 *   baseUrl: 'http://localhost:8080',
 *   auth: { refreshToken: stored, onTokens: (t) => save(t.refreshToken) },
 * });
 * const me = await app.auth.me();
 */
export function createTravelClient(options: TravelClientOptions): TravelClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 30_000;
  const sleep = options.sleep ?? realSleep;
  const now = options.now ?? Date.now;
  const auth = options.auth;
  const apiKey = auth && 'apiKey' in auth ? auth.apiKey : undefined;
  // Filled in below, once the transport that carries the session's own calls exists.
  let session: Session | undefined;
  const transport = createTransport({
    fetch: options.fetch ?? ((request) => globalThis.fetch(request)),
    authorize: credentialsFrom({
      apiKey,
      token: options.getToken ?? (() => session?.accessToken()),
    }),
    renew: options.getToken || apiKey ? undefined : (sent) => (session as Session).renewAfterExpiry(sent),
    timeoutMs,
    retry: { ...DEFAULT_RETRY, ...options.retry, maxRetries: options.maxRetries ?? DEFAULT_RETRY.maxRetries },
    logger: options.logger,
    userAgent: userAgent(VERSION),
    defaultHeaders: options.headers,
    sleep,
    random: options.random ?? Math.random,
    now,
  });
  session = new Session(auth, options.token, {
    post: jsonPoster(baseUrl, (request) => transport(request, { anonymous: true })),
    now,
  });
  const raw = createClient<paths>({ baseUrl, fetch: (request) => transport(request) });
  const ctx: ClientContext = {
    raw,
    baseUrl,
    stream: { transport, sleep },
    poll: { sleep, now },
    pending: options.pending ?? {},
    session,
    timeoutMs,
    init: (callOptions, own) => requestInit(transport, callOptions, own),
  };
  return {
    raw,
    auth: authResource(ctx),
    reference: referenceResource(ctx),
    flights: flightsResource(ctx),
    bookings: bookingsResource(ctx),
    payments: paymentsResource(ctx),
    tickets: ticketsResource(ctx),
    seats: seatsResource(ctx),
    ancillaries: ancillariesResource(ctx),
    hotels: hotelsResource(ctx),
    transfers: transfersResource(ctx),
    admin: adminResource(ctx),
    company: companyResource(ctx),
    events: eventsResource(ctx),
    customer: customerResource(ctx),
    service: serviceResource(ctx),
  };
}
