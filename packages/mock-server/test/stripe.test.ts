/**
 * The Stripe emulator in-process (msw/node setupServer), spoken to in raw HTTP the way Stripe documents it:
 * form encoding, bracket notation, Bearer auth, idempotency, card errors. The official client is exercised
 * by the server's conformance suite (packages/server/test/suppliers/stripe.conformance.test.ts).
 */
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClock } from '../src/shared/clock.ts';
import { parseStripeForm } from '../src/suppliers/stripe/form.ts';
import { STRIPE_TEST_TOKENS, stripeHandlers } from '../src/suppliers/stripe/index.ts';

const BASE = 'https://stripe.test';
const KEY = 'sk_test_emulator_1234567890';
const clock = createClock({ start: Date.parse('2026-03-01T10:00:00Z'), frozen: true });
const { handlers, state } = stripeHandlers({ baseUrl: BASE, clock: clock.now, latencyMs: 0, seed: 7 });
const server = setupServer(...handlers);

beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => state.reset());
afterAll(() => server.close());

// biome-ignore lint/suspicious/noExplicitAny: response bodies are read loosely in assertions
type Json = Record<string, any>;

async function call(
  method: string,
  path: string,
  form?: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Json; headers: Headers }> {
  const res = await fetch(`${BASE}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${KEY}`,
      ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      ...headers,
    },
    body: form ? new URLSearchParams(form).toString() : undefined,
  });
  return { status: res.status, body: (await res.json()) as Json, headers: res.headers };
}

const authorize = (token: string, extra: Record<string, string> = {}, headers = {}) =>
  call(
    'POST',
    '/v1/payment_intents',
    {
      amount: '12500',
      currency: 'gbp',
      confirm: 'true',
      capture_method: 'manual',
      'payment_method_data[type]': 'card',
      'payment_method_data[card][token]': token,
      'metadata[booking_id]': '42',
      ...extra,
    },
    headers,
  );

