/**
 * Seeded contract fuzzing: every operation in `openapi.json` gets a fixed matrix of hostile requests and
 * FUZZ_RUNS random ones (fast-check, fixed seed), and every response must be one the contract describes:
 * no 5xx but a 501 `not_implemented` for an operation with no handler yet or a 5xx the operation declares
 * (502/503/501), the documented error shapes, no stack traces or secrets, the body valid for its status.
 *
 * FUZZ_SEED and FUZZ_RUNS override the defaults; FUZZ_OPS=opA,opB limits the run to some operations.
 */
import { writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Operation } from '../../src/kernel/contract.ts';
import { listOperations } from '../../src/kernel/contract.ts';
import { realContract } from '../helpers/contract.ts';
import { createFuzzWorld, type FuzzRequest, type FuzzWorld, type Tokens, type Violation } from './harness.ts';
import { knownIssueOf } from './known-issues.ts';
import { fixedCases, requestArb } from './requests.ts';
import { SchemaArbitraries } from './schema-arb.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20_240_601);
const RUNS = Number(process.env.FUZZ_RUNS ?? 10);
const doc = realContract();
if (!doc) throw new Error('openapi.json is missing: run pnpm openapi');
const only = process.env.FUZZ_OPS?.split(',').filter(Boolean);
const operations = listOperations(doc).filter((o) => !only || only.includes(o.operationId));

/** A stable per-operation seed, so adding an operation does not reshuffle the others. */
const seedFor = (id: string) => {
  let h = SEED >>> 0;
  for (const c of id) h = (Math.imul(h ^ c.charCodeAt(0), 16_777_619) >>> 0) % 2_147_483_647;
  return h;
};

interface OpStats {
  requests: number;
  statuses: Map<number, number>;
  notImplemented: boolean;
}

describe('contract fuzz', () => {
  let world: FuzzWorld;
  let arbs: SchemaArbitraries;
  let ipSeq = 0;
  const stats = new Map<string, OpStats>();
  const known = new Map<string, Violation[]>();
  const fresh: Violation[] = [];
  const startedAt = performance.now();

  beforeAll(async () => {
    world = await createFuzzWorld(doc);
    arbs = new SchemaArbitraries(doc);
  }, 120_000);

  afterAll(async () => {
    await world?.close();
    const ops = [...stats.entries()];
    const total = ops.reduce((n, [, s]) => n + s.requests, 0);
    const byStatus = new Map<number, number>();
    for (const [, s] of ops) for (const [st, n] of s.statuses) byStatus.set(st, (byStatus.get(st) ?? 0) + n);
    const notImpl = ops.filter(([, s]) => s.notImplemented).map(([id]) => id);
    const no2xx = ops.filter(([, s]) => ![...s.statuses.keys()].some((st) => st >= 200 && st < 300));
    const lines = [
      '── contract fuzz summary ──',
      `seed ${SEED}, ${RUNS} random runs per operation; ${ops.length}/${doc ? listOperations(doc).length : 0} operations, ${total} requests, ${((performance.now() - startedAt) / 1000).toFixed(1)} s`,
      `statuses: ${[...byStatus.entries()]
        .sort(([a], [b]) => a - b)
        .map(([st, n]) => `${st}×${n}`)
        .join(' ')}`,
      `operations answering 501 not_implemented (no handler yet): ${notImpl.length}${notImpl.length ? ` — ${notImpl.join(', ')}` : ''}`,
      `operations that never answered 2xx (fuzz did not get past validation/auth/lookup): ${no2xx.length}`,
      `known issues hit: ${[...known.entries()].map(([id, v]) => `${id}×${v.length}`).join(', ') || 'none'}`,
      `new violations: ${fresh.length}`,
    ];
    console.log(lines.join('\n'));
    if (process.env.FUZZ_REPORT) {
      writeFileSync(
        process.env.FUZZ_REPORT,
        JSON.stringify({ fresh, known: Object.fromEntries(known) }, null, 1),
      );
    }
  });

  const record = (op: Operation, vs: Violation[]) => {
    for (const v of vs) {
      const k = knownIssueOf(v);
      if (k) known.set(k.id, [...(known.get(k.id) ?? []), v]);
      else fresh.push(v);
    }
    void op;
  };

  const run = async (op: Operation, tokens: Tokens, req: FuzzRequest): Promise<Violation[]> => {
    const s = stats.get(op.operationId) ?? { requests: 0, statuses: new Map(), notImplemented: false };
    stats.set(op.operationId, s);
    s.requests += 1;
    const n = ++ipSeq;
    const ip = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
    let vs: Violation[];
    try {
      const res = await world.send(req, tokens, ip);
      s.statuses.set(res.status, (s.statuses.get(res.status) ?? 0) + 1);
      if (res.status === 501 && (res.body as { code?: string } | undefined)?.code === 'not_implemented')
        s.notImplemented = true;
      vs = world.check(op, req, res);
    } catch (err) {
      vs = [
        {
          operationId: op.operationId,
          kind: 'crash',
          message: `app.handle threw: ${(err as Error).message}`,
          request: JSON.stringify(req).slice(0, 400),
          response: '(none)',
        },
      ];
    }
    record(op, vs);
    return vs.filter((v) => !knownIssueOf(v));
  };

  test.for(operations.map((o) => [o.operationId, o] as const))(
    '%s',
    { timeout: 60_000 },
    async ([id, op]) => {
      const tokens = await world.freshTokens(id);
      const seed = seedFor(id);
      const found: Violation[] = [];
      for (const req of fixedCases(arbs, op, seed, world.config.bodyLimitBytes)) {
        found.push(...(await run(op, tokens, req)));
      }
      await fc.assert(
        fc.asyncProperty(requestArb(arbs, op), async (req) => {
          found.push(...(await run(op, tokens, req)));
        }),
        { seed, numRuns: RUNS },
      );
      const unique = new Map(found.map((v) => [`${v.kind} ${v.message}`, v]));
      expect([...unique.values()], `${id}: responses the contract does not allow`).toEqual([]);
    },
  );
});
