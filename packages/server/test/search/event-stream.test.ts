/**
 * The offer stream as the node path runs it: the search's feed writes each event's shared bytes to every
 * reader (no iterator per reader), heartbeats from one timer per search, a slow reader paused then cut,
 * a reader gone frees everything, and the session identity read once per search.
 */
import { request, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ManualClock } from '../../src/internal/clock.ts';
import type { Kernel } from '../../src/kernel/kernel.ts';
import { serve } from '../../src/kernel/node-adapter.ts';
import { formatSse, MAX_UNREAD_BYTES, runSse, SSE_PUSH, type SseWriter } from '../../src/kernel/sse.ts';
import { activeFeeds, feedSubscribers, insertEvents, type Timers } from '../../src/search/event-log.ts';
import { LocalNotifier } from '../../src/search/notifier.ts';
import { eventStream, type ReaderDeps, streamableSession } from '../../src/search/readers.ts';
import { searchDb } from '../../src/search/tables.ts';
import type { Database } from '../../src/storage/database.ts';
import { testDatabase } from '../helpers/db.ts';
import { manualTimers } from './harness.ts';

let database: Database;
const clock = new ManualClock(new Date('2030-01-01T00:00:00Z'));
const NAMES = { offer: 'offer', supplier_done: 'supplier_done' } as const;

async function session(id: string, o: { user?: string; expires?: Date } = {}) {
  await searchDb(database.db)
    .insertInto('search_sessions')
    .values({
      id,
      vertical: 'flight',
      user_id: o.user ?? 'u1',
      company_id: null,
      request: '{}',
      suppliers: '[]',
      expires_at: o.expires ?? new Date(clock.now().getTime() + 60_000),
    })
    .execute();
}

async function append(
  id: string,
  events: { seq: number; event: 'offer' | 'supplier_done' | 'done'; data: object }[],
) {
  await searchDb(database.db)
    .transaction()
    .execute((trx) =>
      insertEvents(
        trx,
        id,
        events.map((e) => ({ ...e, data: e.data as Record<string, unknown> })),
      ),
    );
}

beforeAll(async () => {
  database = await testDatabase();
});
afterAll(() => database.close());

function deps(notifier: LocalNotifier, timers: Timers): ReaderDeps {
  return { db: database.db, notifier, clock, heartbeatMs: 15_000, pollMs: 1000, timers };
}

/** A writer that records what it gets; `buffered` is what its client has not taken yet. */
function recorder() {
  const drains: (() => void)[] = [];
  const waiting: [number, () => void][] = [];
  let text = '';
  let resolveEnd: (how: string) => void = () => {};
  const w = {
    buffered: 0,
    writes: 0,
    ended: new Promise<string>((r) => {
      resolveEnd = r;
    }),
    get text() {
      return text;
    },
    drain() {
      w.buffered = 0;
      for (const fn of drains.splice(0)) fn();
    },
    write(bytes: Uint8Array) {
      w.writes++;
      w.pieces.push(bytes);
      if (w.corked > 0) w.bursts[w.bursts.length - 1] = (w.bursts.at(-1) ?? 0) + 1;
      text += new TextDecoder().decode(bytes);
      for (const [n, fn] of waiting) if (w.writes >= n) fn();
    },
    /** Resolves once `n` writes have been made (the feed writes synchronously, so no more come meanwhile). */
    wrote(n: number) {
      return w.writes >= n ? Promise.resolve() : new Promise<void>((r) => waiting.push([n, r]));
    },
    /** Writes made while corked, per cork (a burst leaves as one). */
    bursts: [] as number[],
    corked: 0,
    /** What the client takes when a burst is handed over (default: nothing changes). */
    onUncork: () => {},
    cork() {
      if (w.corked++ === 0) w.bursts.push(0);
    },
    uncork() {
      if (--w.corked === 0) w.onUncork();
    },
    drains,
    onDrain: (fn: () => void) => void drains.push(fn),
    /** The stream ended with a write still corked (the transport sends it with the end). */
    endedCorked: false,
    /** Every piece written, in order (the feed shares one piece among the readers at one place). */
    pieces: [] as Uint8Array[],
    end: () => {
      w.endedCorked = w.corked > 0;
      resolveEnd('end');
    },
    fail: (err: unknown) => resolveEnd(`fail: ${(err as Error).message}`),
    cut: () => resolveEnd('cut'),
  };
  return w satisfies SseWriter & Record<string, unknown>;
}

