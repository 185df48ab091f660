/**
 * The contract fuzz over real keep-alive connections (issue 13 part 5; review M1: 33 "no response" results
 * in a keep-alive fuzz pass). A seeded sample of operations gets its fixed hostile cases (bodies over the
 * limit, malformed JSON, wrong content types, broken tokens ...) through node:http on one keep-alive
 * agent; every request must get an answer the contract allows, and a request after each operation's
 * cases must still be answered. Oversized headers (431) and bodies (413) are interleaved on purpose.
 *
 * FUZZ_KEEPALIVE_OPS=n samples n operations (default 24); FUZZ_SEED as in contract-fuzz.test.ts.
 */
import { Agent } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { listOperations, type Operation } from '../../src/kernel/contract.ts';
import { type RunningServer, serve } from '../../src/kernel/node-adapter.ts';
import { realContract } from '../helpers/contract.ts';
import {
  createFuzzWorld,
  describeRequest,
  type FuzzRequest,
  type FuzzWorld,
  sendOverSocket,
  type Tokens,
} from './harness.ts';
import { fixedCases } from './requests.ts';
import { SchemaArbitraries } from './schema-arb.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20_240_601);
const SAMPLE = Number(process.env.FUZZ_KEEPALIVE_OPS ?? 24);
const doc = realContract();
if (!doc) throw new Error('openapi.json is missing: run pnpm openapi');

/** A seeded, stable sample: operations ordered by a hash of their id, the first SAMPLE kept. */
function sample(ops: Operation[]): Operation[] {
  const h = (id: string) => {
    let x = SEED >>> 0;
    for (const c of id) x = (Math.imul(x ^ c.charCodeAt(0), 16_777_619) >>> 0) % 2_147_483_647;
    return x;
  };
  return [...ops].sort((a, b) => h(a.operationId) - h(b.operationId)).slice(0, SAMPLE);
}
const operations = doc ? sample(listOperations(doc)) : [];

/** A request that never answers is what this suite looks for: fail it with a name instead of hanging. */
function answered<T>(p: Promise<T>, what: string, ms = 15_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms: ${what}`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

describe('contract fuzz over keep-alive connections', () => {
  let world: FuzzWorld;
  let arbs: SchemaArbitraries;
  let server: RunningServer;
  let base: string;
  let agent: Agent;
  let reused = 0;
  let sent = 0;

  beforeAll(async () => {
    world = await createFuzzWorld(doc);
    arbs = new SchemaArbitraries(doc);
    server = await serve(world.app.kernel, { port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(server.server.address() as { port: number }).port}`;
    agent = new Agent({ keepAlive: true, maxSockets: 1 });
  }, 120_000);

  afterAll(async () => {
    agent?.destroy();
    await server?.close(1000);
    await world?.close();
    console.log(
      `── keep-alive fuzz: ${sent} requests on ${operations.length} operations, ${reused} on a reused connection`,
    );
  });

  const send = async (op: Operation, req: FuzzRequest, tokens: Tokens) => {
    sent += 1;
    const res = await answered(sendOverSocket(base, agent, req, tokens), describeRequest(req));
    if (res.reusedSocket) reused += 1;
    return { res, found: world.check(op, req, res) };
  };
  const health = () =>
    answered(
      sendOverSocket(
        base,
        agent,
        { method: 'GET', path: '/health/', auth: 'none', headers: {} },
        {
          role: {} as Tokens['role'],
          unknownUser: '',
          key: { company_staff: '', company_admin: '' },
          impersonation: '',
        },
      ),
      'GET /health/ after the cases',
    );

  test.for(operations.map((o) => [o.operationId, o] as const))(
    '%s: every hostile case answered on a reused connection, then the connection still serves',
    { timeout: 120_000 },
    async ([id, op]) => {
      const tokens = await world.freshTokens(`ka-${id}`);
      const found: string[] = [];
      for (const req of fixedCases(arbs, op, SEED, world.config.bodyLimitBytes)) {
        const { found: f } = await send(op, req, tokens);
        found.push(...f.map((v) => `${v.kind}: ${v.message} <- ${v.request}`));
      }
      expect(found, `${id}: responses the contract does not allow`).toEqual([]);
      expect((await health()).status).toBe(200);
    },
  );

  test('413 (declared and chunked) and 431 between ordinary requests: each answered as declared, none stalls', async () => {
    const tokens = await world.freshTokens('ka-limits');
    const login = world.operations.find((o) => o.operationId === 'login') as Operation;
    const me = world.operations.find((o) => o.operationId === 'getCurrentUser') as Operation;
    const limit = world.config.bodyLimitBytes;
    const cases: [Operation, FuzzRequest, number][] = [
      [
        login,
        {
          method: 'POST',
          path: '/api/v1/auth/login',
          auth: 'none',
          headers: {},
          body: { raw: `{"pad":"${'x'.repeat(limit)}"}` },
        },
        413,
      ],
      [
        login,
        {
          method: 'POST',
          path: '/api/v1/auth/login',
          auth: 'none',
          headers: {},
          body: { raw: 'x'.repeat(2 * limit + 7) },
        },
        413,
      ],
      [
        login,
        {
          method: 'POST',
          path: '/api/v1/auth/login',
          auth: 'none',
          headers: { 'transfer-encoding': 'chunked' },
          body: { raw: 'x'.repeat(3 * limit) },
        },
        413,
      ],
      [
        me,
        { method: 'GET', path: '/api/v1/auth/me', auth: 'none', headers: { 'x-pad': 'p'.repeat(20_000) } },
        431,
      ],
      [me, { method: 'GET', path: '/api/v1/auth/me', auth: 'customer', headers: {} }, 200],
    ];
    for (let round = 0; round < 3; round++) {
      for (const [op, req, status] of cases) {
        const { res, found } = await send(op, req, tokens);
        expect(res.status, describeRequest(req)).toBe(status);
        expect(found).toEqual([]);
        expect((await health()).status).toBe(200);
      }
    }
    expect(reused).toBeGreaterThan(0);
  });
});
