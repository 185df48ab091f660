import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildDocument, OUTPUT, renderDocument } from './build.ts';

describe('openapi.json', () => {
  it('is up to date with contract/ (run `pnpm openapi` to regenerate)', () => {
    const checkedIn = JSON.parse(readFileSync(OUTPUT, 'utf8'));
    expect(
      checkedIn,
      'openapi.json is stale: run `pnpm openapi` (node contract/build.ts) and commit it',
    ).toEqual(buildDocument());
  });

  it('is byte-identical to the generator output (run `pnpm openapi` to regenerate)', () => {
    const same = readFileSync(OUTPUT, 'utf8') === renderDocument();
    expect(same, 'openapi.json formatting differs: run `pnpm openapi`').toBe(true);
  });
});
