/**
 * The registry builds every supplier it is asked for or fails: an adapter module that cannot be imported
 * is a broken build and surfaces as an error at start, not as a supplier silently missing.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

const options = {
  config: { sandbox: false, suppliers: 'amadeus_transfers' },
  db: undefined as never,
  env: {
    AMADEUS_BASE_URL: 'http://127.0.0.1:9',
    AMADEUS_CLIENT_ID: 'id',
    AMADEUS_CLIENT_SECRET: 'secret',
    SUPPLIER_REF_SECRET: 'live-supplier-ref-secret-of-forty-chars!!',
  },
};

afterEach(() => {
  vi.doUnmock('../../src/suppliers/amadeus-transfers/index.ts');
  vi.resetModules();
});

describe('supplier registry loading', () => {
  it('builds the Amadeus transfers adapter when asked for', async () => {
    const { createSupplierRegistry } = await import('../../src/suppliers/registry.ts');
    const registry = await createSupplierRegistry(options);
    expect(registry.transfer('amadeus_transfers')?.name).toBe('amadeus_transfers');
  });

  it('an adapter module that fails to import fails the registry loudly', async () => {
    vi.resetModules();
    vi.doMock('../../src/suppliers/amadeus-transfers/index.ts', () => {
      throw new Error('SyntaxError in amadeus-transfers');
    });
    const { createSupplierRegistry } = await import('../../src/suppliers/registry.ts');
    const err = await createSupplierRegistry(options).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    // Vitest wraps the factory's error; the original is its cause.
    expect(err).toBeInstanceOf(Error);
    expect(`${err?.message} ${(err?.cause as Error | undefined)?.message}`).toMatch(
      /SyntaxError in amadeus-transfers/,
    );
  });
});
