import { moneyText } from '../../shared/money.ts';
import { checkAmountStep } from './amounts.ts';
import { invalidRequest, parameterMissing, resourceMissing } from './errors.ts';
import type { FormObject } from './form.ts';
import { allowOnly, expand, int, metadata, oneOf, str } from './params.ts';
import { getIntent, type OpContext, type OpResult, renderIntent } from './payment-intents.ts';
import type { Charge, Refund } from './state.ts';

const money = (minor: number, currency: string): string =>
  `${currency === 'usd' ? '$' : `${currency.toUpperCase()} `}${moneyText(minor, currency.toUpperCase())}`;

/**
 * `POST /v1/refunds`: refund all or part of a captured payment. Never more than what was captured minus
 * what was refunded (Stripe's "greater than unrefunded amount on charge").
 */
export function createRefund(ctx: OpContext, params: FormObject): OpResult {
  allowOnly(params, [
    'payment_intent',
    'charge',
    'amount',
    'reason',
    'metadata',
    'expand',
    'instructions_email',
    'refund_application_fee',
    'reverse_transfer',
  ]);
  const piId = str(params, 'payment_intent');
  const chargeId = str(params, 'charge');
  let charge: Charge | undefined;
  if (piId !== undefined) {
    const pi = getIntent(ctx, piId);
    charge = pi.latest_charge ? ctx.state.charges.get(pi.latest_charge) : undefined;
    if (pi.status !== 'succeeded' || !charge) {
      throw invalidRequest(
        'payment_intent_unexpected_state',
        `This PaymentIntent (${pi.id}) does not have a successful charge to refund.`,
        'payment_intent',
        { stored: true },
      );
    }
  } else if (chargeId !== undefined) {
    charge = ctx.state.charges.get(chargeId);
    if (!charge) throw resourceMissing('charge', chargeId, 'charge');
  } else {
    throw parameterMissing('payment_intent');
  }
  const reason = oneOf(params, 'reason', ['duplicate', 'fraudulent', 'requested_by_customer'] as const);
  const unrefunded = charge.amount - charge.amount_refunded;
  if (!charge.captured || unrefunded <= 0) {
    throw invalidRequest(
      'charge_already_refunded',
      `Charge ${charge.id} has already been refunded.`,
      undefined,
      { stored: true },
    );
  }
  const amount = int(params, 'amount') ?? unrefunded;
  if (amount < 1) throw invalidRequest('amount_too_small', 'Refund amount must be at least 1.', 'amount');
  checkAmountStep(amount, charge.currency, 'amount');
  if (amount > unrefunded) {
    throw invalidRequest(
      'amount_too_large',
      `Refund amount (${money(amount, charge.currency)}) is greater than unrefunded amount on charge (${money(unrefunded, charge.currency)})`,
      'amount',
      { stored: true },
    );
  }
  charge.amount_refunded += amount;
  charge.refunded = charge.amount_refunded >= charge.amount;
  const refund: Refund = {
    id: ctx.state.newId('re'),
    object: 'refund',
    amount,
    balance_transaction: ctx.state.newId('txn'),
    charge: charge.id,
    created: ctx.nowSec(),
    currency: charge.currency,
    destination_details: { type: 'card', card: { type: 'refund', reference_status: 'pending' } },
    metadata: metadata(params) ?? {},
    payment_intent: charge.payment_intent,
    reason: reason ?? null,
    receipt_number: null,
    source_transfer_reversal: null,
    status: 'succeeded',
    transfer_reversal: null,
  };
  ctx.state.refunds.set(refund.id, refund);
  return { status: 200, body: renderRefund(ctx, refund, expand(params)) };
}

export function getRefund(ctx: OpContext, id: string, params: FormObject): unknown {
  const refund = ctx.state.refunds.get(id);
  if (!refund) throw resourceMissing('refund', id, 'id');
  return renderRefund(ctx, refund, expand(params));
}

export function listRefunds(ctx: OpContext, params: FormObject): unknown {
  const pi = str(params, 'payment_intent');
  const charge = str(params, 'charge');
  const limit = Math.min(Math.max(int(params, 'limit') ?? 10, 1), 100);
  const all = [...ctx.state.refunds.values()]
    .reverse()
    .filter(
      (r) => (pi === undefined || r.payment_intent === pi) && (charge === undefined || r.charge === charge),
    );
  return {
    object: 'list',
    data: all.slice(0, limit).map((r) => renderRefund(ctx, r, expand(params))),
    has_more: all.length > limit,
    url: '/v1/refunds',
  };
}

function renderRefund(ctx: OpContext, refund: Refund, expanded: string[]): unknown {
  const out: Record<string, unknown> = { ...structuredClone(refund) };
  if (expanded.includes('charge')) out.charge = structuredClone(ctx.state.charges.get(refund.charge));
  if (expanded.includes('payment_intent')) {
    out.payment_intent = renderIntent(ctx, getIntent(ctx, refund.payment_intent), []);
  }
  return out;
}
