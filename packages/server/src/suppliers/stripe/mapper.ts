/**
 * Stripe objects and errors to our ports' shapes. Stripe amounts are already integer minor units.
 */
import type Stripe from 'stripe';
import { type Currency, SupplierError } from '../ports/errors.ts';
import type { ProviderPayment, ProviderPaymentStatus } from '../ports/payment.ts';

const STATUS: Record<string, ProviderPaymentStatus> = {
  requires_capture: 'requires_capture',
  succeeded: 'succeeded',
  canceled: 'canceled',
  requires_payment_method: 'requires_payment_method',
  requires_confirmation: 'requires_payment_method',
  requires_action: 'requires_payment_method',
  processing: 'processing',
};

/**
 * `pi` must have `latest_charge` expanded: Stripe keeps refunds on the charge. After a partial capture
 * Stripe also counts the released, never-captured part in `charge.amount_refunded`; that is not a refund.
 */
export function toProviderPayment(pi: Stripe.PaymentIntent): ProviderPayment {
  const charge = typeof pi.latest_charge === 'object' ? pi.latest_charge : null;
  const refunded =
    charge?.captured === true
      ? Math.max(0, charge.amount_refunded - (charge.amount - charge.amount_captured))
      : 0;
  return {
    provider: 'stripe',
    payment_ref: pi.id,
    status: STATUS[pi.status] ?? 'processing',
    amount_minor: pi.amount,
    amount_capturable_minor: pi.amount_capturable,
    amount_received_minor: pi.amount_received,
    amount_refunded_minor: refunded,
    currency: pi.currency.toUpperCase() as Currency,
  };
}

/** Codes meaning "the payment is not in a state that allows this". */
const REJECTED_CODES = new Set([
  'payment_intent_unexpected_state',
  'charge_already_refunded',
  'charge_already_captured',
  'amount_too_large',
]);

interface StripeLikeError {
  type?: string;
  statusCode?: number;
  code?: string;
  decline_code?: string;
  requestId?: string;
  message?: string;
  param?: string;
  payment_intent?: { id?: string };
}

/**
 * Maps any failure of a client call. `effect`: the call moves money, so a timeout, dropped connection,
 * 5xx or in-flight idempotency conflict may have acted and is `unknown_outcome`, never a plain failure.
 * The Stripe error itself is not attached as `cause`: only the facts below, none of which is a credential.
 */
export function toSupplierError(err: unknown, effect: boolean, aborted: boolean): SupplierError {
  if (err instanceof SupplierError) return err;
  const e = (typeof err === 'object' && err !== null ? err : {}) as StripeLikeError;
  const status = e.statusCode;
  const details: Record<string, unknown> = {};
  if (status !== undefined) details.http_status = status;
  if (e.requestId) details.request_id = e.requestId;
  if (e.param) details.param = e.param;
  const opts = (code: string | undefined) => ({ supplierCode: code, details });
  const message = e.message ?? 'Stripe call failed';

  if (e.type === 'StripeCardError' || status === 402) {
    details.decline_code = e.decline_code ?? e.code;
    details.code = e.code;
    if (e.payment_intent?.id) details.payment_ref = e.payment_intent.id;
    return new SupplierError('stripe', 'declined', message, opts(e.code));
  }
  if (status === undefined || e.type === 'StripeConnectionError') {
    // No HTTP answer: deadline, caller abort or dropped connection.
    if (aborted)
      return new SupplierError(
        'stripe',
        effect ? 'unknown_outcome' : 'timeout',
        'Stripe call aborted',
        opts('aborted'),
      );
    const timedOut = /timeout/i.test(message);
    if (effect)
      return new SupplierError(
        'stripe',
        'unknown_outcome',
        message,
        opts(timedOut ? 'timeout' : 'connection_error'),
      );
    return new SupplierError(
      'stripe',
      timedOut ? 'timeout' : 'unavailable',
      message,
      opts(timedOut ? 'timeout' : 'connection_error'),
    );
  }
  if (status === 401)
    return new SupplierError('stripe', 'auth_failed', 'Stripe rejected the API key', opts('api_key_invalid'));
  if (status === 403) return new SupplierError('stripe', 'auth_failed', message, opts(e.code));
  if (status === 404)
    return new SupplierError('stripe', 'not_found', message, opts(e.code ?? 'resource_missing'));
  if (status === 409) {
    // idempotency_key_in_use: our own earlier request with this key is still running.
    return new SupplierError(
      'stripe',
      effect ? 'unknown_outcome' : 'unavailable',
      message,
      opts(e.code ?? 'conflict'),
    );
  }
  if (status === 429)
    return new SupplierError('stripe', 'unavailable', message, opts(e.code ?? 'rate_limit'));
  if (status >= 500)
    return new SupplierError(
      'stripe',
      effect ? 'unknown_outcome' : 'unavailable',
      message,
      opts(e.code ?? 'api_error'),
    );
  if (e.type === 'StripeIdempotencyError') {
    return new SupplierError('stripe', 'invalid_request', message, opts('idempotency_error'));
  }
  if (e.code && REJECTED_CODES.has(e.code))
    return new SupplierError('stripe', 'rejected', message, opts(e.code));
  return new SupplierError('stripe', 'invalid_request', message, opts(e.code));
}
