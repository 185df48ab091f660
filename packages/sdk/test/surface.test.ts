/**
 * The SDK's surface against the contract: every operationId of openapi.json has a method in
 * `src/surface.ts`, each method reaches exactly its operation (called against a recording fetch), api.md is
 * what `scripts/generate-api-md.ts` renders today, and the version sent in the User-Agent is package.json's.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderApiMd } from '../scripts/generate-api-md.ts';
import { createTravelClient } from '../src/index.ts';
import { SURFACE } from '../src/surface.ts';
import { VERSION } from '../src/version.ts';
import { BASE } from './helpers.ts';

const root = new URL('..', import.meta.url).pathname;
const contract = JSON.parse(readFileSync(join(root, '../../openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, { operationId?: string }>>;
};

interface Operation {
  id: string;
  method: string;
  path: string;
  pattern: RegExp;
  params: number;
}
const operations: Operation[] = Object.entries(contract.paths).flatMap(([path, item]) =>
  Object.entries(item).flatMap(([method, op]) =>
    op.operationId
      ? [
          {
            id: op.operationId,
            method: method.toUpperCase(),
            path,
            pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
            params: (path.match(/\{/g) ?? []).length,
          },
        ]
      : [],
  ),
);

/** The operation a request is routed to: of those whose template matches, the most literal one. */
function route(method: string, pathname: string): string | undefined {
  return operations
    .filter((op) => op.method === method && op.pattern.test(pathname))
    .sort((a, b) => a.params - b.params)[0]?.id;
}

/** A fetch that records what it is sent and answers enough for every method to finish. */
function recordingClient() {
  const seen: { method: string; pathname: string; headers: Headers }[] = [];
  const travel = createTravelClient({
    baseUrl: BASE,
    token: 'test-token',
    sleep: async () => undefined,
    fetch: async (request) => {
      const { pathname } = new URL(request.url);
      seen.push({ method: request.method, pathname, headers: request.headers });
      if (request.headers.get('accept') === 'text/event-stream') {
        return new Response('id: 1\nevent: done\ndata: {"status":"completed"}\n\n', {
          headers: { 'Content-Type': 'text/event-stream' },
        });
      }
      return Response.json({
        searchId: 's1',
        search_id: 's1',
        items: [],
        total: 0,
        page: 1,
        page_size: 20,
        booking_id: 42,
        access_token: 'jwt',
        refresh_token: 'rt',
        token_type: 'bearer',
        expires_in: 900,
      });
    },
  });
  return { travel, seen };
}

/** Runs a method to completion: awaits a promise, drains an iterator. */
async function settle(value: unknown): Promise<void> {
  const result = await value;
  if (result && typeof result === 'object' && Symbol.asyncIterator in result) {
    for await (const _ of result as AsyncIterable<unknown>);
  }
}

describe('the SDK surface (src/surface.ts) and the contract', () => {
  it('every operationId of openapi.json has a method, and the table names no other', () => {
    expect(operations.length).toBeGreaterThanOrEqual(178);
    expect(Object.keys(SURFACE).sort()).toEqual(operations.map((op) => op.id).sort());
  });

  it.each(Object.entries(SURFACE))(
    '%s: the method reaches exactly that operation, with its request options',
    async (operationId, entry) => {
      // The row's documented name is the one its call uses.
      const name = entry.method.replace(/\(.*?\)/g, '()').split('()')[0] ?? '';
      expect(entry.call.toString()).toContain(`t.${name}(`);
      const { travel, seen } = recordingClient();
      // The last argument is the request options: its headers and idempotency key reach the wire.
      const key = `surface-${operationId}`;
      await settle(entry.call(travel, { headers: { 'X-Surface-Call': operationId }, idempotencyKey: key }));
      expect(seen.map((r) => route(r.method, r.pathname))).toEqual([operationId]);
      expect(seen.map((r) => r.headers.get('x-surface-call'))).toEqual([operationId]);
      if (seen[0]?.method !== 'GET') expect(seen[0]?.headers.get('idempotency-key')).toBe(key);
    },
  );

  it('api.md lists the whole surface as scripts/generate-api-md.ts renders it today', () => {
    const committed = readFileSync(join(root, 'api.md'), 'utf8');
    expect(
      committed === renderApiMd(contract),
      'api.md is stale: run `pnpm --filter @travel/sdk generate`',
    ).toBe(true);
    for (const entry of Object.values(SURFACE)) expect(committed).toContain(`\`${entry.method}\``);
  });

  it('src/version.ts (sent in the User-Agent) is the version in package.json', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
    expect(VERSION).toBe(pkg.version);
  });
});
