/**
 * Issue 28 (review L-1): the Amadeus client sends every request, its OAuth token request first, under
 * the whole configured base URL, path included, not to the host's root.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { AmadeusClient } from '../../src/suppliers/amadeus/client.ts';

const seen: { method: string; url: string; body: string }[] = [];
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', body });
      res.setHeader('content-type', 'application/json');
      if (req.url?.endsWith('/v1/security/oauth2/token')) {
        res.end(JSON.stringify({ access_token: 'tok', expires_in: 1799, token_type: 'Bearer' }));
      } else res.end(JSON.stringify({ data: [] }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/amadeus`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

test('the OAuth request and the API call both go under the base path', async () => {
  const client = new AmadeusClient({ clientId: 'id', clientSecret: 'very-secret', baseUrl: base }, 'amadeus');
  const r = await client.call((sdk) => sdk.client.get('/v1/reference-data/airlines', { airlineCodes: 'BA' }));
  expect(r.status).toBe(200);
  expect(seen.map((s) => `${s.method} ${s.url.split('?')[0]}`)).toEqual([
    'POST /amadeus/v1/security/oauth2/token',
    'GET /amadeus/v1/reference-data/airlines',
  ]);
  expect(seen[0]?.body).toContain('client_secret=very-secret');
  expect(seen.some((s) => s.url.startsWith('/v1/'))).toBe(false);
});
