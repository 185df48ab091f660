import { checkAmountStep } from './amounts.ts';
import { apiError, invalidRequest, resourceMissing, StripeHttpError, unexpectedState } from './errors.ts';
import type { FormObject } from './form.ts';
import { allowOnly, bool, child, expand, int, metadata, oneOf, requiredStr, str } from './params.ts';
import type { Charge, PaymentIntent, PaymentMethod, StripeState } from './state.ts';
import { lookupToken, type TokenSpec } from './triggers.ts';

/** What an operation produced; `fault` is applied after the result is stored under its idempotency key. */
export interface OpResult {
  status: number;
  body: unknown;
  fault?: 'api_error' | 'timeout' | 'connection_reset';
  delayMs?: number;
}

export interface OpContext {
  state: StripeState;
  /** Unix seconds, from the emulator clock. */
  nowSec: () => number;
}

const CREATE_PARAMS = [
  'amount',
  'currency',
  'payment_method',
  'payment_method_data',
  'payment_method_types',
  'payment_method_options',
  'confirm',
  'capture_method',
  'confirmation_method',
  'description',
  'metadata',
  'receipt_email',
  'statement_descriptor',
  'statement_descriptor_suffix',
  'customer',
  'expand',
  'return_url',
  'off_session',
  'error_on_requires_action',
  'setup_future_usage',
  'transfer_group',
] as const;

const CANCELABLE = [
  'requires_payment_method',
  'requires_capture',
  'requires_confirmation',
  'requires_action',
  'processing',
] as const;

export function getIntent(ctx: OpContext, id: string): PaymentIntent {
  const pi = ctx.state.paymentIntents.get(id);
  if (!pi) throw resourceMissing('payment_intent', id, 'intent');
  return pi;
}

/** The PaymentIntent as the API shows it, with `expand` applied (latest_charge, payment_method). */
export function renderIntent(ctx: OpContext, pi: PaymentIntent, expanded: string[]): unknown {
  const out: Record<string, unknown> = { ...structuredClone(pi) };
  if (expanded.includes('latest_charge') && pi.latest_charge) {
    out.latest_charge = structuredClone(ctx.state.charges.get(pi.latest_charge) ?? null);
  }
  if (expanded.includes('payment_method') && pi.payment_method) {
    out.payment_method = structuredClone(ctx.state.paymentMethods.get(pi.payment_method) ?? null);
  }
  return out;
}

export function createIntent(ctx: OpContext, params: FormObject): OpResult {
  allowOnly(params, CREATE_PARAMS);
  const amount = int(params, 'amount');
  if (amount === undefined)
    throw invalidRequest('parameter_missing', 'Missing required param: amount.', 'amount');
  if (amount < 1) {
    throw invalidRequest(
      'amount_too_small',
      'Amount must be at least 1 in the smallest currency unit.',
      'amount',
    );
  }
  if (amount > 99_999_999) {
    throw invalidRequest('amount_too_large', 'Amount must be no more than 99999999.', 'amount');
  }
  const currency = requiredStr(params, 'currency').toLowerCase();
  if (!/^[a-z]{3}$/.test(currency)) {
    throw invalidRequest('parameter_invalid_string', `Invalid currency: ${currency}.`, 'currency');
  }
  checkAmountStep(amount, currency, 'amount');
  const captureMethod =
    oneOf(params, 'capture_method', ['automatic', 'automatic_async', 'manual'] as const) ?? 'automatic_async';
  const confirm = bool(params, 'confirm') ?? false;
  const pm = resolvePaymentMethod(ctx, params);
  // A fault before anything happens: Stripe has created nothing, the key is released.
  if (confirm && pm?.spec.outcome.kind === 'api_error_before') throw apiError();

  const id = ctx.state.newId('pi');
  const pi: PaymentIntent = {
    id,
    object: 'payment_intent',
    amount,
    amount_capturable: 0,
    amount_details: { tip: {} },
    amount_received: 0,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: null,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: captureMethod,
    client_secret: `${id}_secret_${ctx.state.newId('s').slice(3)}`,
    confirmation_method:
      oneOf(params, 'confirmation_method', ['automatic', 'manual'] as const) ?? 'automatic',
    created: ctx.nowSec(),
    currency,
    customer: str(params, 'customer') ?? null,
    description: str(params, 'description') ?? null,
    last_payment_error: null,
    latest_charge: null,
    livemode: false,
    metadata: metadata(params) ?? {},
    next_action: null,
    on_behalf_of: null,
    payment_method: pm?.method.id ?? null,
    payment_method_options: {
      card: { installments: null, mandate_options: null, network: null, request_three_d_secure: 'automatic' },
    },
    payment_method_types: ['card'],
    processing: null,
    receipt_email: str(params, 'receipt_email') ?? null,
    review: null,
    setup_future_usage: null,
    shipping: null,
    source: null,
    statement_descriptor: str(params, 'statement_descriptor') ?? null,
    statement_descriptor_suffix: str(params, 'statement_descriptor_suffix') ?? null,
    status: pm ? 'requires_confirmation' : 'requires_payment_method',
    transfer_data: null,
    transfer_group: null,
  };
  ctx.state.paymentIntents.set(id, pi);
  if (!confirm || !pm) return { status: 200, body: renderIntent(ctx, pi, expand(params)) };
  return confirmWith(ctx, pi, pm, expand(params));
}

