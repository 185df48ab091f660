/**
 * HTTP hygiene (issue 13 part 3, contracts §9), over real sockets: what node:http and the kernel answer
 * to what a careless client, a browser or an attacker sends. Each block names the finding it closes
 * (security review 2026-11-24: M1, M2, L1, L2, L3).
 */
import { createHash } from 'node:crypto';
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { connect, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { OpenApiDoc } from '../../src/kernel/contract.ts';
import { listOperations } from '../../src/kernel/contract.ts';
import { type RunningServer, serve } from '../../src/kernel/node-adapter.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { expectMatchesContract, realContract } from '../helpers/contract.ts';

const contract = realContract() as OpenApiDoc;
const LIMIT = 2048;

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  body: any;
  reusedSocket: boolean;
}

/** One request through node:http (optionally on a keep-alive agent). */
function call(
  base: string,
  method: string,
  path: string,
  opts: { headers?: Record<string, string>; body?: string | Buffer | Buffer[]; agent?: Agent } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      `${base}${path}`,
      { method, headers: opts.headers, ...(opts.agent ? { agent: opts.agent } : {}) },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            body = undefined;
          }
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text,
            body,
            reusedSocket: req.reusedSocket,
          });
        });
      },
    );
    req.on('error', reject);
    // An array is sent chunk by chunk (Transfer-Encoding: chunked, no declared length).
    if (Array.isArray(opts.body)) {
      for (const c of opts.body) req.write(c);
      req.end();
    } else if (opts.body !== undefined) req.end(opts.body);
    else req.end();
  });
}

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/**
 * A raw TCP connection that parses the HTTP/1.1 responses coming back (Content-Length bodies, or none
 * for HEAD/204), so a test can send several requests on one connection and see each answer.
 */
class RawConnection {
  readonly socket: Socket;
  #buf = Buffer.alloc(0);
  #waiters: (() => void)[] = [];
  /** Resolves when the server ends or cuts the connection. */
  readonly closed: Promise<void>;
  ended = false;

  constructor(port: number) {
    this.socket = connect(port, '127.0.0.1');
    this.socket.on('data', (d: Buffer) => {
      this.#buf = Buffer.concat([this.#buf, d]);
      this.#wake();
    });
    this.socket.on('error', () => {});
    this.closed = new Promise((resolve) =>
      this.socket.on('close', () => {
        this.ended = true;
        this.#wake();
        resolve();
      }),
    );
  }

  #wake() {
    for (const w of this.#waiters.splice(0)) w();
  }

  write(data: string | Buffer): Promise<void> {
    return new Promise((resolve, reject) =>
      this.socket.write(data, (err) => (err ? reject(err) : resolve())),
    );
  }

  /** The next full response; rejects if the connection closes first. `head`: no body expected. */
  async next(head = false): Promise<RawResponse> {
    for (;;) {
      const end = this.#buf.indexOf('\r\n\r\n');
      if (end !== -1) {
        const lines = this.#buf.subarray(0, end).toString('latin1').split('\r\n');
        const status = Number(lines[0]?.split(' ')[1]);
        const headers: Record<string, string> = {};
        for (const l of lines.slice(1)) {
          const i = l.indexOf(':');
          headers[l.slice(0, i).toLowerCase()] = l.slice(i + 1).trim();
        }
        const length = head || status === 204 ? 0 : Number(headers['content-length'] ?? 0);
        if (this.#buf.length >= end + 4 + length) {
          const text = this.#buf.subarray(end + 4, end + 4 + length).toString('utf8');
          this.#buf = this.#buf.subarray(end + 4 + length);
          return { status, headers, text };
        }
      }
      if (this.ended) throw new Error(`connection closed; unparsed: ${this.#buf.toString('latin1', 0, 200)}`);
      await new Promise<void>((r) => this.#waiters.push(r));
    }
  }

  destroy() {
    this.socket.destroy();
  }
}

const lines: { level: number; msg: string; status?: number }[] = [];
const logSink = new Writable({
  write(chunk, _enc, cb) {
    for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l));
    cb();
  },
});