describe('form encoding', () => {
  it('parses bracket notation and indexed or empty-bracket arrays', () => {
    expect(
      parseStripeForm('a=1&metadata[x]=y&payment_method_data[card][token]=t&expand[]=p&expand[]=q&l[0]=z'),
    ).toEqual({
      a: '1',
      metadata: { x: 'y' },
      payment_method_data: { card: { token: 't' } },
      expand: ['p', 'q'],
      l: ['z'],
    });
  });

  it('refuses JSON bodies and unknown parameters as Stripe does', async () => {
    const json = await fetch(`${BASE}/v1/payment_intents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: '{"amount":1}',
    });
    expect(json.status).toBe(400);
    const unknown = await call('POST', '/v1/payment_intents', { amount: '1', currency: 'usd', amout: '2' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({
      type: 'invalid_request_error',
      code: 'parameter_unknown',
      param: 'amout',
    });
    const missing = await call('POST', '/v1/payment_intents', { currency: 'usd' });
    expect(missing.body.error.code).toBe('parameter_missing');
  });
});

describe('auth', () => {
  it('401 without a key, and masks a bad key', async () => {
    const none = await fetch(`${BASE}/v1/payment_intents/pi_x`);
    expect(none.status).toBe(401);
    const bad = await call('GET', '/v1/payment_intents/pi_x', undefined, {
      authorization: 'Bearer sk_live_reallysecretvalue9876',
    });
    expect(bad.status).toBe(401);
    expect(bad.body.error.message).not.toContain('reallysecret');
  });

  it('accepts Basic auth with the key as user name', async () => {
    const res = await call('GET', '/v1/payment_intents', undefined, {
      authorization: `Basic ${Buffer.from(`${KEY}:`).toString('base64')}`,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'list', data: [] });
  });
});

describe('payment intents', () => {
  it('authorizes with manual capture in the real Stripe shape', async () => {
    const { status, body } = await authorize('tok_sandbox_ok');
    expect(status).toBe(200);
    expect(body).toMatchObject({
      object: 'payment_intent',
      status: 'requires_capture',
      amount: 12500,
      amount_capturable: 12500,
      amount_received: 0,
      capture_method: 'manual',
      currency: 'gbp',
      metadata: { booking_id: '42' },
      livemode: false,
      created: Date.parse('2026-03-01T10:00:00Z') / 1000,
    });
    expect(body.id).toMatch(/^pi_/);
    expect(body.latest_charge).toMatch(/^ch_/);
    expect(body.payment_method).toMatch(/^pm_/);
    expect(body.client_secret).toContain(`${body.id}_secret_`);
  });

  it('accepts pm_card_visa as payment_method and expands latest_charge', async () => {
    const { body } = await call('POST', '/v1/payment_intents', {
      amount: '500',
      currency: 'usd',
      payment_method: 'pm_card_visa',
      confirm: 'true',
      capture_method: 'manual',
      'expand[]': 'latest_charge',
    });
    expect(body.latest_charge).toMatchObject({ object: 'charge', captured: false, paid: true });
    expect(body.latest_charge.payment_method_details.card).toMatchObject({ brand: 'visa', last4: '4242' });
  });

  it('creates without confirming, then confirms', async () => {
    const created = await call('POST', '/v1/payment_intents', { amount: '700', currency: 'eur' });
    expect(created.body.status).toBe('requires_payment_method');
    const confirmed = await call('POST', `/v1/payment_intents/${created.body.id}/confirm`, {
      payment_method: 'pm_card_mastercard',
      capture_method: 'manual',
    });
    expect(confirmed.body.status).toBe('requires_capture');
  });

  it('captures partially, then refuses a second capture', async () => {
    const { body: pi } = await authorize('tok_sandbox_ok');
    const cap = await call('POST', `/v1/payment_intents/${pi.id}/capture`, { amount_to_capture: '10000' });
    expect(cap.body).toMatchObject({ status: 'succeeded', amount_received: 10000, amount_capturable: 0 });
    const again = await call('POST', `/v1/payment_intents/${pi.id}/capture`, {});
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('payment_intent_unexpected_state');
  });

  it('refuses capturing more than authorized', async () => {
    const { body: pi } = await authorize('tok_sandbox_ok');
    const res = await call('POST', `/v1/payment_intents/${pi.id}/capture`, { amount_to_capture: '12501' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'amount_too_large', param: 'amount_to_capture' });
  });

  it('cancels (void) an authorization and refuses to cancel a captured one', async () => {
    const { body: pi } = await authorize('tok_sandbox_ok');
    const res = await call('POST', `/v1/payment_intents/${pi.id}/cancel`, {
      cancellation_reason: 'abandoned',
    });
    expect(res.body).toMatchObject({
      status: 'canceled',
      cancellation_reason: 'abandoned',
      amount_capturable: 0,
    });
    expect(res.body.canceled_at).toBeTypeOf('number');
    const { body: other } = await authorize('tok_sandbox_ok');
    await call('POST', `/v1/payment_intents/${other.id}/capture`, {});
    const refused = await call('POST', `/v1/payment_intents/${other.id}/cancel`, {});
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('payment_intent_unexpected_state');
  });

  it('404 resource_missing for an unknown intent, Stripe-style 404 for an unknown route', async () => {
    const res = await call('GET', '/v1/payment_intents/pi_nope');
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 'resource_missing', type: 'invalid_request_error' });
    const route = await call('GET', '/v1/nothing_here');
    expect(route.status).toBe(404);
    expect(route.body.error.message).toContain('Unrecognized request URL');
  });

  it('finds intents by metadata through search (reconciliation)', async () => {
    await authorize('tok_sandbox_ok', { 'metadata[booking_id]': '77' });
    await authorize('tok_sandbox_ok', { 'metadata[booking_id]': '78' });
    const res = await call(
      'GET',
      `/v1/payment_intents/search?query=${encodeURIComponent("metadata['booking_id']:'77'")}`,
    );
    expect(res.body.object).toBe('search_result');
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0].metadata.booking_id).toBe('77');
  });
});

describe('refunds', () => {
  it('partial then full, never more than captured minus refunded', async () => {
    const { body: pi } = await authorize('tok_sandbox_ok');
    await call('POST', `/v1/payment_intents/${pi.id}/capture`, { amount_to_capture: '10000' });
    const part = await call('POST', '/v1/refunds', { payment_intent: pi.id, amount: '4000' });
    expect(part.body).toMatchObject({
      object: 'refund',
      amount: 4000,
      status: 'succeeded',
      payment_intent: pi.id,
    });
    const over = await call('POST', '/v1/refunds', { payment_intent: pi.id, amount: '6001' });
    expect(over.status).toBe(400);
    expect(over.body.error).toMatchObject({ code: 'amount_too_large', param: 'amount' });
    const rest = await call('POST', '/v1/refunds', { payment_intent: pi.id });
    expect(rest.body.amount).toBe(6000);
    const done = await call('POST', '/v1/refunds', { payment_intent: pi.id, amount: '1' });
    expect(done.body.error.code).toBe('charge_already_refunded');
    const got = await call('GET', `/v1/refunds/${part.body.id}?expand[]=charge`);
    expect(got.body.charge).toMatchObject({ amount_refunded: 12500, refunded: true, amount_captured: 10000 });
    const list = await call('GET', `/v1/refunds?payment_intent=${pi.id}`);
    expect(list.body.data).toHaveLength(2);
  });

  it('refuses to refund an uncaptured authorization', async () => {
    const { body: pi } = await authorize('tok_sandbox_ok');
    const res = await call('POST', '/v1/refunds', { payment_intent: pi.id });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('payment_intent_unexpected_state');
  });
});

describe('card errors', () => {
  it('402 with decline_code and the payment_intent', async () => {
    const { status, body } = await authorize('tok_sandbox_insufficient_funds');
    expect(status).toBe(402);
    expect(body.error).toMatchObject({
      type: 'card_error',
      code: 'card_declined',
      decline_code: 'insufficient_funds',
      message: 'Your card has insufficient funds.',
    });
    expect(body.error.payment_intent).toMatchObject({
      object: 'payment_intent',
      status: 'requires_payment_method',
      last_payment_error: { decline_code: 'insufficient_funds' },
    });
    expect(body.error.charge).toMatch(/^ch_/);
  });

  const declines = Object.entries(STRIPE_TEST_TOKENS).filter(([, s]) => s.outcome.kind === 'card_error');
  it.each(declines)('%s declines', async (token, spec) => {
    const { status, body } = await authorize(token);
    expect(status).toBe(402);
    if (spec.outcome.kind !== 'card_error') throw new Error('unreachable');
    expect(body.error.code).toBe(spec.outcome.code);
    expect(body.error.decline_code).toBe(spec.outcome.declineCode);
  });

  const successes = Object.entries(STRIPE_TEST_TOKENS).filter(([, s]) => s.outcome.kind === 'authorize');
  it.each(successes)('%s authorizes', async (token) => {
    const { status, body } = await authorize(token);
    expect(status).toBe(200);
    expect(body.status).toBe('requires_capture');
  });
});

describe('idempotency', () => {
  it('replays the same response with Idempotent-Replayed', async () => {
    const first = await authorize('tok_sandbox_ok', {}, { 'idempotency-key': 'idem-1' });
    const second = await authorize('tok_sandbox_ok', {}, { 'idempotency-key': 'idem-1' });
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(state.paymentIntents.size).toBe(1);
  });

  it('replays a decline too (the endpoint ran)', async () => {
    const first = await authorize('tok_sandbox_decline', {}, { 'idempotency-key': 'idem-d' });
    const second = await authorize('tok_sandbox_decline', {}, { 'idempotency-key': 'idem-d' });
    expect(second.status).toBe(402);
    expect(second.body).toEqual(first.body);
  });

  it('400 idempotency_error when the parameters differ', async () => {
    await authorize('tok_sandbox_ok', {}, { 'idempotency-key': 'idem-2' });
    const res = await authorize('tok_sandbox_ok', { amount: '1' }, { 'idempotency-key': 'idem-2' });
    expect(res.status).toBe(400);
    expect(res.body.error.type).toBe('idempotency_error');
  });

  it('409 while the first request with the key is in flight', async () => {
    const slow = authorize('tok_sandbox_slow', {}, { 'idempotency-key': 'idem-3' });
    // The first request has claimed its key (in flight, no answer yet) before the duplicate is sent.
    await vi.waitFor(() =>
      expect([...state.idempotency.keys()].some((k) => k.endsWith('\u0000idem-3'))).toBe(true),
    );
    const conflict = await authorize('tok_sandbox_slow', {}, { 'idempotency-key': 'idem-3' });
    expect(conflict.status).toBe(409);
    expect(conflict.body.error.code).toBe('idempotency_key_in_use');
    expect((await slow).status).toBe(200);
  });

  it('does not keep validation failures: the key stays usable', async () => {
    const bad = await authorize('tok_sandbox_ok', { amount: 'x' }, { 'idempotency-key': 'idem-4' });
    expect(bad.status).toBe(400);
    const good = await authorize('tok_sandbox_ok', {}, { 'idempotency-key': 'idem-4' });
    expect(good.status).toBe(200);
  });

  it('expires keys after 24 hours on the emulator clock', async () => {
    await authorize('tok_sandbox_ok', {}, { 'idempotency-key': 'idem-5' });
    clock.advance(24 * 60 * 60 * 1000 + 1);
    const res = await authorize('tok_sandbox_ok', { amount: '99' }, { 'idempotency-key': 'idem-5' });
    expect(res.status).toBe(200);
  });
});

describe('faults', () => {
  it('processing error: 500 before anything exists', async () => {
    const res = await authorize('tok_sandbox_processing_error');
    expect(res.status).toBe(500);
    expect(res.body.error.type).toBe('api_error');
    expect(state.paymentIntents.size).toBe(0);
  });

  it('error after create: 500, but the intent exists and is authorized', async () => {
    const res = await authorize('tok_sandbox_error_after_create', { 'metadata[booking_id]': '901' });
    expect(res.status).toBe(500);
    expect(res.headers.get('stripe-should-retry')).toBe('false');
    const [pi] = [...state.paymentIntents.values()];
    expect(pi?.status).toBe('requires_capture');
  });

  it('connection reset after create: fetch fails, the intent exists', async () => {
    await expect(authorize('tok_sandbox_connection_reset')).rejects.toThrow();
    expect(state.paymentIntents.size).toBe(1);
  });

  it('timeout: never answers until the caller gives up', async () => {
    await expect(
      fetch(`${BASE}/v1/payment_intents`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'amount=100&currency=usd&confirm=true&payment_method=tok_sandbox_timeout',
        signal: AbortSignal.timeout(200),
      }),
    ).rejects.toThrow();
    expect(state.paymentIntents.size).toBe(1);
  });
});