export function confirmIntent(ctx: OpContext, id: string, params: FormObject): OpResult {
  allowOnly(params, [
    'payment_method',
    'payment_method_data',
    'expand',
    'return_url',
    'off_session',
    'capture_method',
    'receipt_email',
    'error_on_requires_action',
    'payment_method_options',
  ]);
  const pi = getIntent(ctx, id);
  if (pi.status !== 'requires_payment_method' && pi.status !== 'requires_confirmation') {
    throw unexpectedState(
      `You cannot confirm this PaymentIntent because it has a status of ${pi.status}. Only a PaymentIntent with one of the following statuses may be confirmed: requires_confirmation, requires_payment_method.`,
    );
  }
  const pm =
    resolvePaymentMethod(ctx, params) ??
    (pi.payment_method ? existingMethod(ctx, pi.payment_method) : undefined);
  if (!pm) {
    throw invalidRequest(
      'payment_intent_unexpected_state',
      "You cannot confirm this PaymentIntent because it's missing a payment method. To confirm the PaymentIntent with a payment method, pass payment_method.",
    );
  }
  if (pm.spec.outcome.kind === 'api_error_before') throw apiError();
  const captureMethod = oneOf(params, 'capture_method', ['automatic', 'automatic_async', 'manual'] as const);
  if (captureMethod) pi.capture_method = captureMethod;
  pi.payment_method = pm.method.id;
  return confirmWith(ctx, pi, pm, expand(params));
}

interface ResolvedMethod {
  method: PaymentMethod;
  spec: TokenSpec;
}

/**
 * `payment_method=pm_card_visa` (a test PaymentMethod, or one created earlier), `payment_method=tok_…`
 * (accepted for convenience), or `payment_method_data[type]=card&payment_method_data[card][token]=tok_…`.
 */
function resolvePaymentMethod(ctx: OpContext, params: FormObject): ResolvedMethod | undefined {
  const ref = str(params, 'payment_method');
  const data = child(params, 'payment_method_data');
  if (ref !== undefined) {
    const existing = ctx.state.paymentMethods.get(ref);
    if (existing) return existingMethod(ctx, ref);
    const spec = lookupToken(ref);
    if (!spec) throw resourceMissing('PaymentMethod', ref, 'payment_method');
    return { method: newMethod(ctx, ref, spec), spec };
  }
  if (data !== undefined) {
    if (data.type !== 'card') {
      throw invalidRequest(
        'parameter_invalid_string',
        'payment_method_data[type] must be card.',
        'payment_method_data[type]',
      );
    }
    const card = child(data, 'card');
    const token = card?.token;
    if (typeof token !== 'string') {
      throw invalidRequest(
        'parameter_missing',
        'Missing required param: payment_method_data[card][token].',
        'payment_method_data[card][token]',
      );
    }
    const spec = lookupToken(token);
    if (!spec) throw resourceMissing('token', token, 'payment_method_data[card][token]');
    return { method: newMethod(ctx, token, spec), spec };
  }
  return undefined;
}

function existingMethod(ctx: OpContext, id: string): ResolvedMethod {
  const method = ctx.state.paymentMethods.get(id) as PaymentMethod;
  const source = ctx.state.methodSources.get(id) ?? '';
  return { method, spec: lookupToken(source) as TokenSpec };
}

