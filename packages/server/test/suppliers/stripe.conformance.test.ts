/**
 * PaymentProvider conformance for the Stripe adapter, through the official `stripe` client, against the
 * Stripe emulator served over real HTTP. The client, which nobody here wrote, working unchanged is what
 * proves the emulator speaks Stripe's protocol.
 */
import { type MockServers, type StripeState, startMockServers } from '@travel/mock-server';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SupplierError } from '../../src/suppliers/ports/errors.ts';
import { StripeAdapter } from '../../src/suppliers/stripe/index.ts';

const KEY = 'sk_test_conformance_0123456789';
let mocks: MockServers;
let baseUrl: string;
let adapter: StripeAdapter;
let n = 0;
const key = (): string => `conf-${process.pid}-${++n}`;

beforeAll(async () => {
  mocks = await startMockServers({ suppliers: ['stripe'], options: { latencyMs: 0 } });
  baseUrl = mocks.urls.stripe as string;
  // No automatic retries: each case sees the emulator's first answer.
  adapter = new StripeAdapter({ baseUrl, secretKey: KEY, maxNetworkRetries: 0, timeoutMs: 5000 });
});
afterAll(() => mocks.close());

const authorize = (token = 'tok_sandbox_ok', amount = 20000, idempotencyKey = key(), a = adapter) =>
  a.authorize(
    {
      token,
      amount_minor: amount,
      currency: 'GBP',
      description: 'Booking 42',
      metadata: { booking_id: '42' },
    },
    { idempotencyKey },
  );

/** Resolves once the emulator holds `idempotencyKey` as claimed by a request in flight (no sleep). */
const claimed = (idempotencyKey: string) =>
  vi.waitFor(() => {
    const keys = [...(mocks.states.stripe as StripeState).idempotency.keys()];
    expect(keys.some((k) => k.endsWith(`\u0000${idempotencyKey}`))).toBe(true);
  });

async function failure(p: Promise<unknown>): Promise<SupplierError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(SupplierError);
    return err as SupplierError;
  }
  throw new Error('expected a SupplierError');
}

