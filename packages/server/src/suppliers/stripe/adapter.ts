/**
 * PaymentProvider on Stripe PaymentIntents with manual capture: authorize = create+confirm with
 * capture_method=manual, capture (full or partial), void = cancel, refunds partial and full.
 * Every money-moving call forwards our Idempotency-Key, so a retry never charges twice.
 */
import type Stripe from 'stripe';
import type { CallOptions, Currency } from '../ports/errors.ts';
import type { PaymentProvider, ProviderPayment } from '../ports/payment.ts';
import { createStripeClient, PSP_CALL_DEADLINE_MS, type StripeConfig, withSignal } from './client.ts';
import { toProviderPayment, toSupplierError } from './mapper.ts';

export type StripeAdapterConfig = StripeConfig;

const REFUND_REASONS = ['duplicate', 'fraudulent', 'requested_by_customer'] as const;
const CANCEL_REASONS = ['duplicate', 'fraudulent', 'requested_by_customer', 'abandoned'] as const;
/** Refunds and PaymentIntents carry the charge so that refunded amounts are visible. */
const EXPAND = ['latest_charge'];

export class StripeAdapter implements PaymentProvider {
  readonly name = 'stripe' as const;
  private readonly stripe: Stripe;
  private readonly totalMs: number;

  constructor(config: StripeAdapterConfig) {
    this.stripe = createStripeClient(config);
    this.totalMs = config.totalTimeoutMs ?? PSP_CALL_DEADLINE_MS;
  }

  authorize(
    input: {
      token: string;
      amount_minor: number;
      currency: Currency;
      description: string;
      metadata: Record<string, string>;
    },
    opts: CallOptions & { idempotencyKey: string },
  ): Promise<ProviderPayment> {
    // A PaymentMethod id (pm_…) goes as payment_method; a card token (tok_…) as payment_method_data.
    const method: Pick<Stripe.PaymentIntentCreateParams, 'payment_method' | 'payment_method_data'> =
      input.token.startsWith('pm_')
        ? { payment_method: input.token }
        : {
            payment_method_data: {
              type: 'card',
              card: { token: input.token },
            } as Stripe.PaymentIntentCreateParams.PaymentMethodData,
          };
    return this.call(true, opts, async () => {
      const pi = await this.stripe.paymentIntents.create(
        {
          ...method,
          amount: input.amount_minor,
          currency: input.currency.toLowerCase(),
          capture_method: 'manual',
          confirm: true,
          description: input.description,
          metadata: input.metadata,
          expand: EXPAND,
        },
        { idempotencyKey: opts.idempotencyKey },
      );
      return toProviderPayment(pi);
    });
  }

  capture(
    paymentRef: string,
    amountMinor: number | undefined,
    opts: CallOptions & { idempotencyKey: string },
  ): Promise<ProviderPayment> {
    return this.call(true, opts, async () => {
      const pi = await this.stripe.paymentIntents.capture(
        paymentRef,
        {
          ...(amountMinor === undefined ? {} : { amount_to_capture: amountMinor }),
          expand: EXPAND,
        },
        { idempotencyKey: opts.idempotencyKey },
      );
      return toProviderPayment(pi);
    });
  }

  void(
    paymentRef: string,
    reason: string | undefined,
    opts: CallOptions & { idempotencyKey: string },
  ): Promise<ProviderPayment> {
    const cancellation_reason = CANCEL_REASONS.find((r) => r === reason);
    return this.call(true, opts, async () => {
      const pi = await this.stripe.paymentIntents.cancel(
        paymentRef,
        { ...(cancellation_reason ? { cancellation_reason } : {}), expand: EXPAND },
        { idempotencyKey: opts.idempotencyKey },
      );
      return toProviderPayment(pi);
    });
  }

  refund(
    paymentRef: string,
    amountMinor: number | undefined,
    reason: string | undefined,
    opts: CallOptions & { idempotencyKey: string },
  ): Promise<{ refund_ref: string; amount_minor: number; payment: ProviderPayment }> {
    // Stripe's `reason` is an enum; free text from our staff goes into metadata instead.
    const known = REFUND_REASONS.find((r) => r === reason);
    return this.call(true, opts, async () => {
      const refund = await this.stripe.refunds.create(
        {
          payment_intent: paymentRef,
          ...(amountMinor === undefined ? {} : { amount: amountMinor }),
          ...(known ? { reason: known } : {}),
          ...(reason && !known ? { metadata: { reason_text: reason.slice(0, 500) } } : {}),
        },
        { idempotencyKey: opts.idempotencyKey },
      );
      const pi = await this.stripe.paymentIntents.retrieve(paymentRef, { expand: EXPAND });
      return { refund_ref: refund.id, amount_minor: refund.amount, payment: toProviderPayment(pi) };
    });
  }

  get(paymentRef: string, opts: CallOptions = {}): Promise<ProviderPayment> {
    return this.call(false, opts, async () =>
      toProviderPayment(await this.stripe.paymentIntents.retrieve(paymentRef, { expand: EXPAND })),
    );
  }

  /** Search by metadata `intent_ref` (write-ahead reference of an authorization). */
  findByReference(ref: string, opts: CallOptions = {}): Promise<ProviderPayment | null> {
    if (!/^[\w-]{1,100}$/.test(ref)) throw new Error('invalid payment reference');
    return this.call(false, opts, async () => {
      const found = await this.stripe.paymentIntents.search({ query: `metadata['intent_ref']:'${ref}'` });
      const pi = found.data[0];
      return pi ? toProviderPayment(pi) : null;
    });
  }

  /** One provider call, its retries included, bounded by the total deadline as well as the caller's signal. */
  private async call<T>(effect: boolean, opts: CallOptions, fn: () => Promise<T>): Promise<T> {
    const deadline = AbortSignal.timeout(this.totalMs);
    const signal = opts.signal ? AbortSignal.any([opts.signal, deadline]) : deadline;
    try {
      return await withSignal(signal, fn);
    } catch (err) {
      throw toSupplierError(err, effect, signal.aborted);
    }
  }
}
