import { existsSync, readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { OpenApiDoc } from '../../src/kernel/contract.ts';
import { ResponseValidator } from '../../src/kernel/response-validator.ts';

const realPath = new URL('../../../../openapi.json', import.meta.url);
const validators = new Map<OpenApiDoc | 'real', ResponseValidator>();

/** The repository's `openapi.json` (undefined while it does not exist yet). */
export function realContract(): OpenApiDoc | undefined {
  return existsSync(realPath) ? (JSON.parse(readFileSync(realPath, 'utf8')) as OpenApiDoc) : undefined;
}

/**
 * Fails the test when `body` is not what the contract declares for `operationId` answering `status`.
 * Validates against the repository's `openapi.json` unless `doc` is given.
 *
 * @example
 * const res = await t.request('GET', '/api/v1/auth/me', { token });
 * expectMatchesContract('getCurrentUser', res.status, res.body);
 */
export function expectMatchesContract(
  operationId: string,
  status: number,
  body: unknown,
  doc?: OpenApiDoc,
): void {
  const key = doc ?? 'real';
  let v = validators.get(key);
  if (!v) {
    const d = doc ?? realContract();
    if (!d) throw new Error('openapi.json does not exist yet; pass a contract');
    v = new ResponseValidator(d);
    validators.set(key, v);
  }
  expect(
    v.check(operationId, status, body),
    `${operationId} ${status} body does not match the contract`,
  ).toEqual([]);
}
