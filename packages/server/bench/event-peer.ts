/**
 * The peer of `bench/event-fanout.ts`: the least a process can do to fan events out to SSE clients, a
 * bare `node:http` broadcaster on the same table and the same wake-up. It LISTENs on `travel_events`,
 * and on each notification reads the rows after the last one it sent (one query, like our feed) and
 * writes each, serialized once, to every open stream. No authentication, no tenancy, no filters, no
 * visibility rule, no resume, no heartbeats: a floor, not a competitor.
 * `node bench/event-peer.ts` with `DATABASE_URL`; listens on 127.0.0.1:0, sends `{ port }` over IPC and
 * exits on the message `stop`.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('DATABASE_URL is required');
const open = new Set<ServerResponse>();
const pool = new pg.Pool({ connectionString: url, max: 2 });
const head = await pool.query<{ seq: string }>('select coalesce(max(seq), 0)::text as seq from events');
let last = head.rows[0]?.seq ?? '0';
let reading = false;
let again = false;

async function read(): Promise<void> {
  if (reading) {
    again = true;
    return;
  }
  reading = true;
  try {
    do {
      again = false;
      const r = await pool.query(
        `select seq::text as seq, id, type, company_id, resource_type, resource_id, resource_version, data, created_at
         from events where seq > $1 order by seq limit 500`,
        [last],
      );
      for (const row of r.rows) {
        last = row.seq;
        const frame = Buffer.from(`id: ${row.id}\nevent: event\ndata: ${JSON.stringify(row)}\n\n`);
        for (const res of open) res.write(frame);
      }
      if (r.rows.length === 500) again = true;
    } while (again);
  } finally {
    reading = false;
  }
}

const listener = new pg.Client({ connectionString: url });
await listener.connect();
listener.on('notification', () => void read());
await listener.query('listen travel_events');

const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.flushHeaders();
  open.add(res);
  res.on('close', () => open.delete(res));
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
process.send?.({ port: (server.address() as AddressInfo).port });
const stop = async () => {
  for (const res of open) res.end();
  server.close();
  await listener.end().catch(() => {});
  await pool.end().catch(() => {});
  process.exit(0);
};
process.on('message', (m) => {
  if (m === 'stop') void stop();
});
process.on('disconnect', () => void stop());