describe('stripe PaymentProvider conformance', () => {
  it('authorizes (manual capture)', async () => {
    const p = await authorize();
    expect(p).toMatchObject({
      provider: 'stripe',
      status: 'requires_capture',
      amount_minor: 20000,
      amount_capturable_minor: 20000,
      amount_received_minor: 0,
      amount_refunded_minor: 0,
      currency: 'GBP',
    });
    expect(p.payment_ref).toMatch(/^pi_/);
    expect(await adapter.get(p.payment_ref)).toEqual(p);
  });

  it('authorizes with a pm_card_* test PaymentMethod', async () => {
    expect((await authorize('pm_card_mastercard')).status).toBe('requires_capture');
  });

  it('captures in full', async () => {
    const p = await authorize();
    const c = await adapter.capture(p.payment_ref, undefined, { idempotencyKey: key() });
    expect(c).toMatchObject({
      status: 'succeeded',
      amount_received_minor: 20000,
      amount_capturable_minor: 0,
    });
  });

  it('captures partially; the released rest is not a refund', async () => {
    const p = await authorize();
    const c = await adapter.capture(p.payment_ref, 15000, { idempotencyKey: key() });
    expect(c).toMatchObject({ status: 'succeeded', amount_received_minor: 15000, amount_refunded_minor: 0 });
  });

  it('voids an authorization, after which capture is rejected', async () => {
    const p = await authorize();
    const v = await adapter.void(p.payment_ref, 'abandoned', { idempotencyKey: key() });
    expect(v).toMatchObject({ status: 'canceled', amount_capturable_minor: 0, amount_received_minor: 0 });
    const err = await failure(adapter.capture(p.payment_ref, undefined, { idempotencyKey: key() }));
    expect(err).toMatchObject({ kind: 'rejected', supplierCode: 'payment_intent_unexpected_state' });
  });

  it('refunds partially, then in full; an over-refund is refused', async () => {
    const p = await authorize();
    await adapter.capture(p.payment_ref, 15000, { idempotencyKey: key() });
    const r1 = await adapter.refund(p.payment_ref, 5000, 'customer changed plans', { idempotencyKey: key() });
    expect(r1.refund_ref).toMatch(/^re_/);
    expect(r1).toMatchObject({ amount_minor: 5000, payment: { amount_refunded_minor: 5000 } });
    const over = await failure(adapter.refund(p.payment_ref, 10001, undefined, { idempotencyKey: key() }));
    expect(over).toMatchObject({ kind: 'rejected', supplierCode: 'amount_too_large' });
    const r2 = await adapter.refund(p.payment_ref, undefined, 'requested_by_customer', {
      idempotencyKey: key(),
    });
    expect(r2).toMatchObject({ amount_minor: 10000, payment: { amount_refunded_minor: 15000 } });
    const again = await failure(adapter.refund(p.payment_ref, 1, undefined, { idempotencyKey: key() }));
    expect(again).toMatchObject({ kind: 'rejected', supplierCode: 'charge_already_refunded' });
  });

  it('refuses to refund before capture', async () => {
    const p = await authorize();
    const err = await failure(adapter.refund(p.payment_ref, undefined, undefined, { idempotencyKey: key() }));
    expect(err.kind).toBe('rejected');
  });

  it('declines: SupplierError declined with decline_code', async () => {
    const generic = await failure(authorize('tok_sandbox_decline'));
    expect(generic).toMatchObject({
      kind: 'declined',
      supplier: 'stripe',
      details: { decline_code: 'generic_decline' },
    });
    const funds = await failure(authorize('pm_card_chargeDeclinedInsufficientFunds'));
    expect(funds.details).toMatchObject({ decline_code: 'insufficient_funds', code: 'card_declined' });
    const expired = await failure(authorize('tok_sandbox_expired_card'));
    expect(expired.details.decline_code).toBe('expired_card');
  });

  it('replays the same key through the official client (Idempotent-Replayed)', async () => {
    const stripe = new Stripe(KEY, { ...hostPort(baseUrl), maxNetworkRetries: 0 });
    const params: Stripe.PaymentIntentCreateParams = {
      amount: 1234,
      currency: 'usd',
      payment_method: 'pm_card_visa',
      confirm: true,
      capture_method: 'manual',
      metadata: { booking_id: '7' },
    };
    const idempotencyKey = key();
    const first = await stripe.paymentIntents.create(params, { idempotencyKey });
    const second = await stripe.paymentIntents.create(params, { idempotencyKey });
    expect(second.id).toBe(first.id);
    expect(second.lastResponse.headers['idempotent-replayed']).toBe('true');
    expect(first.lastResponse.headers['idempotent-replayed']).toBeUndefined();

    const k = key();
    const a = await authorize('tok_sandbox_ok', 20000, k);
    const b = await authorize('tok_sandbox_ok', 20000, k);
    expect(b).toEqual(a);
  });

  it('same key with different parameters: idempotency error', async () => {
    const k = key();
    await authorize('tok_sandbox_ok', 20000, k);
    const err = await failure(authorize('tok_sandbox_ok', 20001, k));
    expect(err).toMatchObject({ kind: 'invalid_request', supplierCode: 'idempotency_error' });
  });

  it('same key while the first request is in flight: conflict, outcome unknown', async () => {
    const k = key();
    const slow = authorize('tok_sandbox_slow', 20000, k);
    await claimed(k);
    const err = await failure(authorize('tok_sandbox_slow', 20000, k));
    expect(err).toMatchObject({ kind: 'unknown_outcome', supplierCode: 'idempotency_key_in_use' });
    expect((await slow).status).toBe('requires_capture');
  });

  it('with retries on, the official client rides out the in-flight conflict and gets the replay', async () => {
    const retrying = new StripeAdapter({ baseUrl, secretKey: KEY, maxNetworkRetries: 3 });
    const k = key();
    const [a, b] = await Promise.all([
      authorize('tok_sandbox_slow', 20000, k, retrying),
      claimed(k).then(() => authorize('tok_sandbox_slow', 20000, k, retrying)),
    ]);
    expect(b.payment_ref).toBe(a.payment_ref);
  });

  it('5xx after the intent was created: unknown_outcome, never declined', async () => {
    const err = await failure(authorize('tok_sandbox_error_after_create'));
    expect(err.kind).toBe('unknown_outcome');
    const before = await failure(authorize('tok_sandbox_processing_error'));
    expect(before.kind).toBe('unknown_outcome');
  });

  it('timeout on authorize: unknown_outcome', async () => {
    const quick = new StripeAdapter({ baseUrl, secretKey: KEY, maxNetworkRetries: 0, timeoutMs: 300 });
    const err = await failure(authorize('tok_sandbox_timeout', 20000, key(), quick));
    expect(err.kind).toBe('unknown_outcome');
  });

  it('caller abort on authorize: unknown_outcome', async () => {
    const err = await failure(
      adapter.authorize(
        { token: 'tok_sandbox_timeout', amount_minor: 100, currency: 'USD', description: 'x', metadata: {} },
        { idempotencyKey: key(), signal: AbortSignal.timeout(200) },
      ),
    );
    expect(err.kind).toBe('unknown_outcome');
  });

  it('connection reset on authorize: unknown_outcome', async () => {
    const err = await failure(authorize('tok_sandbox_connection_reset'));
    expect(err.kind).toBe('unknown_outcome');
  });

  it('unknown payment: not_found; bad key: auth_failed and the key is not in the error', async () => {
    expect((await failure(adapter.get('pi_does_not_exist'))).kind).toBe('not_found');
    const bad = new StripeAdapter({
      baseUrl,
      secretKey: 'sk_live_wrong_but_secret_value_XYZ',
      maxNetworkRetries: 0,
    });
    const err = await failure(bad.get('pi_x'));
    expect(err.kind).toBe('auth_failed');
    expect(JSON.stringify({ ...err, message: err.message })).not.toContain('secret_value');
  });
});

function hostPort(url: string): { host: string; port: number; protocol: 'http' | 'https' } {
  const u = new URL(url);
  return { host: u.hostname, port: Number(u.port), protocol: u.protocol === 'https:' ? 'https' : 'http' };
}
