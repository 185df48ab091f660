/**
 * A committed event reaches its streams and its webhook receiver at once, not at the next poll: NOTIFY
 * and one LISTEN connection on PostgreSQL, the in-process emitter on PGlite (events/wake.ts). Both polls
 * are set to 10 minutes here, so within the tests' bounds only a wake-up can deliver. On PostgreSQL the
 * LISTEN connection, terminated by the server, comes back and wakes again.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EventType, record } from '../../src/events/record.ts';
import { PgEventWake } from '../../src/events/wake.ts';
import { createEndpoint } from '../../src/events/webhooks/endpoints.ts';
import { testBackend } from '../helpers/db.ts';
import { type Journeys, journeys } from '../journeys/world.ts';

const TEN_MINUTES = '600000';
const saved = { events: process.env.EVENTS_POLL_MS, jobs: process.env.JOBS_POLL_MS };
let j: Journeys;
let server: Server;
let base: string;
/** Resolves the waiter of the next webhook the receiver gets. */
let onHook: ((body: string) => void) | undefined;

beforeAll(async () => {
  process.env.EVENTS_POLL_MS = TEN_MINUTES;
  process.env.JOBS_POLL_MS = TEN_MINUTES;
  j = await journeys({ notify: true });
  j.runtime.jobs.start();
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      res.end('ok');
      onHook?.(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  process.env.EVENTS_POLL_MS = saved.events;
  process.env.JOBS_POLL_MS = saved.jobs;
  if (saved.events === undefined) delete process.env.EVENTS_POLL_MS;
  if (saved.jobs === undefined) delete process.env.JOBS_POLL_MS;
  await new Promise((r) => server?.close(r));
  await j?.close();
});

const emit = (company: number, type: EventType, id: number) =>
  j.database.db.transaction().execute((trx) =>
    record(trx, {
      type,
      companyId: company,
      resource: { type: 'booking', id, data: { booking_id: id } },
      at: j.clock.now(),
    }),
  );

/** Rejects after `ms` (a bound on a wait, not a synchronisation). */
const within = <T>(ms: number, p: Promise<T>, what: string): Promise<T> =>
  Promise.race([
    p,
    new Promise<never>((_, rej) =>
      setTimeout(() => rej(new Error(`${what}: not within ${ms} ms`)), ms).unref(),
    ),
  ]);

/** The ids of the `event` messages of an open stream, as they arrive. */
async function open(token: string) {
  const ac = new AbortController();
  const res = await j.runtime.app.handle(
    new Request('http://travel.test/api/v1/events/stream', {
      headers: { authorization: `Bearer ${token}` },
      signal: ac.signal,
    }),
  );
  expect(res.status).toBe(200);
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buf = '';
  return {
    async nextId(): Promise<string> {
      for (;;) {
        const m = /(?:^|\n)id: (\S+)\nevent: event\n/.exec(buf);
        if (m) {
          buf = buf.slice((m.index ?? 0) + m[0].length);
          return m[1] as string;
        }
        const chunk = await reader.read();
        if (chunk.done) throw new Error('stream ended');
        buf += decoder.decode(chunk.value, { stream: true });
      }
    },
    close() {
      ac.abort();
      void reader.cancel().catch(() => {});
    },
  };
}

describe(`event wake-up (${testBackend})`, () => {
  it('a stream gets each committed event without waiting for the 10-minute poll', async () => {
    const company = await j.company();
    const staff = await j.user('company_staff', company.id);
    const s = await open(staff.token);
    try {
      for (let i = 0; i < 3; i++) {
        const id = await emit(company.id, 'booking.created', 100 + i);
        expect(await within(10_000, s.nextId(), `event ${i}`)).toBe(id);
      }
    } finally {
      s.close();
    }
  });

  it('a webhook delivery is attempted without waiting for the 10-minute job poll', async () => {
    const company = await j.company();
    const admin = await j.user('company_admin', company.id);
    await createEndpoint(j.database.db, j.clock, {
      companyId: company.id,
      url: `${base}/hooks`,
      eventTypes: [],
      enabled: true,
      createdBy: admin.id,
    });
    const got = new Promise<string>((r) => {
      onHook = r;
    });
    const id = await emit(company.id, 'booking.confirmed', 200);
    const body = await within(10_000, got, 'the webhook');
    expect(JSON.parse(body)).toMatchObject({ id, type: 'booking.confirmed', company_id: company.id });
  });

  it.runIf(testBackend === 'postgres')(
    'the LISTEN connection, terminated by the server, listens again and wakes',
    async () => {
      const wake = j.runtime.eventWake;
      expect(wake).toBeInstanceOf(PgEventWake);
      const pgWake = wake as PgEventWake;
      const pid = pgWake.pid;
      expect(pid).toBeTypeOf('number');
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      try {
        await admin.query('select pg_terminate_backend($1)', [pid]);
      } finally {
        await admin.end();
      }
      // Back within its backoff (250 ms, then doubling): a new connection, LISTENing again.
      await within(
        10_000,
        (async () => {
          while (pgWake.pid === undefined || pgWake.pid === pid) await new Promise((r) => setTimeout(r, 25));
        })(),
        'the listener to reconnect',
      );
      const company = await j.company();
      const staff = await j.user('company_staff', company.id);
      const s = await open(staff.token);
      try {
        const id = await emit(company.id, 'booking.created', 300);
        expect(await within(10_000, s.nextId(), 'the event after the reconnect')).toBe(id);
      } finally {
        s.close();
      }
    },
  );
});
