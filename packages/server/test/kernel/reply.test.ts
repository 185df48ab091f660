/**
 * What the node adapter writes for a JSON answer, over a real socket: the header lines in order with
 * their values (the kernel's hygiene, CORS and request id headers, then the answer's own, then the
 * length), HEAD, compression, and the request counter and latency histogram after many requests.
 */

import { connect } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { API_VERSION } from '@travel/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { referenceRoutes } from '../../src/domains/reference/routes.ts';
import type { OpenApiDoc } from '../../src/kernel/contract.ts';
import { type RunningServer, serve } from '../../src/kernel/node-adapter.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { realContract } from '../helpers/contract.ts';

interface Raw {
  status: number;
  /** Header lines as sent: [name, value] in order. */
  lines: [string, string][];
  body: Buffer;
}

/** One request on a fresh connection; the response read as bytes (no client-side decoding). */
function raw(port: number, head: string, opts: { noBody?: boolean } = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let buf = Buffer.alloc(0);
    socket.on('error', reject);
    socket.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      const end = buf.indexOf('\r\n\r\n');
      if (end === -1) return;
      const [statusLine = '', ...rest] = buf.subarray(0, end).toString('latin1').split('\r\n');
      const lines = rest.map((l): [string, string] => {
        const i = l.indexOf(':');
        return [l.slice(0, i), l.slice(i + 1).trim()];
      });
      const length = opts.noBody ? 0 : Number(lines.find(([k]) => k.toLowerCase() === 'content-length')?.[1]);
      if (buf.length < end + 4 + length) return;
      socket.destroy();
      resolve({
        status: Number(statusLine.split(' ')[1]),
        lines,
        body: buf.subarray(end + 4, end + 4 + length),
      });
    });
    socket.write(`${head}\r\nHost: 127.0.0.1\r\n\r\n`);
  });
}

const names = (r: Raw) => r.lines.map(([k]) => k);
const header = (r: Raw, name: string) => r.lines.find(([k]) => k.toLowerCase() === name)?.[1];

let t: TestApp;
let srv: RunningServer;
let port: number;

beforeAll(async () => {
  t = await createTestApp({ contract: realContract() as OpenApiDoc, routes: () => referenceRoutes() });
  srv = await serve(t.app.kernel, { port: 0, host: '127.0.0.1' });
  port = (srv.server.address() as { port: number }).port;
});
afterAll(async () => {
  await srv.close(1000);
  await t.close();
});

