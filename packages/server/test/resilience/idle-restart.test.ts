/**
 * An idle service lives through a database restart. Two server processes (A and B) on a private
 * PostgreSQL server sit idle while it is restarted with `pg_ctl restart -m fast`, which ends every
 * connection, idle pool clients and the LISTEN connection of the search notifier alike. Both must stay
 * up, serve within 5 s of the database's return, and listen again: a search started on A is streamed on
 * B, whose readers poll once a minute only, so its events can reach B within the test only by NOTIFY.
 * The same holds for the event feed's LISTEN connection (events/wake.ts): after a restart, an event
 * committed by another process reaches B's event stream, whose poll is also once a minute.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { record } from '../../src/events/record.ts';
import { openDatabase } from '../../src/storage/database.ts';
import { oneWaySearch } from '../harness/flight-search.ts';
import {
  type Emulators,
  readSse,
  type ServerProcess,
  type SseMessage,
  startEmulators,
} from '../search/processes.ts';
import { type PrivatePostgres, postgresBinaries, startPrivatePostgres } from './postgres.ts';
import { Client, eventually, startService, supplierUrls } from './stack.ts';

const bin = postgresBinaries();

describe.skipIf(!bin)('an idle service and a database restart', () => {
  let db: PrivatePostgres;
  let emulators: Emulators;
  let a: ServerProcess;
  let b: ServerProcess;

  beforeAll(async () => {
    db = await startPrivatePostgres(bin as string);
    emulators = await startEmulators();
    const env = {
      DATABASE_URL: db.url,
      SANDBOX_SUPPLIER_URLS: supplierUrls(emulators.urls),
      SEARCH_POLL_MS: '60000',
      EVENTS_POLL_MS: '60000',
    };
    a = await startService('idle-a', env);
    b = await startService('idle-b', env);
  }, 60_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await emulators?.close();
    await db?.destroy();
  });

  const query = async <T = Record<string, unknown>>(text: string): Promise<T[]> => {
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    try {
      return (await c.query(text)).rows as T[];
    } finally {
      await c.end();
    }
  };
  const listeners = async (channel = 'search_events') =>
    (
      await query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity where query ilike 'listen ${channel}%' and pid <> pg_backend_pid()`,
      )
    )[0]?.n;

  it('both processes stay up, serve within 5 s of the return, and LISTEN again (NOTIFY reaches B)', async () => {
    expect(await listeners()).toBe(2);
    await db.restart();
    const back = Date.now();
    const ca = new Client(a.url);
    const cb = new Client(b.url);
    await eventually('A to serve again', 5000, async () => {
      await ca.login();
      return true;
    });
    await eventually('B to serve again', 5000, async () => {
      await cb.login();
      return true;
    });
    expect(Date.now() - back).toBeLessThanOrEqual(5000);
    expect(a.child.exitCode, a.output()).toBeNull();
    expect(b.child.exitCode, b.output()).toBeNull();
    await eventually('both notifiers to LISTEN again', 10_000, async () => (await listeners()) === 2);

    // A search on A, held at Mystifly; B streams it. Once B has what was there when it connected, the
    // rest (Mystifly's answer, done) can only reach it through NOTIFY.
    emulators.mystiflySearch.close();
    const s = await ca.req('POST', '/api/v1/flight/getFare', {
      body: oneWaySearch('LHR', 'DXB', '2027-02-01'),
    });
    expect(s.status).toBe(202);
    await emulators.mystiflySearch.arrived(1);
    const res = await fetch(`${b.url}/api/v1/flight/getFare/stream/${s.body.searchId}`, {
      headers: { authorization: `Bearer ${cb.token}` },
    });
    expect(res.status).toBe(200);
    const got: SseMessage[] = [];
    const it = readSse(res)[Symbol.asyncIterator]();
    const next = async () => {
      for (let n = await it.next(); !n.done; n = await it.next()) {
        if (n.value.event === 'heartbeat') continue;
        got.push(n.value);
        return n.value;
      }
      return undefined;
    };
    // Amadeus and Duffel have answered: two supplier_done events are in the log already.
    while (got.filter((m) => m.event === 'supplier_done').length < 2) expect(await next()).toBeDefined();
    const t = Date.now();
    emulators.mystiflySearch.open();
    let last: SseMessage | undefined;
    do last = await next();
    while (last && last.event !== 'done');
    expect(last?.event).toBe('done');
    expect(Date.now() - t).toBeLessThan(10_000);
  }, 60_000);

  it('the event listeners LISTEN again: an event committed after the restart reaches a stream on B at once', async () => {
    await eventually('both event listeners', 10_000, async () => (await listeners('travel_events')) === 2);
    await db.restart();
    const cb = new Client(b.url);
    await eventually('B to serve again', 5000, async () => {
      await cb.login();
      return true;
    });
    await eventually('both event listeners to LISTEN again', 10_000, async () => {
      return (await listeners('travel_events')) === 2;
    });
    const [company] = await query<{ id: number }>(`select id from companies where company_code = 'SANDBOX'`);
    const res = await fetch(`${b.url}/api/v1/events/stream`, {
      headers: { authorization: `Bearer ${cb.token}` },
    });
    expect(res.status).toBe(200);
    const it = readSse(res)[Symbol.asyncIterator]();
    // The event is committed by a third process (a domain on A would do the same).
    const writer = await openDatabase({ databaseUrl: db.url, migrate: false, poolSize: 1 });
    try {
      const t = Date.now();
      const id = await writer.db.transaction().execute((trx) =>
        record(trx, {
          type: 'booking.created',
          companyId: company?.id as number,
          resource: { type: 'booking', id: 9001, data: { booking_id: 9001 } },
        }),
      );
      let got: SseMessage | undefined;
      for (let n = await it.next(); !n.done; n = await it.next()) {
        if (n.value.event === 'heartbeat') continue;
        got = n.value;
        break;
      }
      expect(got?.id).toBe(id);
      // EVENTS_POLL_MS is a minute: only the NOTIFY brings it this soon.
      expect(Date.now() - t).toBeLessThan(10_000);
    } finally {
      await it.return?.(undefined);
      await writer.close();
    }
  }, 60_000);
});
