import { expect, test } from 'vitest';
import { SupplierError } from '../src/suppliers/ports/errors.ts';

test('supplier errors say whether a retry can help', () => {
  expect(new SupplierError('amadeus', 'timeout', 'slow').retryable).toBe(true);
  expect(new SupplierError('amadeus', 'unknown_outcome', 'maybe').retryable).toBe(false);
});