let t: TestApp;
let srv: RunningServer;
let base: string;
let port: number;
let token: string;

beforeAll(async () => {
  t = await createTestApp({
    contract,
    env: { BODY_LIMIT_BYTES: String(LIMIT) },
    logger: pino({ level: 'info' }, logSink),
  });
  srv = await serve(t.app.kernel, { port: 0, host: '127.0.0.1' });
  port = (srv.server.address() as { port: number }).port;
  base = `http://127.0.0.1:${port}`;
  token = (await t.user()).token;
});
afterAll(async () => {
  await srv.close(1000);
  await t.close();
});

describe('M1: a body over the limit never stalls the connection', () => {
  test('a declared body within the drain limit: 413, the rest is read and dropped, the next request on the same connection is answered', async () => {
    const conn = new RawConnection(port);
    const body = 'x'.repeat(100_000);
    await conn.write(
      `POST /api/v1/auth/login HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    await conn.write('GET /health/ HTTP/1.1\r\nHost: t\r\n\r\n');
    const first = await conn.next();
    expect(first.status).toBe(413);
    expect(JSON.parse(first.text)).toMatchObject({ code: 'payload_too_large' });
    const second = await conn.next();
    expect(second.status).toBe(200);
    expect(JSON.parse(second.text).status).toBe('ok');
    conn.destroy();
  });

  test('a chunked body of 3 MB (read past the limit): 413, then the same connection still answers', async () => {
    const conn = new RawConnection(port);
    const chunk = 'y'.repeat(64 * 1024);
    await conn.write(
      'POST /api/v1/auth/login HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n',
    );
    for (let i = 0; i < 48; i++) await conn.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    await conn.write('0\r\n\r\nGET /health/ HTTP/1.1\r\nHost: t\r\n\r\n');
    expect((await conn.next()).status).toBe(413);
    expect((await conn.next()).status).toBe(200);
    conn.destroy();
  });

  test('a declared body beyond the drain limit: 413 with Connection: close, and the server ends the socket', async () => {
    const conn = new RawConnection(port);
    await conn.write(
      `POST /api/v1/auth/login HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: ${64 * 1024 * 1024}\r\n\r\n`,
    );
    const r = await conn.next();
    expect(r.status).toBe(413);
    expect(r.headers.connection).toBe('close');
    expect(JSON.parse(r.text).code).toBe('payload_too_large');
    await conn.closed;
    expect(conn.ended).toBe(true);
  });

  test('a keep-alive agent reuses its connection after a 413 and gets its answer', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (const body of [
        Buffer.alloc(1_500_000, 0x20), // declared length: refused before reading
        Array.from({ length: 24 }, () => Buffer.alloc(64 * 1024, 0x20)), // chunked: refused mid-read
      ]) {
        const big = await call(base, 'POST', '/api/v1/auth/login', {
          agent,
          headers: { 'content-type': 'application/json' },
          body,
        });
        expect(big.status).toBe(413);
        const next = await call(base, 'GET', '/health/', { agent });
        expect(next.status).toBe(200);
        expect(next.reusedSocket).toBe(true);
      }
    } finally {
      agent.destroy();
    }
  });
});

describe('L1/L2: unknown methods and clients that hang up', () => {
  test.each(['TRACE', 'PROPFIND', 'PURGE'])(
    '%s on a known path is 405 with Allow and our JSON body',
    async (method) => {
      const r = await call(base, method, '/health/');
      expect(r.status).toBe(405);
      expect(r.headers.allow).toBe('GET, HEAD, OPTIONS');
      expect(r.body).toEqual({
        detail: expect.any(String),
        code: 'method_not_allowed',
        request_id: expect.stringMatching(/.+/),
      });
      expect(r.headers['x-content-type-options']).toBe('nosniff');
    },
  );

  test('TRACE on an unknown path is 404, CONNECT is 405: never a 5xx', async () => {
    expect((await call(base, 'TRACE', '/nope')).status).toBe(404);
    const conn = new RawConnection(port);
    await conn.write('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    const r = await conn.next();
    expect(r.status).toBe(405);
    expect(JSON.parse(r.text).code).toBe('method_not_allowed');
    conn.destroy();
  });

  test('a client that disconnects mid-body is logged as aborted (info) and counted as 499, not 5xx', async () => {
    const before = lines.length;
    const conn = new RawConnection(port);
    await conn.write(
      'POST /api/v1/auth/login HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"email":',
    );
    // The server is reading the body: wait until the request is in flight, then hang up.
    await expect.poll(() => t.app.kernel.inFlight()).toBe(1);
    conn.destroy();
    await expect.poll(() => t.app.kernel.inFlight()).toBe(0);
    const mine = lines.slice(before);
    expect(mine.find((l) => l.msg === 'client closed the request')?.level).toBe(30);
    expect(mine.filter((l) => l.level >= 50)).toEqual([]);
    expect(mine.find((l) => l.msg === 'request')?.status).toBe(499);
    const combined = await call(base, 'GET', '/metrics/combined');
    expect(combined.body.requests.errors_5xx).toBe(0);
    const prom = await call(base, 'GET', '/metrics');
    expect(prom.text).toContain('http_requests_total{method="POST",operation="login",status="499"} 1');
  });
});

describe('HEAD wherever GET; /health without the slash', () => {
  test('HEAD has the GET headers (length included) and no body', async () => {
    const get = await call(base, 'GET', '/api/v1/auth/me', { headers: { authorization: `Bearer ${token}` } });
    const head = await call(base, 'HEAD', '/api/v1/auth/me', {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(get.status).toBe(200);
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers['content-type']).toBe(get.headers['content-type']);
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect(head.headers['cache-control']).toBe('no-store');
    // A raw connection proves no body bytes follow: the next response parses right after the headers.
    const conn = new RawConnection(port);
    await conn.write('HEAD /health/ HTTP/1.1\r\nHost: t\r\n\r\nGET /health/ HTTP/1.1\r\nHost: t\r\n\r\n');
    const h = await conn.next(true);
    expect(h.status).toBe(200);
    expect(Number(h.headers['content-length'])).toBeGreaterThan(0);
    expect((await conn.next()).status).toBe(200);
    conn.destroy();
  });

  test('HEAD needs what GET needs (401 without a token) and is 405 where there is no GET', async () => {
    expect((await call(base, 'HEAD', '/api/v1/auth/me')).status).toBe(401);
    const r = await call(base, 'HEAD', '/api/v1/auth/login');
    expect(r.status).toBe(405);
    expect(r.headers.allow).toBe('OPTIONS, POST');
  });

  test.each(['/health', '/api/v1/health'])('%s answers like its trailing-slash form', async (path) => {
    const r = await call(base, 'GET', path);
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('ok');
    expectMatchesContract('getHealth', 200, r.body);
  });
});

describe('L3: oversized headers and NUL in a query answer with our bodies, as the contract declares', () => {
  test('headers over 16 KiB: 431 with our JSON body, and every operation declares 431', async () => {
    const conn = new RawConnection(port);
    await conn.write(
      `GET /api/v1/auth/me HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    const r = await conn.next();
    expect(r.status).toBe(431);
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    const body = JSON.parse(r.text);
    expect(body).toEqual({
      detail: expect.any(String),
      code: 'request_header_fields_too_large',
      request_id: expect.stringMatching(/.+/),
    });
    expectMatchesContract('getCurrentUser', 431, body);
    for (const op of listOperations(contract)) {
      const declared = op.responses['431'] as { 'x-error-codes'?: string[] } | undefined;
      expect(declared?.['x-error-codes'], op.operationId).toEqual(['request_header_fields_too_large']);
    }
  });

  test('a request that is not HTTP: 400 with our JSON body', async () => {
    const conn = new RawConnection(port);
    await conn.write(
      'GET /health/ HTTP/1.1\r\nHost: t\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n',
    );
    const r = await conn.next();
    expect(r.status).toBe(400);
    expect(JSON.parse(r.text).code).toBe('malformed_request');
  });

  test.each([
    ['getHealth', '/health/?x=%00'],
    ['getPublicConfig', '/config?x=%00'],
    ['getCurrentUser', '/api/v1/auth/me?x=%00'],
  ])('%s: a NUL in a query is the 422 it declares', async (id, path) => {
    const r = await call(base, 'GET', path, { headers: { authorization: `Bearer ${token}` } });
    expect(r.status).toBe(422);
    expect(r.body.detail[0]).toMatchObject({ loc: ['query', 'x'], type: 'string_nul' });
    expectMatchesContract(id, 422, r.body);
  });
});

describe('M2: response headers', () => {
  test('nosniff on every kind of response; no-store on authenticated ones, errors and token responses', async () => {
    await t.app.services.auth.seedAdmin('root@hygiene.test', 'root password 1');
    const login = await call(base, 'POST', '/api/v1/auth/login', {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'root@hygiene.test', password: 'root password 1' }),
    });
    expect(login.status).toBe(200);
    expect(login.body.access_token).toEqual(expect.any(String));
    const refresh = await call(base, 'POST', '/api/v1/auth/refresh', {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refresh_token: login.body.refresh_token }),
    });
    expect(refresh.status).toBe(200);
    const replies = [
      login,
      refresh,
      await call(base, 'GET', '/api/v1/auth/me', { headers: { authorization: `Bearer ${token}` } }),
      await call(base, 'GET', '/api/v1/auth/me'),
      await call(base, 'GET', '/nope'),
      await call(base, 'DELETE', '/health/'),
      await call(base, 'POST', '/api/v1/auth/login', {
        headers: { 'content-type': 'text/plain' },
        body: 'x',
      }),
      await call(base, 'GET', '/health/'),
      await call(base, 'GET', '/'),
    ];
    for (const r of replies) {
      expect(r.headers['x-content-type-options'], `${r.status}`).toBe('nosniff');
      expect(r.headers['cache-control'], `${r.status}`).toBe('no-store');
    }
    const options = await call(base, 'OPTIONS', '/health/');
    expect(options.headers['x-content-type-options']).toBe('nosniff');
  });

  test('/docs: a CSP allowing exactly its inline scripts, frame-ancestors none, X-Frame-Options DENY', async () => {
    const r = await call(base, 'GET', '/docs');
    expect(r.status).toBe(200);
    expect(r.headers['x-frame-options']).toBe('DENY');
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    const csp = String(r.headers['content-security-policy']);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    const scriptSrc = csp.split(';').find((d) => d.trim().startsWith('script-src')) ?? '';
    expect(scriptSrc).not.toContain('unsafe-inline');
    const scripts = [...r.text.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1] as string);
    expect(scripts).toHaveLength(2);
    for (const s of scripts) {
      const hash = createHash('sha256').update(s, 'utf8').digest('base64');
      expect(scriptSrc).toContain(`'sha256-${hash}'`);
    }
  });
});

