import { Duffel, DuffelError } from '@duffel/api';
import { buildTag } from '../../internal/build-info.ts';
import {
  type CallOptions,
  SupplierError,
  type SupplierErrorKind,
  type SupplierName,
} from '../ports/errors.ts';
import { supplierUrl } from '../supplier-url.ts';

/**
 * The official `@duffel/api` client, pointed at the emulator (sandbox) or api.duffel.com (live). It issues
 * requests with node-fetch, which msw/node intercepts, and takes no AbortSignal: deadlines are enforced
 * here by racing the call, and a create that loses the race is an unknown outcome.
 */

export interface DuffelClientConfig {
  /** `duffel_test_…` or `duffel_live_…`; read from env by the caller, never logged. */
  token: string;
  /** e.g. `https://api.duffel.com` or the emulator's URL. */
  baseUrl: string;
  /** Per-call deadline when the caller gives no signal (default 30 s). */
  timeoutMs?: number;
}

/** The one method every resource of the client calls, at call time (`this.client.request`). */
interface DuffelTransport {
  request: (o: { path: string }) => Promise<unknown>;
}

export function createDuffel(config: DuffelClientConfig, supplier: SupplierName = 'duffel'): Duffel {
  // The client resolves relative paths (`air/orders`) against basePath: keep a trailing slash so a path
  // prefix (`http://host/duffel`) survives URL resolution.
  const basePath = config.baseUrl.endsWith('/') ? config.baseUrl : `${config.baseUrl}/`;
  // `source` ends the client's User-Agent: `Duffel/v2 duffel_api_javascript/… source/travel-server@0.1.0+<commit>`.
  const duffel = new Duffel({ token: config.token, basePath, source: `travel-server@${buildTag()}` });
  // Every resource path (ids interpolated unencoded by the client) passes the supplier URL guard.
  const transport = (duffel as unknown as { client: DuffelTransport }).client;
  const send = transport.request;
  transport.request = async (o) => {
    supplierUrl(supplier, basePath, o.path);
    return send(o);
  };
  return duffel;
}

const CODE_KINDS: Record<string, SupplierErrorKind> = {
  offer_expired: 'offer_expired',
  rate_expired: 'offer_expired',
  quote_expired: 'offer_expired',
  search_result_expired: 'offer_expired',
  offer_no_longer_available: 'sold_out',
  rate_unavailable: 'sold_out',
  price_changed: 'price_changed',
  airline_rejected: 'rejected',
  booking_rejected: 'rejected',
  seat_no_longer_available: 'rejected',
  not_found: 'not_found',
  unsupported_action: 'unsupported',
  unsupported_order_type: 'unsupported',
  // Services on a hold order still awaiting payment: Duffel sells them once the order is paid.
  order_awaiting_payment: 'unsupported',
};

/** Maps a Duffel failure onto our kinds. `create`: the call may have acted, so 5xx/timeouts are unknown. */
export function toSupplierError(supplier: SupplierName, err: unknown, create: boolean): SupplierError {
  if (err instanceof SupplierError) return err;
  if (err instanceof DuffelError) {
    const first = err.errors?.[0];
    const code = first?.code ?? '';
    const status = err.status ?? err.meta?.status ?? 0;
    const message = first?.message ?? `Duffel answered ${status}`;
    const opts = {
      supplierCode: code || String(status),
      cause: err,
      details: { status, request_id: err.meta?.request_id },
    };
    if (status >= 500)
      return new SupplierError(supplier, create ? 'unknown_outcome' : 'unavailable', message, opts);
    if (status === 429) return new SupplierError(supplier, 'unavailable', message, opts);
    if (status === 401 || status === 403) return new SupplierError(supplier, 'auth_failed', message, opts);
    const kind =
      CODE_KINDS[code] ??
      (first?.type === 'airline_error' ? 'rejected' : status === 404 ? 'not_found' : 'invalid_request');
    return new SupplierError(supplier, kind, message, opts);
  }
  const name = (err as { name?: string })?.name;
  if (name === 'TimeoutError' || name === 'AbortError') {
    return new SupplierError(supplier, create ? 'unknown_outcome' : 'timeout', 'Duffel call timed out', {
      cause: err,
    });
  }
  // Connection refused/reset: the request may have reached Duffel, so a create is unknown.
  return new SupplierError(supplier, create ? 'unknown_outcome' : 'unavailable', 'Duffel unreachable', {
    cause: err,
    supplierCode: (err as { code?: string })?.code,
  });
}

/** Runs one client call under the caller's signal and our deadline, mapping failures. */
export async function call<T>(
  supplier: SupplierName,
  timeoutMs: number,
  opts: CallOptions | undefined,
  fn: () => Promise<T>,
  create = false,
): Promise<T> {
  const signals = [AbortSignal.timeout(timeoutMs)];
  if (opts?.signal) signals.push(opts.signal);
  const signal = AbortSignal.any(signals);
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => {
      const reason = signal.reason as { name?: string } | undefined;
      reject(reason?.name ? reason : new DOMException('Aborted', 'AbortError'));
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([fn(), aborted]);
  } catch (err) {
    throw toSupplierError(supplier, err, create);
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}