const offer = (seq: number) => ({ seq, event: 'offer' as const, data: { offer: { supplier: 'x', n: seq } } });

it('the feed writes every event after Last-Event-ID to each reader, the same bytes as the iterated stream, one piece per pass shared by the readers at one place, then done ends it and frees the feed', async () => {
  await session('p1');
  await append('p1', [offer(1), offer(2)]);
  const notifier = new LocalNotifier();
  const d = deps(notifier, manualTimers());
  const fresh = recorder();
  const resumed = recorder();
  const twin = recorder();
  eventStream(d, { id: 'p1' }, 0, NAMES)[SSE_PUSH](fresh);
  eventStream(d, { id: 'p1' }, 1, NAMES)[SSE_PUSH](resumed);
  eventStream(d, { id: 'p1' }, 0, NAMES)[SSE_PUSH](twin);
  expect(feedSubscribers(notifier, 'p1')).toBe(3);
  await twin.wrote(1);
  await append('p1', [
    { seq: 3, event: 'supplier_done', data: { supplier: 'x', status: 'completed' } },
    { seq: 4, event: 'done', data: { status: 'completed', total_offers: 2 } },
  ]);
  await notifier.publish('p1');
  expect(await fresh.ended).toBe('end');
  expect(await resumed.ended).toBe('end');
  expect(await twin.ended).toBe('end');
  const iterated: string[] = [];
  for await (const m of eventStream(d, { id: 'p1' }, 0, NAMES)) iterated.push(formatSse(m));
  expect(fresh.text).toBe(iterated.join(''));
  expect(fresh.text).toContain('id: 1\nevent: offer\n');
  expect(resumed.text).toBe(iterated.slice(1).join(''));
  expect(twin.text).toBe(fresh.text);
  // Each pass (the catch-up, then supplier_done + done) left as one piece in one corked write, the end
  // with the last one; the readers at one place got the very same piece.
  for (const r of [fresh, resumed, twin]) {
    expect(r.bursts).toEqual([1, 1]);
    expect(r.corked).toBe(0);
    expect(r.endedCorked).toBe(true);
  }
  expect(twin.pieces[1]).toBe(fresh.pieces[1]);
  expect(resumed.pieces[1]).toBe(fresh.pieces[1]);
  expect(feedSubscribers(notifier, 'p1')).toBe(0);
  expect(activeFeeds(notifier)).toBe(0);
  // Resuming at or after the end: `done` alone.
  const late = recorder();
  eventStream(d, { id: 'p1' }, 4, NAMES)[SSE_PUSH](late);
  expect(await late.ended).toBe('end');
  expect(late.text).toBe(iterated.at(-1));
});

it('one heartbeat tick per search: idle readers get a heartbeat, a reader written to since the last tick does not', async () => {
  await session('p2');
  const notifier = new LocalNotifier();
  const timers = manualTimers();
  const d = deps(notifier, timers);
  const early = recorder();
  eventStream(d, { id: 'p2' }, 0, NAMES)[SSE_PUSH](early);
  timers.fire(15_000);
  expect(early.text).toMatch(/^event: heartbeat\ndata: \{"ts":"2030-01-01T00:00:00.000Z"\}\n\n$/);
  await append('p2', [offer(1)]);
  await notifier.publish('p2');
  await early.wrote(2);
  const idle = recorder();
  eventStream(d, { id: 'p2' }, 1, NAMES)[SSE_PUSH](idle);
  timers.fire(15_000);
  // `early` got the offer since the last tick; `idle` got nothing.
  expect(early.writes).toBe(2);
  expect(idle.text).toContain('event: heartbeat');
  timers.fire(15_000);
  expect(early.writes).toBe(3);
  expect(feedSubscribers(notifier, 'p2')).toBe(2);
});