describe('CORS (explicit policy, CORS_ORIGINS)', () => {
  const preflight = (b: string, origin: string, path = '/api/v1/auth/me') =>
    call(b, 'OPTIONS', path, {
      headers: {
        origin,
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization, idempotency-key',
      },
    });

  test('sandbox default: a localhost origin gets its preflight answered 204 and its responses readable', async () => {
    const p = await preflight(base, 'http://localhost:5173');
    expect(p.status).toBe(204);
    expect(p.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(p.headers['access-control-allow-methods']).toBe('GET, HEAD, OPTIONS');
    const allowHeaders = String(p.headers['access-control-allow-headers']).toLowerCase();
    for (const h of ['authorization', 'content-type', 'idempotency-key', 'last-event-id', 'x-api-key'])
      expect(allowHeaders).toContain(h);
    expect(String(p.headers.vary)).toContain('Origin');
    expect(p.headers['access-control-allow-credentials']).toBeUndefined();
    expect(p.headers.allow).toBe('GET, HEAD, OPTIONS');

    const r = await call(base, 'GET', '/api/v1/auth/me', {
      headers: { origin: 'http://127.0.0.1:3000', authorization: `Bearer ${token}` },
    });
    expect(r.status).toBe(200);
    expect(r.headers['access-control-allow-origin']).toBe('http://127.0.0.1:3000');
    const exposed = String(r.headers['access-control-expose-headers']);
    for (const h of ['Retry-After', 'Idempotent-Replayed', 'X-Request-Id']) expect(exposed).toContain(h);
    expect(String(r.headers.vary)).toContain('Origin');
    expect(r.headers['access-control-allow-credentials']).toBeUndefined();
  });

  test('a disallowed origin gets no CORS header (preflight or response); an unknown path is 404', async () => {
    for (const origin of ['https://evil.example', 'http://localhost.evil.example:80', 'null']) {
      const p = await preflight(base, origin);
      expect(p.status).toBe(204);
      expect(p.headers['access-control-allow-origin'], origin).toBeUndefined();
      expect(p.headers['access-control-allow-methods'], origin).toBeUndefined();
      const r = await call(base, 'GET', '/health/', { headers: { origin } });
      expect(r.headers['access-control-allow-origin'], origin).toBeUndefined();
    }
    expect((await preflight(base, 'http://localhost:5173', '/nope')).status).toBe(404);
  });

  test('live mode: no origin by default; CORS_ORIGINS lists them; * is never sent with credentials', async () => {
    const live = {
      SUPPLIERS: 'live',
      JWT_SECRET: 'x'.repeat(40),
      TRAVEL_ADMIN_EMAIL: 'a@b.test',
      TRAVEL_ADMIN_PASSWORD: 'pw-pw-pw-pw',
    };
    for (const [env, origin, expected] of [
      [{}, 'http://localhost:5173', undefined],
      [{ CORS_ORIGINS: 'https://app.example.com' }, 'https://app.example.com', 'https://app.example.com'],
      [{ CORS_ORIGINS: 'https://app.example.com' }, 'http://localhost:5173', undefined],
      [{ CORS_ORIGINS: '*' }, 'https://anyone.example', '*'],
    ] as const) {
      const app = await createTestApp({ contract, env: { ...live, ...env } });
      const s = await serve(app.app.kernel, { port: 0, host: '127.0.0.1' });
      try {
        const b = `http://127.0.0.1:${(s.server.address() as { port: number }).port}`;
        const p = await preflight(b, origin, '/health/');
        expect(p.headers['access-control-allow-origin'], JSON.stringify(env)).toBe(expected);
        expect(p.headers['access-control-allow-credentials']).toBeUndefined();
        const r = await call(b, 'GET', '/health/', { headers: { origin } });
        expect(r.headers['access-control-allow-origin'], JSON.stringify(env)).toBe(expected);
      } finally {
        await s.close(500);
        await app.close();
      }
    }
    // Four apps, each a fresh embedded database migrated from empty: 46 s on a 2-core machine at load 29.
  }, 180_000);
});

describe('response validation (RESPONSE_VALIDATION=strict in every test app on the real contract)', () => {
  test('a handler answering what the contract does not describe fails loudly: 500 naming the problem', async () => {
    const bad = await createTestApp({
      contract,
      // @ts-expect-error the compiler refuses this body already (Handler<'getApiInfo'>); the run-time check is proved here
      routes: () => ({
        getApiInfo: async () => ({ status: 200, body: { name: 42 } }),
        getPublicConfig: async () => ({
          status: 418,
          body: { detail: 'x', code: 'teapot', request_id: 'r' },
        }),
      }),
    });
    try {
      const r = await bad.request('GET', '/');
      expect(r.status).toBe(500);
      expect(r.body.detail).toMatch(/getApiInfo 200 does not match the contract/);
      const c = await bad.request('GET', '/config');
      expect(c.status).toBe(500);
      expect(c.body.detail).toMatch(/status 418 is not declared/);
      expect(bad.violations.map((v) => `${v.operationId} ${v.status}`)).toEqual([
        'getApiInfo 200',
        'getPublicConfig 418',
      ]);
    } finally {
      await bad.close();
    }
  });

  test('nothing this file provoked broke the contract', () => {
    expect(t.violations).toEqual([]);
  });
});
