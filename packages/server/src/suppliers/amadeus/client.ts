import type * as nodeHttp from 'node:http';
import { createRequire } from 'node:module';
import { buildTag } from '../../internal/build-info.ts';
import type { CallOptions, SupplierName } from '../ports/errors.ts';
import { SupplierError } from '../ports/errors.ts';
import { supplierUrl, UNSAFE_URL } from '../supplier-url.ts';

/**
 * A thin wrapper over the official `amadeus` Node client: it owns the OAuth2 token, we add deadlines,
 * cancellation and the mapping of its error classes to `SupplierError`. The client has no custom
 * headers and no AbortSignal, so the deadline is raced here (the socket finishes on its own).
 */

/** The slice of the untyped `amadeus` package we use. */
interface AmadeusResponse {
  statusCode: number;
  result: unknown;
  data: unknown;
}
interface AmadeusLowLevel {
  get: (path: string, params?: Record<string, unknown>) => Promise<AmadeusResponse>;
  post: (path: string, body?: unknown) => Promise<AmadeusResponse>;
  delete: (path: string, params?: Record<string, unknown>) => Promise<AmadeusResponse>;
  accessToken: { accessToken?: string | null };
}
interface AmadeusSdk {
  client: AmadeusLowLevel;
  shopping: {
    flightOffersSearch: {
      get: (p: Record<string, unknown>) => Promise<AmadeusResponse>;
      post: (b: string) => Promise<AmadeusResponse>;
    };
    flightOffers: {
      pricing: { post: (b: string, extra?: Record<string, string>) => Promise<AmadeusResponse> };
      upselling: { post: (b: string) => Promise<AmadeusResponse> };
    };
    seatmaps: {
      get: (p: Record<string, unknown>) => Promise<AmadeusResponse>;
      post: (b: string) => Promise<AmadeusResponse>;
    };
    transferOffers: { post: (b: string) => Promise<AmadeusResponse> };
  };
  booking: {
    flightOrders: { post: (b: string) => Promise<AmadeusResponse> };
    flightOrder: (id: string) => {
      get: () => Promise<AmadeusResponse>;
      delete: () => Promise<AmadeusResponse>;
    };
  };
  ordering: {
    transferOrders: { post: (b: string, offerId: string) => Promise<AmadeusResponse> };
    transferOrder: (id: string) => {
      transfers: { cancellation: { post: (b: string, confirmNbr: string) => Promise<AmadeusResponse> } };
    };
  };
}

const require = createRequire(import.meta.url);
const AmadeusCtor = require('amadeus') as new (opts: Record<string, unknown>) => AmadeusSdk;

/**
 * The `http` module handed to the SDK: every request it makes (token, search, the generic
 * `client.get/post` paths we build) passes the supplier URL guard against the configured base first.
 * The modules are resolved per request through the CommonJS module object, as the SDK itself does, so
 * that anything instrumenting node:http (APM agents, msw/node in tests) sees these requests too.
 */
function guardedHttp(supplier: SupplierName, baseUrl: string, ssl: boolean) {
  const base = new URL(baseUrl);
  const port = Number(base.port || (ssl ? 443 : 80));
  return {
    request: (o: nodeHttp.RequestOptions) => {
      if (o.host !== base.hostname || Number(o.port) !== port)
        throw new SupplierError(supplier, 'invalid_request', `Refused a ${supplier} request off its host`, {
          supplierCode: UNSAFE_URL,
        });
      // The SDK knows only host and port: the request goes where the guard resolved it, under the whole
      // base URL (its path included: behind a path-routed gateway the credentials reach this API only).
      const url = supplierUrl(supplier, baseUrl, String(o.path ?? '/'));
      const mod = require(ssl ? 'node:https' : 'node:http') as typeof nodeHttp;
      return mod.request({ ...o, path: `${url.pathname}${url.search}`, protocol: ssl ? 'https:' : 'http:' });
    },
  };
}

export interface AmadeusClientConfig {
  clientId: string;
  clientSecret: string;
  /** Base URL, e.g. `https://test.api.amadeus.com` (live) or the emulator's URL (sandbox). */
  baseUrl: string;
  /** Per-call deadline, ms. */
  timeoutMs?: number;
}

export interface AmadeusIssue {
  status?: number;
  code?: number;
  title?: string;
  detail?: string;
}

/** What a failed call looked like, for the adapter's per-operation mapping. */
export interface AmadeusFailure {
  kind: 'http' | 'network' | 'timeout';
  status: number;
  issue: AmadeusIssue | undefined;
}

export class AmadeusClient {
  readonly sdk: AmadeusSdk;
  readonly #timeoutMs: number;
  readonly #supplier: SupplierName;
  constructor(config: AmadeusClientConfig, supplier: SupplierName) {
    const url = new URL(config.baseUrl);
    const ssl = url.protocol === 'https:';
    this.sdk = new AmadeusCtor({
      clientId: config.clientId,
      clientSecret: config.clientSecret,
      host: url.hostname,
      port: Number(url.port || (ssl ? 443 : 80)),
      ssl,
      logLevel: 'silent',
      // Appended to the SDK's User-Agent: `amadeus-node/… node/… travel-server/0.1.0+<commit>`.
      customAppId: 'travel-server',
      customAppVersion: buildTag(),
      // The client reads options as `options[key] || env || default`, so `ssl: false` falls back to true and
      // it would speak TLS to a plain-HTTP emulator. Its documented `http` option lets us hand it node:http
      // (or node:https), behind the supplier URL guard.
      http: guardedHttp(supplier, config.baseUrl, ssl),
    });
    this.#timeoutMs = config.timeoutMs ?? 20_000;
    this.#supplier = supplier;
  }

