/**
 * A handler that answers without a promise (`GET /`, getApiInfo) is answered in the request's own turn:
 * `dispatch` hands back the reply itself. What must not change with it: the error answers of a handler
 * that throws synchronously, asynchronous handlers, keep-alive connections (a GET's answer written before
 * node's parser finished the request, a body left unread), and `constantResult` bodies that nothing can
 * change.
 */
import { connect } from 'node:net';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestUrl } from '../../src/kernel/context.ts';
import type { OpenApiDoc } from '../../src/kernel/contract.ts';
import { notFound } from '../../src/kernel/errors.ts';
import type { DispatchInput, Kernel, Reply } from '../../src/kernel/kernel.ts';
import { type RunningServer, serve } from '../../src/kernel/node-adapter.ts';
import { constantResult } from '../../src/kernel/reply.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { realContract } from '../helpers/contract.ts';

/** A bodiless request as the node adapter hands it to `dispatch`. */
function input(method: string, pathname: string): DispatchInput {
  const url: RequestUrl = { pathname, search: '', searchParams: new URLSearchParams() };
  return {
    request: { method, headers: { get: () => null }, body: null },
    url,
    ip: '127.0.0.1',
    signal: () => new AbortController().signal,
    headers: () => ({}),
  };
}

const isThenable = (v: unknown) => typeof (v as { then?: unknown }).then === 'function';
const headerOf = (reply: Reply, name: string) => {
  const h = (reply as { headers: string[] }).headers;
  for (let i = 0; i < h.length; i += 2) if (h[i] === name) return h[i + 1];
  return undefined;
};

let t: TestApp;
let kernel: Kernel;
beforeAll(async () => {
  t = await createTestApp({ contract: realContract() as OpenApiDoc });
  kernel = t.app.kernel;
});
afterAll(async () => {
  await t.close();
});

describe('dispatch of a handler that answers without a promise', () => {
  it('GET /: the reply itself (no promise), the body serialized once, its length, a fresh request id each time', () => {
    const dispatch = kernel.dispatch as NonNullable<Kernel['dispatch']>;
    const a = dispatch(input('GET', '/'));
    const b = dispatch(input('GET', '/'));
    expect(isThenable(a)).toBe(false);
    const reply = a as Extract<Reply, { body: string | null }>;
    expect(reply.status).toBe(200);
    const body = JSON.parse(reply.body as string);
    expect(body).toMatchObject({ name: 'Travel Service API', docs_url: '/docs', health_url: '/health/' });
    expect(headerOf(reply, 'content-length')).toBe(String(Buffer.byteLength(reply.body as string)));
    expect(headerOf(reply, 'x-request-id')).not.toBe(headerOf(b as Reply, 'x-request-id'));
    // HEAD: the same length, no body.
    const head = dispatch(input('HEAD', '/')) as Extract<Reply, { body: string | null }>;
    expect(head.body).toBeNull();
    expect(headerOf(head, 'content-length')).toBe(headerOf(reply, 'content-length'));
  });

  it('an asynchronous handler (GET /health/) still gives a promise of its reply', async () => {
    const r = (kernel.dispatch as NonNullable<Kernel['dispatch']>)(input('GET', '/health/'));
    expect(isThenable(r)).toBe(true);
    expect(((await r) as { status: number }).status).toBe(200);
  });

  it('a handler that throws synchronously answers the error, counted in the metrics', async () => {
    const app = await createTestApp({
      routes: () => ({
        getApiInfo: () => {
          throw notFound('not_found', 'Nothing here.');
        },
      }),
    });
    try {
      const dispatch = app.app.kernel.dispatch as NonNullable<Kernel['dispatch']>;
      const r = dispatch(input('GET', '/')) as Extract<Reply, { body: string | null }>;
      expect(isThenable(r)).toBe(false);
      expect(r.status).toBe(404);
      expect(JSON.parse(r.body as string)).toMatchObject({ code: 'not_found', detail: 'Nothing here.' });
      const text = await app.app.services.metrics.registry.metrics();
      expect(text).toContain('http_requests_total{method="GET",operation="getApiInfo",status="404"} 1');
      expect(app.app.kernel.inFlight()).toBe(0);
    } finally {
      await app.close();
    }
  });
});

describe('constantResult', () => {
  it('freezes the answer to the bottom: a later write throws and the kernel writes the original', () => {
    const r = constantResult({ status: 200, body: { a: { b: [1, 2] } } });
    expect(() => {
      (r.body.a.b as number[]).push(3);
    }).toThrow(TypeError);
    expect(() => {
      (r.body as { a: unknown }).a = 1;
    }).toThrow(TypeError);
    expect(r.body).toEqual({ a: { b: [1, 2] } });
  });

  it('accepts only plain JSON values', () => {
    expect(() => constantResult({ status: 200, body: { at: new Date(0) } })).toThrow(
      /body\.at is not a plain object/,
    );
    expect(() => constantResult({ status: 200, body: { n: Number.NaN } })).toThrow(
      /body\.n is not a finite number/,
    );
    expect(() => constantResult({ status: 200, body: { f: () => 1 } })).toThrow(/body\.f is not JSON/);
  });
});

describe('over a socket', () => {
  let srv: RunningServer;
  let port: number;
  beforeAll(async () => {
    srv = await serve(kernel, { port: 0, host: '127.0.0.1' });
    port = (srv.server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await srv.close(1000);
  });

  /** Writes `bytes` on one connection and reads until `count` answers have arrived. */
  function exchange(bytes: string, count: number): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let text = '';
      socket.on('error', reject);
      socket.on('data', (chunk: Buffer) => {
        text += chunk.toString('latin1');
        if ((text.match(/"health_url":"\/health\/"\}/g) ?? []).length >= count) {
          socket.destroy();
          resolve(text);
        }
      });
      socket.write(bytes);
    });
  }

  it('answers two pipelined GETs on one keep-alive connection, in order', async () => {
    const get = 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Request-Id: first\r\n\r\n';
    const text = await exchange(`${get}${get.replace('first', 'second')}`, 2);
    const statuses = text.match(/HTTP\/1\.1 \d+/g);
    expect(statuses).toEqual(['HTTP/1.1 200', 'HTTP/1.1 200']);
    expect(text.indexOf('x-request-id: first')).toBeLessThan(text.indexOf('x-request-id: second'));
  });

  it('a GET with a body nobody reads: answered, and the connection still serves the next request', async () => {
    const text = await exchange(
      'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\n\r\nhelloGET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
      2,
    );
    expect(text.match(/HTTP\/1\.1 \d+/g)).toEqual(['HTTP/1.1 200', 'HTTP/1.1 200']);
  });

  it('leaves no gc function exposed to new contexts after collecting the start-up garbage', () => {
    expect(runInNewContext('typeof gc')).toBe('undefined');
  });
});
