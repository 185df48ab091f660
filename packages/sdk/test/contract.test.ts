/**
 * Ties the SDK to the contract: the generated sensitive-field list must be what openapi.json says today
 * (run `pnpm --filter @travel/sdk generate` when this fails), and the SDK's list of operations that
 * require an Idempotency-Key must be the contract's. The API types themselves (`paths`, `components`,
 * `ErrorCode`) come from `@travel/contract`, whose own stale test (contract/stale.test.ts) covers them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderSensitiveFields, sensitiveFieldNames } from '../scripts/generate-sensitive-fields.ts';
import { isSensitiveField, REQUIRED_IDEMPOTENCY_OPERATIONS } from '../src/index.ts';

const root = new URL('..', import.meta.url).pathname;
// The committed contract (generated from contract/*.ts; a root test fails when it is stale).
const contractPath = join(root, '../../openapi.json');
const contract = JSON.parse(readFileSync(contractPath, 'utf8')) as {
  paths: Record<string, Record<string, { operationId?: string; 'x-idempotency'?: string }>>;
};

describe('contract (openapi.json)', () => {
  it('src/generated/sensitive-fields.ts is up to date with the contract', () => {
    const committed = readFileSync(join(root, 'src/generated/sensitive-fields.ts'), 'utf8');
    expect(committed === renderSensitiveFields(contract), 'sensitive-fields.ts is stale: run generate').toBe(
      true,
    );
  });

  it('redacts every field the contract marks sensitive, and the personal data it names', () => {
    const personal = /token|password|email|phone|passport|doc_number|date_of_birth|invite_code/;
    const names = new Set<string>();
    JSON.stringify(contract, (key, value) => {
      if (key === 'properties' && value && typeof value === 'object')
        for (const name of Object.keys(value)) names.add(name);
      return value;
    });
    const expected = [...names].filter((name) => personal.test(name) && name !== 'token_type');
    expect(expected.length).toBeGreaterThan(5);
    for (const name of [...expected, ...sensitiveFieldNames(contract)])
      expect(isSensitiveField(name), name).toBe(true);
  });

  it('knows every operation that requires an Idempotency-Key', () => {
    const required = Object.values(contract.paths)
      .flatMap((item) => Object.values(item))
      .filter((op) => op['x-idempotency'] === 'required')
      .map((op) => op.operationId)
      .sort();
    expect([...REQUIRED_IDEMPOTENCY_OPERATIONS].sort()).toEqual(required);
  });
});