  /**
   * Runs one SDK call with the deadline and signal. A 401 "expired/invalid token" drops the cached token and
   * retries once: the SDK refreshes on its own clock, which need not agree with the supplier's.
   */
  async call<T = unknown>(
    fn: (sdk: AmadeusSdk) => Promise<AmadeusResponse>,
    opts: CallOptions = {},
  ): Promise<{ status: number; body: T }> {
    try {
      return await this.#once<T>(fn, opts);
    } catch (e) {
      const f = e as { failure?: AmadeusFailure };
      if (f.failure?.status === 401 && [38190, 38192].includes(f.failure.issue?.code ?? 0)) {
        this.sdk.client.accessToken.accessToken = null;
        return this.#once<T>(fn, opts);
      }
      throw e;
    }
  }

  async #once<T>(
    fn: (sdk: AmadeusSdk) => Promise<AmadeusResponse>,
    opts: CallOptions,
  ): Promise<{ status: number; body: T }> {
    if (opts.signal?.aborted) throw this.#failure({ kind: 'timeout', status: 0, issue: undefined });
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(this.#failure({ kind: 'timeout', status: 0, issue: undefined })),
        this.#timeoutMs,
      );
      onAbort = () => reject(this.#failure({ kind: 'timeout', status: 0, issue: undefined }));
      opts.signal?.addEventListener('abort', onAbort, { once: true });
    });
    try {
      const res = await Promise.race([fn(this.sdk), deadline]);
      return { status: res.statusCode, body: res.result as T };
    } catch (e) {
      // A refused URL is ours, not a network failure: it keeps its kind.
      if (e instanceof SupplierError || (e as { failure?: unknown }).failure) throw e;
      throw this.#failure(this.#classify(e));
    } finally {
      clearTimeout(timer);
      if (onAbort) opts.signal?.removeEventListener('abort', onAbort);
    }
  }

  /** The SDK rejects with ResponseError subclasses carrying `code` and `response`. */
  #classify(e: unknown): AmadeusFailure {
    const err = e as {
      code?: string;
      response?: {
        statusCode?: number;
        result?: { errors?: AmadeusIssue[]; code?: number; title?: string; error_description?: string };
      };
    };
    const status = err.response?.statusCode ?? 0;
    if (err.code === 'NetworkError' || !status) return { kind: 'network', status: 0, issue: undefined };
    const r = err.response?.result;
    const issue =
      r?.errors?.[0] ??
      (r?.code ? { status, code: r.code, title: r.title, detail: r.error_description } : undefined);
    return { kind: 'http', status, issue };
  }

  #failure(failure: AmadeusFailure): Error {
    const e = new Error(
      `amadeus ${failure.kind} ${failure.status} ${failure.issue?.title ?? ''}`.trim(),
    ) as Error & { failure: AmadeusFailure; supplier: SupplierName };
    e.failure = failure;
    e.supplier = this.#supplier;
    return e;
  }
}

export function failureOf(e: unknown): AmadeusFailure | undefined {
  return (e as { failure?: AmadeusFailure }).failure;
}

/**
 * Default mapping of a failed call to a `SupplierError`. `create: true` marks calls that may have acted
 * (order creation, ticketing): a timeout, reset or 5xx there is `unknown_outcome`, never a failure.
 */
export function toSupplierError(supplier: SupplierName, e: unknown, create = false): SupplierError {
  if (e instanceof SupplierError) return e;
  const f = failureOf(e);
  if (!f) return new SupplierError(supplier, 'unavailable', 'Amadeus call failed', { cause: e });
  const code = f.issue?.code !== undefined ? String(f.issue.code) : undefined;
  const message = f.issue ? `${f.issue.title ?? ''}: ${f.issue.detail ?? ''}` : `Amadeus ${f.kind}`;
  const opts = { supplierCode: code, cause: e };
  if (f.kind !== 'http' || f.status >= 500)
    return new SupplierError(
      supplier,
      create ? 'unknown_outcome' : f.kind === 'timeout' ? 'timeout' : 'unavailable',
      message,
      opts,
    );
  if (f.status === 401) return new SupplierError(supplier, 'auth_failed', message, opts);
  if (f.status === 404) return new SupplierError(supplier, 'not_found', message, opts);
  switch (f.issue?.code) {
    case 37200:
      return new SupplierError(supplier, 'price_changed', message, opts);
    case 39397:
      return new SupplierError(supplier, 'sold_out', message, opts);
    case 36803:
      return new SupplierError(supplier, 'offer_expired', message, opts);
    case 34651:
    case 9321:
    case 9322:
      return new SupplierError(supplier, 'rejected', message, opts);
    case 38197:
      return new SupplierError(supplier, 'unsupported', message, opts);
    default:
      return new SupplierError(supplier, 'invalid_request', message, opts);
  }
}