function newMethod(ctx: OpContext, source: string, spec: TokenSpec): PaymentMethod {
  const id = ctx.state.newId('pm').replace('pm_3', 'pm_1');
  const method: PaymentMethod = {
    id,
    object: 'payment_method',
    type: 'card',
    card: {
      brand: spec.card.brand,
      last4: spec.card.last4,
      exp_month: 12,
      exp_year: new Date(ctx.nowSec() * 1000).getUTCFullYear() + 3,
      funding: spec.card.funding,
      country: spec.card.country,
    },
    created: ctx.nowSec(),
    customer: null,
    livemode: false,
    metadata: {},
    billing_details: { address: null, email: null, name: null, phone: null },
  };
  ctx.state.paymentMethods.set(id, method);
  ctx.state.methodSources.set(id, source);
  return method;
}

function confirmWith(ctx: OpContext, pi: PaymentIntent, pm: ResolvedMethod, expanded: string[]): OpResult {
  const outcome = pm.spec.outcome;
  const charge = newCharge(ctx, pi, pm.method, outcome.kind !== 'card_error');
  pi.latest_charge = charge.id;
  if (outcome.kind === 'card_error') {
    charge.failure_code = outcome.code;
    charge.failure_message = outcome.message;
    charge.outcome = {
      network_status: 'declined_by_network',
      reason: outcome.declineCode ?? null,
      risk_level: 'normal',
      risk_score: 20,
      seller_message: 'The bank did not return any further details with this decline.',
      type: 'issuer_declined',
    };
    const error = {
      type: 'card_error' as const,
      code: outcome.code,
      ...(outcome.declineCode ? { decline_code: outcome.declineCode } : {}),
      doc_url: `https://stripe.com/docs/error-codes/${outcome.code.replaceAll('_', '-')}`,
      message: outcome.message,
      charge: charge.id,
      payment_method: structuredClone(pm.method),
    };
    pi.status = 'requires_payment_method';
    pi.last_payment_error = error;
    pi.payment_method = null;
    const body = { ...error, payment_intent: renderIntent(ctx, pi, []) as PaymentIntent };
    // The endpoint ran: the decline is the stored idempotent result.
    throw new StripeHttpError(402, body, { stored: true });
  }
  pi.last_payment_error = null;
  if (pi.capture_method === 'manual') {
    pi.status = 'requires_capture';
    pi.amount_capturable = pi.amount;
  } else {
    pi.status = 'succeeded';
    pi.amount_received = pi.amount;
    charge.captured = true;
    charge.amount_captured = pi.amount;
    charge.balance_transaction = ctx.state.newId('txn');
  }
  const result: OpResult = { status: 200, body: renderIntent(ctx, pi, expanded) };
  if (outcome.kind === 'after_create') result.fault = outcome.fault;
  if (outcome.kind === 'slow') result.delayMs = outcome.ms;
  return result;
}

function newCharge(ctx: OpContext, pi: PaymentIntent, pm: PaymentMethod, paid: boolean): Charge {
  const charge: Charge = {
    id: ctx.state.newId('ch'),
    object: 'charge',
    amount: pi.amount,
    amount_captured: 0,
    amount_refunded: 0,
    balance_transaction: null,
    billing_details: pm.billing_details,
    captured: false,
    created: ctx.nowSec(),
    currency: pi.currency,
    customer: null,
    description: pi.description,
    disputed: false,
    failure_code: null,
    failure_message: null,
    livemode: false,
    metadata: { ...pi.metadata },
    outcome: {
      network_status: 'approved_by_network',
      reason: null,
      risk_level: 'normal',
      risk_score: 32,
      seller_message: 'Payment complete.',
      type: 'authorized',
    },
    paid,
    payment_intent: pi.id,
    payment_method: pm.id,
    payment_method_details: { type: 'card', card: { ...pm.card, network: pm.card.brand } },
    refunded: false,
    status: paid ? 'succeeded' : 'failed',
  };
  ctx.state.charges.set(charge.id, charge);
  return charge;
}

