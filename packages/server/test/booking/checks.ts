/** Assertions the booking tests share: every body against openapi.json, refusals with their listed code. */
import { afterAll, beforeAll, expect } from 'vitest';
import type { MockServers } from '../../../mock-server/src/index.ts';
import { expectMatchesContract, realContract } from '../helpers/contract.ts';
import { createWorld, startMocks, type World } from './harness.ts';

/** The emulators and a world for the whole file; `restart()` the world through `ctx.w = await …`. */
export function useWorld(): { w: World } {
  const ctx = {} as { w: World; mocks: MockServers };
  beforeAll(async () => {
    ctx.mocks = await startMocks();
    ctx.w = await createWorld(ctx.mocks);
  });
  afterAll(async () => {
    await ctx.w?.close();
    await ctx.mocks?.close();
  });
  return ctx;
}

/** The answer has `status` and a body the contract declares for it. */
export function check(op: string, r: { status: number; body: unknown }, status = 200) {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expectMatchesContract(op, r.status, r.body);
}

const contract = realContract();

/** The error codes `openapi.json` lists for `op` answering `status` (`x-error-codes`). */
function listedCodes(op: string, status: number): string[] {
  for (const item of Object.values(contract?.paths ?? {}))
    for (const o of Object.values(item) as { operationId?: string; responses?: Record<string, unknown> }[])
      if (o?.operationId === op)
        return ((o.responses?.[String(status)] as { 'x-error-codes'?: string[] } | undefined)?.[
          'x-error-codes'
        ] ?? []) as string[];
  throw new Error(`no operation ${op} in openapi.json`);
}

/** A refusal: `status` (400 unless given) with `code`, a code the contract lists for that operation. */
export function refused(
  op: string,
  r: { status: number; body: { code?: string } | undefined },
  code: string,
  status = 400,
) {
  expect([r.status, r.body?.code], JSON.stringify(r.body)).toEqual([status, code]);
  expectMatchesContract(op, r.status, r.body);
  expect(listedCodes(op, status), `${op} ${status} does not list ${code}`).toContain(code);
}
