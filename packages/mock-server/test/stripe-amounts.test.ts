/**
 * Stripe's three-decimal currencies (https://docs.stripe.com/currencies): PaymentIntents, captures and
 * refunds in BHD, JOD, KWD, OMR and TND take only amounts whose last digit is 0; two-decimal currencies
 * take any minor amount. The emulator refuses the others with 400 invalid_request_error, creating nothing.
 */
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClock } from '../src/shared/clock.ts';
import { ecbXml, SANDBOX_FX_RATES } from '../src/shared/fx.ts';
import { moneyText } from '../src/shared/money.ts';
import { stripeHandlers } from '../src/suppliers/stripe/index.ts';

const BASE = 'https://stripe-amounts.test';
const KEY = 'sk_test_emulator_1234567890';
const clock = createClock({ start: Date.parse('2026-03-01T10:00:00Z'), frozen: true });
const { handlers, state } = stripeHandlers({ baseUrl: BASE, clock: clock.now, latencyMs: 0, seed: 7 });
const server = setupServer(...handlers);
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => state.reset());
afterAll(() => server.close());

// biome-ignore lint/suspicious/noExplicitAny: response bodies are read loosely in assertions
type Json = Record<string, any>;

async function post(path: string, form: Record<string, string>): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${BASE}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  return { status: res.status, body: (await res.json()) as Json };
}

const authorize = (amount: number, currency: string) =>
  post('/v1/payment_intents', {
    amount: String(amount),
    currency,
    confirm: 'true',
    capture_method: 'manual',
    'payment_method_data[type]': 'card',
    'payment_method_data[card][token]': 'tok_sandbox_ok',
  });

describe('three-decimal currencies', () => {
  it.each(['kwd', 'bhd', 'omr'])(
    '%s: an amount not ending in 0 is refused, one ending in 0 is authorized',
    async (c) => {
      const bad = await authorize(55_123, c);
      expect(bad.status).toBe(400);
      expect(bad.body.error).toMatchObject({
        type: 'invalid_request_error',
        code: 'invalid_charge_amount',
        param: 'amount',
      });
      expect(state.paymentIntents.size).toBe(0);
      const ok = await authorize(55_120, c);
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({ amount: 55_120, currency: c, status: 'requires_capture' });
    },
  );

  it('partial capture and refunds follow the same rule', async () => {
    const pi = (await authorize(55_000, 'kwd')).body;
    const badCapture = await post(`/v1/payment_intents/${pi.id}/capture`, { amount_to_capture: '30005' });
    expect(badCapture.status).toBe(400);
    expect(badCapture.body.error.param).toBe('amount_to_capture');
    expect((await post(`/v1/payment_intents/${pi.id}/capture`, { amount_to_capture: '30000' })).status).toBe(
      200,
    );
    const badRefund = await post('/v1/refunds', { payment_intent: pi.id, amount: '1001' });
    expect(badRefund.status).toBe(400);
    expect(badRefund.body.error.code).toBe('invalid_charge_amount');
    expect(state.refunds.size).toBe(0);
    const refund = await post('/v1/refunds', { payment_intent: pi.id, amount: '1000' });
    expect(refund.status).toBe(200);
    expect(refund.body.amount).toBe(1000);
  });

  it('two-decimal currencies take any minor amount', async () => {
    expect((await authorize(55_123, 'gbp')).status).toBe(200);
    expect((await authorize(55_123, 'usd')).status).toBe(200);
  });
});

describe('the sandbox rates table', () => {
  it('covers every currency of the platform, in the ECB XML format too, and money text uses ISO 4217 decimals', () => {
    for (const c of [
      'GBP',
      'USD',
      'EUR',
      'BDT',
      'SAR',
      'AED',
      'BHD',
      'QAR',
      'KWD',
      'OMR',
      'PKR',
      'INR',
      'MYR',
      'SGD',
      'LKR',
    ]) {
      expect(SANDBOX_FX_RATES.rates[c]).toBeGreaterThan(0);
    }
    expect(ecbXml()).toContain(`<Cube currency='KWD' rate='${SANDBOX_FX_RATES.rates.KWD}'/>`);
    expect(moneyText(55_000, 'KWD')).toBe('55.000');
    expect(moneyText(5_500, 'GBP')).toBe('55.00');
  });
});