export function captureIntent(ctx: OpContext, id: string, params: FormObject): OpResult {
  allowOnly(params, [
    'amount_to_capture',
    'expand',
    'metadata',
    'final_capture',
    'statement_descriptor',
    'statement_descriptor_suffix',
  ]);
  const pi = getIntent(ctx, id);
  if (pi.status !== 'requires_capture') {
    throw unexpectedState(
      `This PaymentIntent could not be captured because it has a status of ${pi.status}. Only a PaymentIntent with one of the following statuses may be captured: requires_capture.`,
    );
  }
  const amount = int(params, 'amount_to_capture') ?? pi.amount_capturable;
  if (amount < 1) {
    throw invalidRequest('amount_too_small', 'Amount to capture must be at least 1.', 'amount_to_capture');
  }
  checkAmountStep(amount, pi.currency, 'amount_to_capture');
  if (amount > pi.amount_capturable) {
    throw invalidRequest(
      'amount_too_large',
      `The amount to capture (${amount}) must be less than or equal to the amount capturable (${pi.amount_capturable}).`,
      'amount_to_capture',
    );
  }
  const md = metadata(params);
  if (md) pi.metadata = { ...pi.metadata, ...md };
  const charge = ctx.state.charges.get(pi.latest_charge ?? '') as Charge;
  pi.status = 'succeeded';
  pi.amount_received = amount;
  pi.amount_capturable = 0;
  charge.captured = true;
  charge.amount_captured = amount;
  // As on Stripe, the part not captured is released and shows as refunded on the charge.
  charge.amount_refunded = pi.amount - amount;
  charge.balance_transaction = ctx.state.newId('txn');
  return { status: 200, body: renderIntent(ctx, pi, expand(params)) };
}

export function cancelIntent(ctx: OpContext, id: string, params: FormObject): OpResult {
  allowOnly(params, ['cancellation_reason', 'expand']);
  const pi = getIntent(ctx, id);
  const reason = oneOf(params, 'cancellation_reason', [
    'duplicate',
    'fraudulent',
    'requested_by_customer',
    'abandoned',
  ] as const);
  if (!(CANCELABLE as readonly string[]).includes(pi.status)) {
    throw unexpectedState(
      `You cannot cancel this PaymentIntent because it has a status of ${pi.status}. Only a PaymentIntent with one of the following statuses may be canceled: ${CANCELABLE.join(', ')}.`,
    );
  }
  const charge = pi.latest_charge ? ctx.state.charges.get(pi.latest_charge) : undefined;
  if (charge?.paid && !charge.captured) {
    // Voiding an authorization releases the whole hold; Stripe records it as a refund of the charge.
    charge.amount_refunded = charge.amount;
    charge.refunded = true;
  }
  pi.status = 'canceled';
  pi.amount_capturable = 0;
  pi.canceled_at = ctx.nowSec();
  pi.cancellation_reason = reason ?? null;
  return { status: 200, body: renderIntent(ctx, pi, expand(params)) };
}

export function listIntents(ctx: OpContext, params: FormObject): unknown {
  const limit = Math.min(Math.max(int(params, 'limit') ?? 10, 1), 100);
  const all = [...ctx.state.paymentIntents.values()].reverse();
  const data = all.slice(0, limit).map((pi) => renderIntent(ctx, pi, expand(params)));
  return { object: 'list', data, has_more: all.length > limit, url: '/v1/payment_intents' };
}

/**
 * Search by the documented query language, limited to what reconciliation needs:
 * `metadata['key']:'value'` and `status:'requires_capture'` terms joined by AND.
 */
export function searchIntents(ctx: OpContext, params: FormObject): unknown {
  const query = requiredStr(params, 'query');
  const terms = query.split(/\s+AND\s+/i).map((t) => t.trim());
  const preds: ((pi: PaymentIntent) => boolean)[] = [];
  for (const term of terms) {
    const m = /^metadata\[['"]([^'"]+)['"]\]:['"]([^'"]*)['"]$/.exec(term);
    const s = /^(status|currency):['"]([^'"]*)['"]$/.exec(term);
    if (m) preds.push((pi) => pi.metadata[m[1] as string] === m[2]);
    else if (s) preds.push((pi) => pi[s[1] as 'status' | 'currency'] === s[2]);
    else throw invalidRequest('parameter_invalid_string', `Invalid search query: ${term}`, 'query');
  }
  const data = [...ctx.state.paymentIntents.values()]
    .reverse()
    .filter((pi) => preds.every((p) => p(pi)))
    .map((pi) => renderIntent(ctx, pi, expand(params)));
  return {
    object: 'search_result',
    data,
    has_more: false,
    next_page: null,
    url: '/v1/payment_intents/search',
  };
}