it('a slow reader is paused at its place past MAX_UNREAD_BYTES, resumed on drain, and cut when still behind a whole heartbeat interval later', async () => {
  await session('p3');
  const big = 'x'.repeat(MAX_UNREAD_BYTES / 2);
  const events = Array.from({ length: 6 }, (_, i) => ({
    seq: i + 1,
    event: 'offer' as const,
    data: { offer: { supplier: 'x', pad: big } },
  }));
  await append('p3', events);
  const notifier = new LocalNotifier();
  const timers = manualTimers();
  const d = deps(notifier, timers);
  const slow = recorder();
  const realWrite = slow.write;
  // Nothing the client takes: every byte stays buffered.
  slow.write = (bytes: Uint8Array) => {
    realWrite(bytes);
    slow.buffered += bytes.byteLength;
  };
  eventStream(d, { id: 'p3' }, 0, NAMES)[SSE_PUSH](slow);
  await slow.wrote(1);
  // Two events take it past the bound: it stops there, whatever else the feed holds.
  expect(slow.text.match(/^id: \d+$/gm)).toEqual(['id: 1', 'id: 2']);
  // Drained, it goes on from its place (events 3 and 4) until past the bound again.
  slow.drain();
  expect(slow.text.match(/^id: \d+$/gm)).toEqual(['id: 1', 'id: 2', 'id: 3', 'id: 4']);
  const writes = slow.writes;
  timers.fire(15_000); // behind at this tick: no heartbeat, not cut yet
  expect(slow.writes).toBe(writes);
  expect(feedSubscribers(notifier, 'p3')).toBe(1);
  // One drain listener however often it paused.
  expect(slow.drains.length).toBe(1);
  timers.fire(15_000); // still behind a whole interval later
  expect(await slow.ended).toBe('cut');
  expect(feedSubscribers(notifier, 'p3')).toBe(0);
  expect(activeFeeds(notifier)).toBe(0);
});

it('a burst past MAX_UNREAD_BYTES that the socket takes whole on uncork goes on without waiting for a drain', async () => {
  await session('p7');
  const big = 'x'.repeat(MAX_UNREAD_BYTES / 2);
  await append(
    'p7',
    Array.from({ length: 6 }, (_, i) => ({
      seq: i + 1,
      event: 'offer' as const,
      data: { offer: { supplier: 'x', pad: big } },
    })),
  );
  const notifier = new LocalNotifier();
  const d = deps(notifier, manualTimers());
  const fast = recorder();
  const realWrite = fast.write;
  fast.write = (bytes: Uint8Array) => {
    realWrite(bytes);
    fast.buffered += bytes.byteLength;
  };
  fast.onUncork = () => {
    fast.buffered = 0;
  };
  eventStream(d, { id: 'p7' }, 0, NAMES)[SSE_PUSH](fast);
  await fast.wrote(3);
  // Two events per pass (the second takes it past the bound), each pass one piece the socket takes whole.
  expect(fast.text.match(/^id: \d+$/gm)).toEqual(['id: 1', 'id: 2', 'id: 3', 'id: 4', 'id: 5', 'id: 6']);
  expect(fast.bursts).toEqual([1, 1, 1]);
  expect(fast.drains.length).toBe(1);
  expect(feedSubscribers(notifier, 'p7')).toBe(1);
});

/** `serve()` around a kernel whose one route is the offer stream of `id` (the node path: push). */
async function streamServer(d: ReaderDeps, id: string, onStream?: (t: Parameters<typeof runSse>[1]) => void) {
  let open = 0;
  const closes: (() => void)[] = [];
  const kernel = {
    handle: async () => new Response(null, { status: 500 }),
    dispatch: async () => ({
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
      stream: (t: Parameters<typeof runSse>[1]) => {
        open++;
        onStream?.(t);
        return runSse(eventStream(d, { id }, 0, NAMES), t, {
          onClose: () => {
            open--;
            for (const c of closes.splice(0)) c();
          },
        });
      },
    }),
    operations: [],
    unimplemented: [],
    inFlight: () => open,
    shutdown() {},
    shuttingDown: new AbortController().signal,
  } satisfies Kernel;
  const server = await serve(kernel, { port: 0, host: '127.0.0.1' });
  return {
    server,
    open: () => open,
    closed: () => new Promise<void>((r) => closes.push(r)),
  };
}

it('a client that goes away over a real socket frees its stream: no subscriber, no feed, nothing in flight', async () => {
  await session('p4');
  await append('p4', [offer(1)]);
  const notifier = new LocalNotifier();
  const d = deps(notifier, manualTimers());
  const { server, open, closed } = await streamServer(d, 'p4');
  const gone = closed();
  try {
    const first = await new Promise<string>((resolve, reject) => {
      const req = request(`${server.url}/s`, (res) => {
        res.setEncoding('utf8');
        res.once('data', (chunk: string) => {
          resolve(chunk);
          req.destroy();
        });
      });
      req.on('error', () => {});
      req.once('error', reject);
      req.end();
    });
    expect(first).toContain('id: 1\nevent: offer');
    await gone;
    expect(open()).toBe(0);
    expect(feedSubscribers(notifier, 'p4')).toBe(0);
    expect(activeFeeds(notifier)).toBe(0);
  } finally {
    await server.close(1000);
  }
});

