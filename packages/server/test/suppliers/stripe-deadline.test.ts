/**
 * A payment provider call is bounded as a whole (suppliers/stripe/client.ts `totalTimeoutMs`): a provider
 * that hangs (`tok_sandbox_timeout`: the PaymentIntent is created, the answer never comes) is given up
 * after the total deadline, every retry included, as `unknown_outcome` (authorize answers 202 pending and
 * reconciliation finds the intent), instead of after three 30 s attempts (93 s). The default deadline
 * leaves the answer inside the SDK's documented 30 s client deadline.
 */
import { type MockServers, startMockServers } from '@travel/mock-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SupplierError } from '../../src/suppliers/ports/errors.ts';
import { PSP_CALL_DEADLINE_MS } from '../../src/suppliers/stripe/client.ts';
import { StripeAdapter } from '../../src/suppliers/stripe/index.ts';

/** The SDK's default per-attempt timeout (packages/sdk/README.md, `timeoutMs`). */
const SDK_CLIENT_DEADLINE_MS = 30_000;

let mocks: MockServers;
beforeAll(async () => {
  mocks = await startMockServers({ suppliers: ['stripe'], options: { latencyMs: 0 } });
});
afterAll(() => mocks?.close());

describe('the PSP call deadline', () => {
  it('a hanging authorize gives up after the total deadline with its retries, as unknown_outcome', async () => {
    const adapter = new StripeAdapter({
      baseUrl: mocks.urls.stripe as string,
      secretKey: 'sk_test_sandbox',
      timeoutMs: 30_000,
      maxNetworkRetries: 2,
      totalTimeoutMs: 1_500,
    });
    const t0 = Date.now();
    const err = await adapter
      .authorize(
        {
          token: 'tok_sandbox_timeout',
          amount_minor: 1000,
          currency: 'GBP',
          description: 'deadline',
          metadata: { intent_ref: 'deadline-1' },
        },
        { idempotencyKey: `deadline-${t0}` },
      )
      .catch((e: unknown) => e);
    const took = Date.now() - t0;
    expect(err).toBeInstanceOf(SupplierError);
    expect((err as SupplierError).kind).toBe('unknown_outcome');
    expect(took).toBeLessThan(1_500 + 5_000);
    // The intent was created at the provider: reconciliation finds it by reference.
    const found = await new StripeAdapter({
      baseUrl: mocks.urls.stripe as string,
      secretKey: 'sk_test_sandbox',
    }).findByReference('deadline-1');
    expect(found?.status).toBe('requires_capture');
  });

  it('the default deadline, with the retries’ backoff, stays inside the SDK’s client deadline', () => {
    expect(PSP_CALL_DEADLINE_MS + 5_000).toBeLessThan(SDK_CLIENT_DEADLINE_MS);
  });
});
