import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildDocument, OUTPUT, renderDocument } from './build.ts';
import {
  declaredErrorCodes,
  ERROR_CODES_OUTPUT,
  renderErrorCodes,
  renderSchemaTypes,
  SCHEMA_OUTPUT,
} from './generate.ts';
import { errorCodes, isErrorCode } from './index.ts';

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

describe('@travel/contract generated files', () => {
  it('generated/schema.ts is what openapi-typescript makes of the contract (run `pnpm openapi`)', async () => {
    const fresh = await renderSchemaTypes(renderDocument());
    const same = readFileSync(SCHEMA_OUTPUT, 'utf8') === fresh;
    expect(same, 'contract/generated/schema.ts is stale: run `pnpm openapi` and commit it').toBe(true);
  }, 60_000);

  it('generated/error-codes.ts lists every x-error-codes of the contract (run `pnpm openapi`)', () => {
    const same = readFileSync(ERROR_CODES_OUTPUT, 'utf8') === renderErrorCodes(buildDocument());
    expect(same, 'contract/generated/error-codes.ts is stale: run `pnpm openapi` and commit it').toBe(true);
  });

  it('errorCodes is exactly the set of declared codes, and isErrorCode accepts only those', () => {
    const declared = declaredErrorCodes(buildDocument());
    expect([...errorCodes]).toEqual(declared);
    expect(declared).toContain('booking_pending');
    expect(isErrorCode('booking_pending')).toBe(true);
    expect(isErrorCode('supplier_timeout')).toBe(false);
    expect(isErrorCode(42)).toBe(false);
  });
});