it('over a real socket, a burst that ends with done arrives whole, then the response ends', async () => {
  await session('p8');
  await append('p8', [offer(1), offer(2), { seq: 3, event: 'done', data: { status: 'completed' } }]);
  const d = deps(new LocalNotifier(), manualTimers());
  const { server, open } = await streamServer(d, 'p8');
  try {
    const text = await (await fetch(`${server.url}/s`)).text();
    expect(text.match(/^id: \d+$/gm)).toEqual(['id: 1', 'id: 2', 'id: 3']);
    expect(text.endsWith('event: done\ndata: {"status":"completed"}\n\n')).toBe(true);
    expect(open()).toBe(0);
  } finally {
    await server.close(1000);
  }
});

/**
 * Counts the writes handed to the socket's handle (each one a write or writev syscall) from now on: the
 * transport's response's socket, the headers already sent.
 */
function countSocketWrites(t: Parameters<typeof runSse>[1]): { count: number } {
  const n = { count: 0 };
  const { res } = t as unknown as { res: ServerResponse };
  const handle = (res.socket as unknown as { _handle: Record<string, unknown> })._handle;
  for (const name of ['writev', 'writeBuffer', 'writeLatin1String', 'writeUtf8String', 'writeAsciiString']) {
    const real = handle[name] as (...args: unknown[]) => unknown;
    handle[name] = function (this: unknown, ...args: unknown[]) {
      n.count++;
      return real.apply(this, args);
    };
  }
  return n;
}

it('over a real socket, each pass leaves in one write to the socket: the events, their chunk framing, and the end with the last', async () => {
  await session('p9');
  await append('p9', [offer(1), offer(2)]);
  const notifier = new LocalNotifier();
  const d = deps(notifier, manualTimers());
  let writes: { count: number } | undefined;
  const { server } = await streamServer(d, 'p9', (t) => {
    writes = countSocketWrites(t);
  });
  try {
    let text = '';
    let caughtUp: () => void = () => {};
    const caught = new Promise<void>((r) => {
      caughtUp = r;
    });
    const ended = new Promise<void>((resolve, reject) => {
      const req = request(`${server.url}/s`, (res) => {
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
          if (text.includes('id: 2\n')) caughtUp();
        });
        res.on('end', resolve);
      });
      req.once('error', reject);
      req.end();
    });
    await caught;
    expect(writes?.count).toBe(1);
    await append('p9', [
      { seq: 3, event: 'supplier_done', data: { supplier: 'x', status: 'completed' } },
      { seq: 4, event: 'done', data: { status: 'completed', total_offers: 2 } },
    ]);
    await notifier.publish('p9');
    await ended;
    expect(text.match(/^id: \d+$/gm)).toEqual(['id: 1', 'id: 2', 'id: 3', 'id: 4']);
    expect(writes?.count).toBe(2);
  } finally {
    await server.close(1000);
  }
});

it("a stream's session is read once per search however many readers attach, and each caller is still checked", async () => {
  await session('p5', { user: 'owner' });
  await session('p6', { user: 'owner', expires: new Date(clock.now().getTime() - 1) });
  let reads = 0;
  const db = database.db.withPlugin({
    transformQuery: (args) => {
      if (args.node.kind === 'SelectQueryNode') reads++;
      return args.node;
    },
    transformResult: async (args) => args.result,
  });
  const d: ReaderDeps = { ...deps(new LocalNotifier(), manualTimers()), db };
  const owner = { userId: 'owner', companyId: null, role: 'customer' as const };
  const other = { userId: 'someone-else', companyId: null, role: 'customer' as const };
  const got = await Promise.all(
    Array.from({ length: 20 }, () => streamableSession(d, 'p5', owner, 'flight')),
  );
  expect(got.every((s) => s.id === 'p5')).toBe(true);
  await streamableSession(d, 'p5', owner, 'flight');
  expect(reads).toBe(1);
  await expect(streamableSession(d, 'p5', other, 'flight')).rejects.toMatchObject({ status: 404 });
  await expect(streamableSession(d, 'p5', owner, 'hotel')).rejects.toMatchObject({ status: 404 });
  await expect(streamableSession(d, 'p6', owner, 'flight')).rejects.toMatchObject({ status: 410 });
  // An unknown id is not remembered: it is read again (it may be a search made since).
  await expect(streamableSession(d, 'nope', owner, 'flight')).rejects.toMatchObject({ status: 404 });
  await expect(streamableSession(d, 'nope', owner, 'flight')).rejects.toMatchObject({ status: 404 });
  expect(reads).toBe(4);
});

