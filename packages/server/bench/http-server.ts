/**
 * Child process for `http.ts`: `node bench/http-server.ts <target>` listens on 127.0.0.1:0, sends
 * `{ port }` over IPC, and exits on the message `stop`. `profile:start` / `profile:stop` record a CPU
 * profile (the same `.cpuprofile` as `node --cpu-prof`) of the measured window only, so start-up work
 * (migrations, schema compilation) does not dilute it; the reply is `{ profile: path }`.
 * Running each server in its own process keeps the load generator off its core.
 */
import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { API_VERSION } from '@travel/contract';
import Fastify from 'fastify';
import { Hono } from 'hono';
import pino from 'pino';
import { createApp } from '../src/app.ts';
import { buildInfo } from '../src/internal/build-info.ts';
import { loadConfig } from '../src/internal/config.ts';
import { createLogger } from '../src/internal/logger.ts';
import type { OpenApiDoc } from '../src/kernel/contract.ts';
import type { Kernel } from '../src/kernel/kernel.ts';
import { serve } from '../src/kernel/node-adapter.ts';
import { MemoryMailer } from '../src/mail/mailer.ts';
import { openDatabase } from '../src/storage/database.ts';

export const TARGETS = [
  'bare',
  'bare-same-bytes',
  'adapter',
  'kernel-root',
  'kernel-root-logged',
  'kernel-fixture',
  'fastify',
  'hono',
] as const;
export type Target = (typeof TARGETS)[number];

const HELLO = JSON.stringify({ hello: 'world' });

/** One public GET operation and nothing else: the kernel's fixed cost without the real contract. */
const fixtureContract: OpenApiDoc = {
  openapi: '3.1.0',
  info: { title: 'bench', version: '0' },
  security: [{ bearerAuth: [] }],
  paths: {
    '/hello': {
      get: {
        operationId: 'benchHello',
        security: [],
        responses: { '200': { description: 'ok' } },
      },
    },
  },
  components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer' } } },
};

function bare(): Promise<{ port: number; close(): Promise<void> }> {
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(HELLO);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () => new Promise<void>((r) => server.close(() => r())),
      }),
    );
  });
}

/**
 * The floor of ours: bare node:http sending the bytes ours sends for `GET /` in sandbox mode (the same
 * headers in the same order, a fresh request id each, the same body and keep-alive timeout), written as
 * ours writes them (one `writeHead` with a flat list, one `end`).
 */
function bareSameBytes(): Promise<{ port: number; close(): Promise<void> }> {
  const b = buildInfo();
  const body = JSON.stringify({
    name: 'Travel Service API',
    version: API_VERSION,
    build: b,
    environment: 'sandbox',
    docs_url: '/docs',
    openapi_url: '/openapi.json',
    health_url: '/health/',
  });
  const length = String(Buffer.byteLength(body));
  let n = 0;
  const server: Server = createServer((_req, res) => {
    n += 1;
    res.writeHead(200, [
      'content-type',
      'application/json',
      'x-content-type-options',
      'nosniff',
      'cache-control',
      'no-store',
      'api-version',
      API_VERSION,
      'vary',
      'Origin',
      'x-request-id',
      `req_wtARGmSw5YqF${n.toString(36)}`,
      'content-length',
      length,
    ]);
    res.end(body);
  });
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () => new Promise<void>((r) => server.close(() => r())),
      }),
    );
  });
}

/** Peer: Fastify 5 with its defaults (no logger), one JSON route. */
async function fastify() {
  const app = Fastify({ logger: false });
  app.get('/', async () => ({ hello: 'world' }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { port: (app.server.address() as AddressInfo).port, close: () => app.close() };
}

/** Peer: Hono 4 on @hono/node-server, one JSON route. */
function hono(): Promise<{ port: number; close(): Promise<void> }> {
  const app = new Hono();
  app.get('/', (c) => c.json({ hello: 'world' }));
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () => new Promise<void>((r) => server.close(() => r())),
      }),
    );
  });
}

/**
 * The kernel's node adapter around a handler that only builds a `Response`: what the web
 * `Request`/`Response` round trip costs before any middleware runs.
 */
async function adapter() {
  const stub: Kernel = {
    handle: async () => new Response(HELLO, { status: 200, headers: { 'content-type': 'application/json' } }),
    operations: [],
    unimplemented: [],
    inFlight: () => 0,
    shutdown() {},
    shuttingDown: new AbortController().signal,
  };
  const running = await serve(stub, { port: 0, host: '127.0.0.1' });
  return { port: (running.server.address() as AddressInfo).port, close: () => running.close(1000) };
}

/**
 * The real composition root on in-memory PGlite, with a silent logger (as in tests); `kernel-root-logged`
 * logs as `pnpm start` does (issue 31, F3): `createLogger('info')`, one access line per request written
 * to stdout (one write per event-loop turn), which `peers.ts` connects to a pipe drained by another process, as a
 * container's log collector would. `BENCH_LOG_BEFORE=1`: the logger as it was before (pino's synchronous
 * stdout, pino's own serializer), for a before/after in the same run.
 */
async function kernel(target: 'kernel-root' | 'kernel-root-logged' | 'kernel-fixture') {
  const logged = target === 'kernel-root-logged';
  const config = loadConfig({ SUPPLIERS: 'sandbox', LOG_LEVEL: logged ? 'info' : 'silent', PORT: '0' });
  const database = await openDatabase({});
  const logger = !logged
    ? pino({ level: 'silent' })
    : process.env.BENCH_LOG_BEFORE === '1'
      ? pino({ level: 'info', base: { service: 'travel-server' } }, pino.destination({ dest: 1, sync: true }))
      : createLogger('info');
  const app = createApp({
    config,
    database,
    mailer: new MemoryMailer(),
    logger,
    ...(target === 'kernel-fixture'
      ? {
          contract: fixtureContract,
          routes: () => ({ benchHello: async () => ({ status: 200, body: { hello: 'world' } }) }),
        }
      : {}),
  });
  const running = await serve(app.kernel, { port: 0, host: '127.0.0.1' });
  return {
    port: (running.server.address() as AddressInfo).port,
    async close() {
      await running.close(1000);
      await database.close();
    },
  };
}

const target = process.argv[2] as Target;
if (!TARGETS.includes(target)) throw new Error(`target must be one of ${TARGETS.join(', ')}`);
const server =
  target === 'bare'
    ? await bare()
    : target === 'bare-same-bytes'
      ? await bareSameBytes()
      : target === 'adapter'
        ? await adapter()
        : target === 'fastify'
          ? await fastify()
          : target === 'hono'
            ? await hono()
            : await kernel(target);
process.send?.({ port: server.port });
const session = new Session();
process.on('message', async (m) => {
  if (m === 'stop') {
    void server.close().finally(() => process.exit(0));
  } else if (m === 'profile:start') {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    await session.post('Profiler.start');
    process.send?.({ profiling: true });
  } else if (typeof m === 'object' && m && 'profileStop' in m) {
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    const path = String((m as { profileStop: string }).profileStop);
    writeFileSync(path, JSON.stringify(profile));
    process.send?.({ profile: path });
  }
});
