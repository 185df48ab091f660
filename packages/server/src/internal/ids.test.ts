import { expect, it } from 'vitest';
import { newOfferId } from './ids.ts';

it('offer ids are of_ and 96 random bits, distinct across 29 refills of the 4 KiB random pool', () => {
  const ids = Array.from({ length: 10_000 }, newOfferId);
  for (const id of ids) expect(id).toMatch(/^of_[A-Za-z0-9_-]{16}$/);
  expect(new Set(ids).size).toBe(ids.length);
});