it('readers attaching while the log is written and read each get every event once, in order, the same bytes', async () => {
  await session('w1');
  await append('w1', [offer(1)]);
  const notifier = new LocalNotifier();
  const d = deps(notifier, manualTimers());
  const early = recorder();
  eventStream(d, { id: 'w1' }, 0, NAMES)[SSE_PUSH](early);
  await early.wrote(1);
  // Two more committed; a wake-up without the events (as from another process) starts a read of the log.
  await append('w1', [offer(2), offer(3)]);
  void notifier.publish('w1');
  // Two readers attach in the same turn, while that read is on its way.
  const during = recorder();
  const twin = recorder();
  eventStream(d, { id: 'w1' }, 0, NAMES)[SSE_PUSH](during);
  eventStream(d, { id: 'w1' }, 0, NAMES)[SSE_PUSH](twin);
  // This process commits the next event and hands it over, the read perhaps still on its way.
  await append('w1', [offer(4)]);
  void notifier.publish('w1', { events: [offer(4)] });
  const resumed = recorder();
  eventStream(d, { id: 'w1' }, 2, NAMES)[SSE_PUSH](resumed);
  const done = { seq: 5, event: 'done' as const, data: { status: 'completed', total_offers: 4 } };
  await append('w1', [done]);
  void notifier.publish('w1', { events: [done] });
  for (const r of [early, during, twin, resumed]) expect(await r.ended).toBe('end');
  const ids = (r: { text: string }) => [...r.text.matchAll(/^id: (\d+)$/gm)].map((m) => Number(m[1]));
  expect(ids(early)).toEqual([1, 2, 3, 4, 5]);
  expect(ids(during)).toEqual([1, 2, 3, 4, 5]);
  expect(ids(resumed)).toEqual([3, 4, 5]);
  // The same replay, to the byte.
  expect(twin.text).toBe(during.text);
  expect(during.text).toBe(early.text);
  expect(activeFeeds(notifier)).toBe(0);
});

it("a finished search's log stays in memory after its last reader left: later readers read the table no more; a live search's is read again", async () => {
  await session('f1');
  await session('f2');
  const done = { seq: 2, event: 'done' as const, data: { status: 'completed', total_offers: 1 } };
  await append('f1', [offer(1), done]);
  await append('f2', [offer(1)]);
  let reads = 0;
  const db = database.db.withPlugin({
    transformQuery: (args) => {
      if (args.node.kind === 'SelectQueryNode') reads++;
      return args.node;
    },
    transformResult: async (args) => args.result,
  });
  const notifier = new LocalNotifier();
  const d: ReaderDeps = { ...deps(notifier, manualTimers()), db };
  const first = recorder();
  eventStream(d, { id: 'f1' }, 0, NAMES)[SSE_PUSH](first);
  expect(await first.ended).toBe('end');
  expect(reads).toBe(1);
  // Many at once, then one after another, each the whole log and done.
  const burst = Array.from({ length: 20 }, () => recorder());
  for (const r of burst) eventStream(d, { id: 'f1' }, 0, NAMES)[SSE_PUSH](r);
  for (const r of burst) expect(await r.ended).toBe('end');
  for (let i = 0; i < 5; i++) {
    const r = recorder();
    eventStream(d, { id: 'f1' }, 0, NAMES)[SSE_PUSH](r);
    expect(await r.ended).toBe('end');
    burst.push(r);
  }
  for (const r of burst) expect(r.text).toBe(first.text);
  expect(reads).toBe(1);
  expect(activeFeeds(notifier)).toBe(0);
  // A live search's log may grow once nobody follows it: the next reader reads it again.
  const live = recorder();
  const handle = eventStream(d, { id: 'f2' }, 0, NAMES)[SSE_PUSH](live);
  await live.wrote(1);
  handle.stop();
  expect(activeFeeds(notifier)).toBe(0);
  const again = recorder();
  const second = eventStream(d, { id: 'f2' }, 0, NAMES)[SSE_PUSH](again);
  await again.wrote(1);
  expect(reads).toBe(3);
  second.stop();
});
