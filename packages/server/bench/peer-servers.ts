/**
 * The peers `bench/peers.ts` measures ours against, each a child process: `node bench/peer-servers.ts <mode>`
 * listens on 127.0.0.1:0, sends `{ port }` over IPC and exits on the message `stop`.
 *
 * - `json`: bare `node:http` answering every request with the bytes of `BODY_FILE` (our own booking
 *   answer, so both sides send the same payload).
 * - `fastify-booking`: the authenticated booking read as a lean Fastify 5 + `pg` + jose service would
 *   write it: HS256 bearer verified with a key imported once (`JWT_SECRET`, same issuer and audience as
 *   ours) and remembered until it expires (as ours does), one prepared statement by primary key on
 *   `DATABASE_URL` reading the columns ours reads (`COLUMNS`), the tenant check (the row's company must
 *   be the token's `cid`), the row as JSON.
 * - `accepted`: bare `node:http` taking a JSON POST as a search would be taken and answering 202 with a
 *   fresh `searchId`, nothing else: the floor of the getFare 202 figure (the same client, the same fetch
 *   loop, the same machine), measured beside ours.
 * - `sse`: a plain `node:http` SSE broadcaster: every request is held as an event stream; the IPC message
 *   `{ fire: string[] }` writes those frames, serialized once, to every open stream and ends them.
 */

import { createSecretKey, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { jwtVerify } from 'jose';
import pg from 'pg';

type Started = { port: number; close(): Promise<void> };

function listen(server: ReturnType<typeof createServer>): Promise<Started> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise<void>((r) => {
            server.closeAllConnections();
            server.close(() => r());
          }),
      }),
    );
  });
}

function json(): Promise<Started> {
  const body = readFileSync(process.env.BODY_FILE as string);
  return listen(
    createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
      res.end(body);
    }),
  );
}

function accepted(): Promise<Started> {
  return listen(
    createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        JSON.parse(Buffer.concat(chunks).toString('utf8'));
        const body = JSON.stringify({ searchId: randomUUID() });
        res.writeHead(202, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        res.end(body);
      });
    }),
  );
}

/** Verified tokens kept by the `fastify-booking` peer, as ours keeps them (`internal/tokens.ts`). */
const VERIFIED_MAX = 1000;

async function fastifyBooking(): Promise<Started> {
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
  const key = createSecretKey(Buffer.from(process.env.JWT_SECRET as string));
  // The columns our booking read selects (`VIEW_COLUMNS`, handed over by peers.ts), not `select *`.
  const columns = String(process.env.COLUMNS ?? '')
    .split(',')
    .filter((c) => /^[a-z_]+$/.test(c));
  if (columns.length === 0) throw new Error("COLUMNS: the booking read's columns, comma-separated");
  const text = `select ${columns.map((c) => `"${c}"`).join(', ')} from flight_bookings where id = $1`;
  // A verified token is remembered until it expires (insertion order, the oldest dropped at the cap): the
  // same memo as ours, so neither side runs jose's HMAC for a token it has already seen.
  const verified = new Map<string, { cid: unknown; exp: number }>();
  const verify = async (token: string): Promise<unknown> => {
    const hit = verified.get(token);
    if (hit && hit.exp > Date.now()) return hit.cid;
    const { payload } = await jwtVerify(token, key, {
      issuer: 'travel-service',
      audience: 'travel-api',
      algorithms: ['HS256'],
    });
    if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value as string);
    verified.set(token, { cid: payload.cid, exp: (payload.exp ?? 0) * 1000 });
    return payload.cid;
  };
  const app = Fastify({ logger: false });
  app.get<{ Params: { id: string } }>('/api/v1/bookings/:id', async (req, reply) => {
    const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
    if (!m?.[1]) return reply.code(401).send({ detail: 'no token', code: 'not_authenticated' });
    let cid: unknown;
    try {
      cid = await verify(m[1]);
    } catch {
      return reply.code(401).send({ detail: 'bad token', code: 'invalid_token' });
    }
    const r = await pool.query({ name: 'booking_view_by_id', text, values: [req.params.id] });
    const row = r.rows[0];
    if (!row || row.company_id !== cid)
      return reply.code(404).send({ detail: 'Booking not found.', code: 'booking_not_found' });
    return row;
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    port: (app.server.address() as AddressInfo).port,
    close: async () => {
      await app.close();
      await pool.end();
    },
  };
}

function sse(): Promise<Started> {
  const open = new Set<ServerResponse>();
  process.on('message', (m) => {
    if (typeof m === 'object' && m && 'fire' in m) {
      const frames = Buffer.from((m as { fire: string[] }).fire.join(''));
      for (const res of open) res.end(frames);
      open.clear();
      process.send?.({ fired: true });
    }
  });
  return listen(
    createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.flushHeaders();
      open.add(res);
      res.on('close', () => open.delete(res));
    }),
  );
}

const mode = process.argv[2];
const server =
  mode === 'json'
    ? await json()
    : mode === 'accepted'
      ? await accepted()
      : mode === 'fastify-booking'
        ? await fastifyBooking()
        : mode === 'sse'
          ? await sse()
          : (() => {
              throw new Error('mode: json | accepted | fastify-booking | sse');
            })();
process.send?.({ port: server.port });
process.on('message', (m) => {
  if (m === 'stop') void server.close().finally(() => process.exit(0));
});
process.on('disconnect', () => process.exit(0));
