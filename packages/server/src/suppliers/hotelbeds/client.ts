/**
 * APItude transport shared by the hotel and transfer adapters: `Api-key` + `X-Signature`
 * (SHA-256 of apiKey + secret + Unix seconds, recomputed per call), per-call deadline, and the mapping of
 * HTTP failures and `{ error: { code, message } }` bodies to SupplierError.
 */

import { createHash } from 'node:crypto';
import { userAgent } from '../../internal/build-info.ts';
import { toMinor as moneyToMinor } from '../../internal/money.ts';
import {
  type CallOptions,
  type Currency,
  SupplierError,
  type SupplierErrorKind,
  type SupplierName,
} from '../ports/errors.ts';
import type { CancellationPolicy } from '../ports/hotel.ts';
import { supplierUrl } from '../supplier-url.ts';

export interface HotelbedsConfig {
  baseUrl: string;
  apiKey: string;
  secret: string;
  fetch?: typeof fetch;
  /** Per-call deadline in ms. Default 30 s. */
  timeoutMs?: number;
  /** Clock for the signature; tests align it with the emulator's. */
  now?: () => number;
}

const KIND_BY_CODE: Record<string, SupplierErrorKind> = {
  INSUFFICIENT_ALLOTMENT: 'sold_out',
  PRICE_CHANGED: 'price_changed',
  PRODUCT_ERROR: 'rejected',
  INVALID_API_KEY: 'auth_failed',
  INVALID_SIGNATURE: 'auth_failed',
  AUTHENTICATION_REQUIRED: 'auth_failed',
};

export class HotelbedsClient {
  private readonly config: HotelbedsConfig;
  private readonly supplier: SupplierName;

  constructor(config: HotelbedsConfig, supplier: SupplierName) {
    this.config = config;
    this.supplier = supplier;
  }

  private headers(): Record<string, string> {
    const t = Math.floor((this.config.now ?? Date.now)() / 1000);
    const sig = createHash('sha256').update(`${this.config.apiKey}${this.config.secret}${t}`).digest('hex');
    return {
      'Api-key': this.config.apiKey,
      'X-Signature': sig,
      Accept: 'application/json',
      'User-Agent': userAgent(),
    };
  }

  /**
   * One call. Returns `undefined` on 204 (no availability). `effect: true` marks calls that change
   * supplier state: a timeout, reset or 5xx there is `unknown_outcome`.
   */
  async call<T>(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    body: unknown,
    opts: CallOptions & { effect?: boolean } = {},
  ): Promise<T | undefined> {
    // Before any credential is computed: a URL off the supplier's origin is never requested.
    const url = supplierUrl(this.supplier, this.config.baseUrl, path);
    const timeout = AbortSignal.timeout(this.config.timeoutMs ?? 30_000);
    const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
    const headers = this.headers();
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    let res: Response;
    try {
      res = await (this.config.fetch ?? fetch)(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal,
      });
    } catch (cause) {
      const timedOut = timeout.aborted;
      const kind: SupplierErrorKind = opts.effect ? 'unknown_outcome' : timedOut ? 'timeout' : 'unavailable';
      throw new SupplierError(
        this.supplier,
        kind,
        `${path}: ${timedOut ? 'timed out' : 'connection failed'}`,
        { cause },
      );
    }
    if (res.status === 204) return undefined;
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    if (res.ok) return json as T;
    const err = (json as { error?: { code?: string; message?: string } } | undefined)?.error;
    const message = `${path}: HTTP ${res.status}${err?.message ? ` ${err.message}` : ''}`;
    let kind: SupplierErrorKind;
    if (res.status >= 500) kind = opts.effect ? 'unknown_outcome' : 'unavailable';
    else if (res.status === 401 || res.status === 403) kind = 'auth_failed';
    else if (res.status === 404) kind = 'not_found';
    else kind = KIND_BY_CODE[err?.code ?? ''] ?? 'invalid_request';
    throw new SupplierError(this.supplier, kind, message, { supplierCode: err?.code ?? String(res.status) });
  }
}

/** Decimal text to minor units (EUR and friends have 2 decimals; KWD, BHD, OMR 3). */
export function toMinor(amount: string | number, currency: string): number {
  const n = Number(amount);
  return n === 0 ? 0 : moneyToMinor(n, currency);
}

/** Hotelbeds policy times carry an offset; normalised to UTC RFC 3339. */
export function policies(
  list: { amount: string | number; from: string }[] | undefined,
  currency: string,
): CancellationPolicy[] {
  return (list ?? []).map((p) => ({
    from: new Date(p.from).toISOString(),
    fee: { currency: currency as Currency, amount_minor: toMinor(p.amount, currency) },
  }));
}