describe('the JSON reply as written on the socket', () => {
  it('GET /: content type, hygiene, Vary, a minted request id, the exact length, then node’s own lines', async () => {
    const r = await raw(port, 'GET / HTTP/1.1');
    expect(r.status).toBe(200);
    expect(names(r)).toEqual([
      'content-type',
      'x-content-type-options',
      'cache-control',
      'api-version',
      'vary',
      'x-request-id',
      'content-length',
      'Date',
      'Connection',
      'Keep-Alive',
    ]);
    expect(header(r, 'content-type')).toBe('application/json');
    expect(header(r, 'x-content-type-options')).toBe('nosniff');
    expect(header(r, 'cache-control')).toBe('no-store');
    expect(header(r, 'api-version')).toBe(API_VERSION);
    expect(header(r, 'vary')).toBe('Origin');
    expect(header(r, 'x-request-id')).toMatch(/^req_[\w-]+$/);
    expect(Number(header(r, 'content-length'))).toBe(r.body.byteLength);
    expect(JSON.parse(r.body.toString()).name).toBe('Travel Service API');
    // Every request its own id.
    const again = await raw(port, 'GET / HTTP/1.1');
    expect(header(again, 'x-request-id')).not.toBe(header(r, 'x-request-id'));
  });

  it('an incoming X-Request-Id is answered as sent; an allowed Origin adds its CORS lines before it', async () => {
    const r = await raw(
      port,
      'GET / HTTP/1.1\r\nX-Request-Id: trace-42.a:b\r\nOrigin: http://localhost:5173',
    );
    expect(names(r).slice(0, 9)).toEqual([
      'content-type',
      'x-content-type-options',
      'cache-control',
      'api-version',
      'vary',
      'access-control-allow-origin',
      'access-control-expose-headers',
      'x-request-id',
      'content-length',
    ]);
    expect(header(r, 'x-request-id')).toBe('trace-42.a:b');
    expect(header(r, 'access-control-allow-origin')).toBe('http://localhost:5173');
    expect(header(r, 'access-control-expose-headers')).toContain('X-Request-Id');
    // Another allowed origin is echoed as its own (the header lists are kept per origin).
    const other = await raw(port, 'GET / HTTP/1.1\r\nOrigin: http://127.0.0.1:3000');
    expect(header(other, 'access-control-allow-origin')).toBe('http://127.0.0.1:3000');
    const refused = await raw(port, 'GET / HTTP/1.1\r\nOrigin: https://evil.example');
    expect(header(refused, 'access-control-allow-origin')).toBeUndefined();
    expect(header(refused, 'vary')).toBe('Origin');
  });

  it('HEAD /: the same lines and the length of the GET body, no body', async () => {
    const get = await raw(port, 'GET / HTTP/1.1');
    const head = await raw(port, 'HEAD / HTTP/1.1', { noBody: true });
    expect(head.status).toBe(200);
    expect(names(head)).toEqual(names(get));
    expect(header(head, 'content-length')).toBe(header(get, 'content-length'));
    expect(head.body.byteLength).toBe(0);
  });

  it('an answer with headers of its own (405 Allow) has them after the kernel’s, before the length', async () => {
    const r = await raw(port, 'DELETE / HTTP/1.1');
    expect(r.status).toBe(405);
    expect(names(r).slice(0, 8)).toEqual([
      'content-type',
      'x-content-type-options',
      'cache-control',
      'api-version',
      'vary',
      'x-request-id',
      'allow',
      'content-length',
    ]);
    expect(header(r, 'allow')).toBe('GET, HEAD, OPTIONS');
    expect(JSON.parse(r.body.toString()).code).toBe('method_not_allowed');
    expect(JSON.parse(r.body.toString()).request_id).toBe(header(r, 'x-request-id'));
  });

  it('a large answer compressed: Content-Encoding added, the compressed length, Vary extended', async () => {
    const path = '/api/v1/airports/search?query=lon&limit=50';
    const plain = await raw(port, `GET ${path} HTTP/1.1\r\nOrigin: http://localhost:5173`);
    const gz = await raw(
      port,
      `GET ${path} HTTP/1.1\r\nOrigin: http://localhost:5173\r\nAccept-Encoding: gzip`,
    );
    expect(gz.status, gz.body.toString()).toBe(200);
    expect(header(gz, 'content-encoding')).toBe('gzip');
    expect(header(gz, 'vary')).toBe('Origin, Accept-Encoding');
    expect(Number(header(gz, 'content-length'))).toBe(gz.body.byteLength);
    expect(gunzipSync(gz.body).toString()).toBe(plain.body.toString());
    expect(header(plain, 'content-encoding')).toBeUndefined();
    expect(header(plain, 'vary')).toBe('Origin');
  });
});

describe('metrics after many requests through the socket', () => {
  const value = (text: string, line: string) =>
    Number(
      text
        .split('\n')
        .find((l) => l.startsWith(`${line} `))
        ?.slice(line.length + 1),
    );

  it('counts every request per method, operation and status; the histogram holds each exactly once', async () => {
    const before = await t.app.services.metrics.registry.metrics();
    const get = 'method="GET",operation="getApiInfo",status="200"';
    const head = 'method="HEAD",operation="getApiInfo",status="200"';
    const count = (text: string, labels: string) => value(text, `http_requests_total{${labels}}`) || 0;
    const histCount = (text: string, labels: string) =>
      value(text, `http_request_duration_seconds_count{${labels}}`) || 0;
    const n = 40;
    for (let i = 0; i < n; i++) await raw(port, 'GET / HTTP/1.1');
    for (let i = 0; i < 3; i++) await raw(port, 'HEAD / HTTP/1.1', { noBody: true });
    const text = await t.app.services.metrics.registry.metrics();
    expect(count(text, get) - count(before, get)).toBe(n);
    expect(histCount(text, get) - histCount(before, get)).toBe(n);
    expect(count(text, head) - count(before, head)).toBe(3);
    expect(value(text, `http_request_duration_seconds_bucket{le="+Inf",${get}}`)).toBe(histCount(text, get));
    // Cumulative buckets: never decreasing, the last bound at most the count.
    const buckets = text
      .split('\n')
      .filter((l) => l.startsWith('http_request_duration_seconds_bucket{') && l.includes(get))
      .map((l) => Number(l.slice(l.lastIndexOf(' ') + 1)));
    expect(buckets).toHaveLength(13);
    for (let i = 1; i < buckets.length; i++)
      expect(buckets[i]).toBeGreaterThanOrEqual(buckets[i - 1] as number);
    expect(value(text, `http_request_duration_seconds_sum{${get}}`)).toBeGreaterThan(0);
  });
});
