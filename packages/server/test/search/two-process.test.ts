/**
 * Two real server processes (`node src/main.ts`) on one PostgreSQL database (TEST_DATABASE_URL): a
 * search started on A is streamed, resumed and batched over HTTP on B, which learns of A's writes only
 * through LISTEN/NOTIFY (both poll once a minute, longer than any test here may take). Then A is killed
 * with SIGKILL in the middle of a fan-out, and B's job runner closes the orphaned search at its deadline,
 * so B's reader still gets its terminal event. The emulators run in this process, shared by both; the
 * Mystifly search sits behind a gate, so "mid fan-out" is a state the test holds, not a race it wins.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Emulators,
  freshDatabase,
  readSse,
  type ServerProcess,
  type SseMessage,
  startEmulators,
  startServer,
} from './processes.ts';

const url = process.env.TEST_DATABASE_URL;
const AGENT = { email: 'agent@sandbox.travel', password: 'sandbox-agent-pass' };
const ADMIN = { email: 'admin@sandbox.travel', password: 'sandbox-admin-pass' };
const futureDate = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const FLIGHT = {
  companyCode: 'SANDBOX',
  userCode: 'AGENT1',
  adults: 1,
  journeyType: 'OneWay',
  cabinClass: 'Economy',
  searchAirLegs: [{ origin: 'LHR', destination: 'DXB', departureDate: futureDate(60) }],
};

describe.skipIf(!url)('search across two server processes on one PostgreSQL server', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let emulators: Emulators;
  let a: ServerProcess;
  let b: ServerProcess;
  let token: string;

  const call = async (
    server: ServerProcess,
    method: string,
    path: string,
    o: { body?: unknown; token?: string } = {},
  ) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        ...(o.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(o.token ? { authorization: `Bearer ${o.token}` } : {}),
      },
      ...(o.body !== undefined ? { body: JSON.stringify(o.body) } : {}),
    });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };

  const login = async (server: ServerProcess, who: typeof AGENT) => {
    const r = await call(server, 'POST', '/api/v1/auth/login', { body: who });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.access_token as string;
  };

  const startSearch = async (server: ServerProcess): Promise<string> => {
    const r = await call(server, 'POST', '/api/v1/flight/getFare', { body: FLIGHT, token });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    return r.body.searchId as string;
  };

  /** The offer stream of `id` on `server`; break out of it (or abort) to drop the connection. */
  const stream = async (server: ServerProcess, id: string, lastEventId?: string) => {
    const ac = new AbortController();
    const res = await fetch(`${server.url}/api/v1/flight/getFare/stream/${id}`, {
      headers: { authorization: `Bearer ${token}`, ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
      signal: ac.signal,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const it = readSse(res)[Symbol.asyncIterator]();
    return {
      /** Data events (heartbeats skipped) until `stop` holds for the one just read, or the stream ends. */
      async until(stop: (m: SseMessage, all: SseMessage[]) => boolean = () => false) {
        const got: SseMessage[] = [];
        for (let n = await it.next(); !n.done; n = await it.next()) {
          if (n.value.event === 'heartbeat') continue;
          got.push(n.value);
          if (stop(n.value, got)) break;
        }
        return got;
      },
      close() {
        ac.abort();
      },
    };
  };

  const supplierDone = (count: number) => (_m: SseMessage, all: SseMessage[]) =>
    all.filter((m) => m.event === 'supplier_done').length === count;

  const batch = (server: ServerProcess, id: string, timeout: number) =>
    call(server, 'GET', `/api/v1/flight/getFare/batch/${id}?timeout=${timeout}`, { token });

  beforeAll(async () => {
    db = await freshDatabase(url as string);
    emulators = await startEmulators();
    const env = {
      DATABASE_URL: db.url,
      // One signing key for both (the sandbox key is otherwise made per data directory).
      JWT_SECRET: 'two-process-test-signing-key-0123456789',
      SANDBOX_SUPPLIER_URLS: Object.entries(emulators.urls)
        .map(([k, v]) => `${k}=${v}`)
        .join(','),
      // Readers re-read the log once a minute at most: within a test only NOTIFY can wake them.
      SEARCH_POLL_MS: '60000',
      SEARCH_ORPHAN_GRACE_SECONDS: '1',
      // A's next search must see B's PATCH of gds_config at once (not within the default 5 s).
      GDS_CONFIG_CACHE_MS: '0',
    };
    // Started together: migrations and the sandbox seed must tolerate a concurrent start.
    const [sa, sb] = await Promise.allSettled([startServer('a', env), startServer('b', env)]);
    if (sa.status === 'fulfilled') a = sa.value;
    if (sb.status === 'fulfilled') b = sb.value;
    for (const s of [sa, sb]) if (s.status === 'rejected') throw s.reason;
    expect(a.url).not.toBe(b.url);
    token = await login(a, AGENT);
  });

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await emulators?.close();
    await db?.drop();
  });

  it('streams on B, live, a search started on A; resumes on B with Last-Event-ID; batches on B', async () => {
    const gate = emulators.mystiflySearch;
    gate.close();
    const id = await startSearch(a);
    const liveOnA = await stream(a, id);
    const firstOnB = await stream(b, id);
    // Amadeus and Duffel answer at once; Mystifly is held, so the search keeps running until the gate opens.
    const head = await firstOnB.until(supplierDone(1));
    firstOnB.close();
    await gate.arrived(1);
    // Reconnect to B after the last event seen and read up to the other supplier that has answered.
    const resumed = await stream(b, id, head.at(-1)?.id);
    const middle = await resumed.until(supplierDone(1));
    expect(middle.at(-1)?.event).toBe('supplier_done');

    // A batch on B that waits (sent first), and one cut at its 5 s deadline (the least allowed) with what A has written so far.
    const waiting = batch(b, id, 30);
    const cut = await batch(b, id, 5);
    expect(cut.status).toBe(408);
    expect(cut.body).toMatchObject({ search_id: id, status: 'in_progress', timed_out: true });
    expect(cut.body.completed_gds_count).toBe(2);
    expect(cut.body.results_by_gds.mystifly).toEqual([]);

    // Mystifly answers on A; B's stream and batch are woken by NOTIFY.
    gate.open();
    const tail = await resumed.until();
    const onA = await liveOnA.until();
    expect(onA.at(-1)).toMatchObject({ event: 'done', data: { status: 'completed' } });
    expect(onA.filter((m) => m.event === 'supplier_done').length).toBe(3);
    // Nothing lost, nothing repeated: the two connections to B together are exactly A's stream.
    expect([...head, ...middle, ...tail]).toEqual(onA);
    expect(new Set(onA.map((m) => m.id)).size).toBe(onA.length);

    const onBBatch = await waiting;
    expect(onBBatch.status).toBe(200);
    expect(onBBatch.body).toMatchObject({
      status: 'completed',
      completed_gds_count: 3,
      total_gds_count: 3,
      timed_out: false,
    });
    expect(onBBatch.body.total_offers).toBe(onA.filter((m) => m.event === 'offer').length);
    expect(onBBatch.body.results_by_gds.mystifly.length).toBeGreaterThan(0);
    expect(onBBatch.body).toEqual((await batch(a, id, 30)).body);

    // After the end: B replays the whole log, and resumes from any id, exactly as A does.
    expect(await (await stream(b, id)).until()).toEqual(onA);
    const half = Math.floor(onA.length / 2);
    const resumeB = await (await stream(b, id, onA[half]?.id)).until();
    expect(resumeB).toEqual(onA.slice(half + 1));
    expect(resumeB).toEqual(await (await stream(a, id, onA[half]?.id)).until());
  });

  it('A killed with SIGKILL mid fan-out: B closes the search at its deadline and its reader gets done', async () => {
    // Short supplier deadlines (shared config: set on B, used by A's next search) keep the deadline near.
    const admin = await login(b, ADMIN);
    for (const gds of ['amadeus', 'duffel', 'mystifly']) {
      const r = await call(b, 'PATCH', `/api/v1/admin/gds/${gds}/config`, {
        body: { timeout: 4 },
        token: admin,
      });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    }
    const gate = emulators.mystiflySearch;
    gate.close();
    const id = await startSearch(a);
    const onB = await stream(b, id);
    const head = await onB.until(supplierDone(2));
    await gate.arrived(1);
    // Mystifly's answer is held and its 4 s deadline still far: A dies with the search running.
    expect((await a.stop('SIGKILL')).signal).toBe('SIGKILL');

    const tail = await onB.until();
    const all = [...head, ...tail];
    expect(all.at(-2)).toMatchObject({
      event: 'supplier_done',
      data: { supplier: 'mystifly', status: 'failed', offer_count: 0 },
    });
    const offers = all.filter((m) => m.event === 'offer').length;
    expect(all.at(-1)).toMatchObject({ event: 'done', data: { status: 'partial', total_offers: offers } });
    const r = await batch(b, id, 30);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'partial', completed_gds_count: 3, timed_out: false });
    gate.open();
  });

  it('B drains and exits by itself when its parent goes away (IPC channel closed)', async () => {
    b.child.disconnect();
    expect(await b.exited).toEqual({ code: 0, signal: null });
  });
});
