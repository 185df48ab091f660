import type { FlightSupplier, HotelSupplier, TransferSupplier } from '@travel/contract';

export { CURRENCIES, type Currency } from '@travel/contract/currencies';

/** The contract's supplier enums (`contract/enums.ts`), under the names the ports use. */
export type FlightSupplierName = FlightSupplier;
export type HotelSupplierName = HotelSupplier;
export type TransferSupplierName = TransferSupplier;
export type PaymentProviderName = 'stripe';
export type SupplierName =
  | FlightSupplierName
  | HotelSupplierName
  | TransferSupplierName
  | PaymentProviderName;

/** Passed to every supplier call: cancellation and the per-call deadline. */
export interface CallOptions {
  signal?: AbortSignal;
  /** Idempotency key to forward where the supplier supports one (Duffel, Stripe). */
  idempotencyKey?: string;
  /**
   * Who the call is for (`refOwner`: the caller's company, else the user): the signed references a
   * search hands out (hotel rate_key, transfer quote_id) are bound to it, and taken back only from it.
   */
  owner?: string;
}

/**
 * Every failure a supplier call can end in. `kind` is what the service branches on:
 * - `unknown_outcome`: the supplier may have acted (timeout or 5xx on a create); never report as failed.
 * - `unavailable`: no effect, retry may help (5xx before acting, connection refused, circuit open).
 * - `timeout`: the call exceeded its deadline; on a read it is harmless, on a create use `unknown_outcome`.
 */
export type SupplierErrorKind =
  | 'rejected'
  | 'declined'
  | 'price_changed'
  | 'offer_expired'
  | 'sold_out'
  | 'not_found'
  | 'invalid_request'
  | 'unsupported'
  | 'unavailable'
  | 'timeout'
  | 'unknown_outcome'
  | 'auth_failed';

export class SupplierError extends Error {
  readonly supplier: SupplierName;
  readonly kind: SupplierErrorKind;
  /** The supplier's own error code or message, for logs and admin error views (never a credential). */
  readonly supplierCode: string | undefined;
  /** Extra facts, e.g. `{ old_total_minor, new_total_minor }` on price_changed, `decline_code` on declined. */
  readonly details: Record<string, unknown>;
  constructor(
    supplier: SupplierName,
    kind: SupplierErrorKind,
    message: string,
    opts: { supplierCode?: string; details?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(message, { cause: opts.cause });
    this.name = 'SupplierError';
    this.supplier = supplier;
    this.kind = kind;
    this.supplierCode = opts.supplierCode;
    this.details = opts.details ?? {};
  }
  get retryable(): boolean {
    return this.kind === 'unavailable' || this.kind === 'timeout';
  }
}
