import { createRng, mulberry32 } from '../../shared/random.ts';

/**
 * The emulator's memory: PaymentIntents, their charges, refunds and idempotency records. Unlike
 * stripe-mock it is stateful, so authorize -> capture -> refund flows behave as on Stripe.
 * Objects are stored in Stripe's own shapes (snake_case, amounts in minor units, times in seconds).
 */

export type PaymentIntentStatus =
  | 'requires_payment_method'
  | 'requires_confirmation'
  | 'requires_action'
  | 'processing'
  | 'requires_capture'
  | 'canceled'
  | 'succeeded';

export interface StripeErrorBody {
  type: 'card_error' | 'invalid_request_error' | 'api_error' | 'idempotency_error';
  code?: string;
  decline_code?: string;
  message: string;
  param?: string;
  doc_url?: string;
  charge?: string;
  payment_intent?: PaymentIntent;
  payment_method?: PaymentMethod;
  request_log_url?: string;
}

export interface PaymentMethod {
  id: string;
  object: 'payment_method';
  type: 'card';
  card: {
    brand: string;
    last4: string;
    exp_month: number;
    exp_year: number;
    funding: string;
    country: string;
  };
  created: number;
  customer: null;
  livemode: false;
  metadata: Record<string, string>;
  billing_details: {
    address: null;
    email: null;
    name: null;
    phone: null;
  };
}

export interface PaymentIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_capturable: number;
  amount_details: { tip: Record<string, never> };
  amount_received: number;
  application: null;
  application_fee_amount: null;
  automatic_payment_methods: null;
  canceled_at: number | null;
  cancellation_reason: string | null;
  capture_method: 'automatic' | 'automatic_async' | 'manual';
  client_secret: string;
  confirmation_method: 'automatic' | 'manual';
  created: number;
  currency: string;
  customer: string | null;
  description: string | null;
  last_payment_error: StripeErrorBody | null;
  latest_charge: string | null;
  livemode: false;
  metadata: Record<string, string>;
  next_action: null;
  on_behalf_of: null;
  payment_method: string | null;
  payment_method_options: Record<string, unknown>;
  payment_method_types: string[];
  processing: null;
  receipt_email: string | null;
  review: null;
  setup_future_usage: null;
  shipping: null;
  source: null;
  statement_descriptor: string | null;
  statement_descriptor_suffix: string | null;
  status: PaymentIntentStatus;
  transfer_data: null;
  transfer_group: null;
}

export interface Charge {
  id: string;
  object: 'charge';
  amount: number;
  amount_captured: number;
  amount_refunded: number;
  balance_transaction: string | null;
  billing_details: PaymentMethod['billing_details'];
  captured: boolean;
  created: number;
  currency: string;
  customer: null;
  description: string | null;
  disputed: false;
  failure_code: string | null;
  failure_message: string | null;
  livemode: false;
  metadata: Record<string, string>;
  outcome: {
    network_status: string;
    reason: string | null;
    risk_level: string;
    risk_score: number;
    seller_message: string;
    type: string;
  };
  paid: boolean;
  payment_intent: string;
  payment_method: string;
  payment_method_details: { type: 'card'; card: PaymentMethod['card'] & { network: string } };
  refunded: boolean;
  status: 'succeeded' | 'pending' | 'failed';
}

export interface Refund {
  id: string;
  object: 'refund';
  amount: number;
  balance_transaction: string;
  charge: string;
  created: number;
  currency: string;
  destination_details: { type: 'card'; card: { type: 'refund'; reference_status: 'pending' } };
  metadata: Record<string, string>;
  payment_intent: string;
  reason: string | null;
  receipt_number: null;
  source_transfer_reversal: null;
  status: 'succeeded' | 'pending' | 'failed' | 'canceled';
  transfer_reversal: null;
}

/** A completed idempotent request: replayed verbatim for the same key and parameters. */
export interface IdempotencyRecord {
  method: string;
  path: string;
  params: string;
  /** null while the first request is still running (a second one gets 409). */
  response: { status: number; body: unknown; headers: Record<string, string> } | null;
  /** An "after the effect" fault is re-applied on every replay, so the caller never learns the outcome. */
  fault?: 'api_error' | 'timeout' | 'connection_reset';
  createdAt: number;
}

export interface StripeState {
  paymentIntents: Map<string, PaymentIntent>;
  paymentMethods: Map<string, PaymentMethod>;
  charges: Map<string, Charge>;
  refunds: Map<string, Refund>;
  /** Keyed by `${apiKey}\u0000${idempotencyKey}`: Stripe scopes keys to the account. */
  idempotency: Map<string, IdempotencyRecord>;
  /** Stripe-style ids (`pi_…`, `ch_…`, `re_…`), deterministic for a seed. */
  newId: (prefix: string) => string;
  /** The test token or test PaymentMethod name each PaymentMethod was made from (its outcome). */
  methodSources: Map<string, string>;
  /** How many ids `newId` has drawn: durable, so a restarted emulator never hands one out again. */
  ids: number;
  /** Continues the id sequence after `n` draws (loading a saved state). */
  restoreIds: (n: number) => void;
  /** Forget everything (between tests). */
  reset: () => void;
}

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function createStripeState(seed = 0): StripeState {
  let rng = createRng(mulberry32(seed ^ 0x5712e));
  const state: StripeState = {
    paymentIntents: new Map(),
    paymentMethods: new Map(),
    charges: new Map(),
    refunds: new Map(),
    idempotency: new Map(),
    methodSources: new Map(),
    // Stripe ids are a prefix, then "3" + 23 base62 characters for new-style objects.
    ids: 0,
    newId: (prefix) => {
      state.ids += 1;
      return `${prefix}_3${rng.code(23, ID_ALPHABET)}`;
    },
    restoreIds(n): void {
      rng = createRng(mulberry32(seed ^ 0x5712e));
      state.ids = 0;
      for (let i = 0; i < n; i++) state.newId('x');
    },
    reset(): void {
      state.paymentIntents.clear();
      state.paymentMethods.clear();
      state.charges.clear();
      state.refunds.clear();
      state.idempotency.clear();
      state.methodSources.clear();
      rng = createRng(mulberry32(seed ^ 0x5712e));
      state.ids = 0;
    },
  };
  return state;
}
