/**
 * The official `stripe` client, pointed at a base URL (the emulator in sandbox mode, api.stripe.com live).
 * It is built on our injected `fetch` (Stripe's FetchHttpClient) rather than its default node:http client,
 * so that tests can intercept it and so that a caller's AbortSignal reaches the socket.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import Stripe from 'stripe';
import { buildTag } from '../../internal/build-info.ts';
import { assertSupplierUrl } from '../supplier-url.ts';

export interface StripeConfig {
  /** `http://127.0.0.1:12111` (emulator) or `https://api.stripe.com`. */
  baseUrl: string;
  /** `sk_test_…` / `sk_live_…`; comes from config only and is never logged. */
  secretKey: string;
  fetch?: typeof fetch;
  /** Per-attempt deadline in ms. Default 30 s. */
  timeoutMs?: number;
  /**
   * Retries the client makes on connection errors, 409 and 5xx, re-sending the same Idempotency-Key so a
   * retry never moves money twice. Default 2 (Stripe's own default).
   */
  maxNetworkRetries?: number;
  /**
   * The whole call, every attempt and retry included, in ms. Default 20 s (PSP_CALL_DEADLINE_MS): inside
   * the SDK's documented 30 s per-attempt client deadline, so a provider that hangs is answered in time
   * (an effect whose answer did not come is 202 pending and settled by reconciliation), instead of after
   * three 30 s attempts.
   */
  totalTimeoutMs?: number;
}

export const PSP_CALL_DEADLINE_MS = 20_000;

/** Carries the caller's AbortSignal into the shared fetch wrapper for one call. */
const callSignal = new AsyncLocalStorage<AbortSignal | undefined>();

export function createStripeClient(config: StripeConfig): Stripe {
  const url = new URL(config.baseUrl);
  const baseFetch = config.fetch ?? fetch;
  const signalledFetch: typeof fetch = (input, init) => {
    // The client builds each URL from host, port and a path with our ids in it: the guard checks it.
    assertSupplierUrl('stripe', config.baseUrl, input instanceof Request ? input.url : input);
    const outer = callSignal.getStore();
    if (!outer) return baseFetch(input, init);
    const signal = init?.signal ? AbortSignal.any([init.signal, outer]) : outer;
    return baseFetch(input, { ...init, signal });
  };
  return new Stripe(config.secretKey, {
    host: url.hostname,
    port: url.port || (url.protocol === 'https:' ? 443 : 80),
    protocol: url.protocol === 'https:' ? 'https' : 'http',
    httpClient: Stripe.createFetchHttpClient(signalledFetch),
    timeout: config.timeoutMs ?? 30_000,
    maxNetworkRetries: config.maxNetworkRetries ?? 2,
    // No telemetry header: nothing about our traffic leaves for Stripe beyond the calls themselves.
    telemetry: false,
    // Stripe's User-Agent carries it: `… travel-server/0.1.0+<commit>`.
    appInfo: { name: 'travel-server', version: buildTag() },
  });
}

/** Run one client call with the caller's AbortSignal applied to its HTTP requests. */
export function withSignal<T>(signal: AbortSignal | undefined, fn: () => Promise<T>): Promise<T> {
  return callSignal.run(signal, fn);
}
