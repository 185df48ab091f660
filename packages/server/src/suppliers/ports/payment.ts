/** The payment provider port. */
import type { CallOptions, Currency, PaymentProviderName } from './errors.ts';

/** Provider states as Stripe PaymentIntents name them; the payment service maps them to ours. */
export type ProviderPaymentStatus =
  | 'requires_capture'
  | 'succeeded'
  | 'canceled'
  | 'requires_payment_method'
  | 'processing';

export interface ProviderPayment {
  provider: PaymentProviderName;
  /** pi_… */
  payment_ref: string;
  status: ProviderPaymentStatus;
  amount_minor: number;
  amount_capturable_minor: number;
  amount_received_minor: number;
  amount_refunded_minor: number;
  currency: Currency;
}

export interface PaymentProvider {
  readonly name: PaymentProviderName;
  /** Authorize only (manual capture). A decline throws SupplierError kind 'declined' with decline_code. */
  authorize(
    input: {
      token: string;
      amount_minor: number;
      currency: Currency;
      description: string;
      metadata: Record<string, string>;
    },
    opts: CallOptions & { idempotencyKey: string },
  ): Promise<ProviderPayment>;
  capture(
    paymentRef: string,
    amountMinor: number | undefined,
    opts: CallOptions & { idempotencyKey: string },
  ): Promise<ProviderPayment>;
  void(
    paymentRef: string,
    reason: string | undefined,
    opts: CallOptions & { idempotencyKey: string },
  ): Promise<ProviderPayment>;
  refund(
    paymentRef: string,
    amountMinor: number | undefined,
    reason: string | undefined,
    opts: CallOptions & { idempotencyKey: string },
  ): Promise<{ refund_ref: string; amount_minor: number; payment: ProviderPayment }>;
  get(paymentRef: string, opts?: CallOptions): Promise<ProviderPayment>;
  /**
   * The authorization created with metadata `intent_ref` = `ref` (reconciliation of an authorize whose
   * answer was lost), or null when the provider holds none.
   */
  findByReference?(ref: string, opts?: CallOptions): Promise<ProviderPayment | null>;
}
