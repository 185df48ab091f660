/**
 * `GET /api/v1/events` (cursor pages, filters, tenancy) and `GET /api/v1/events/stream` (live, resume
 * with Last-Event-ID, one reader for every stream of the process) on the whole server (createRuntime).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EventType, record } from '../../src/events/record.ts';
import { type Journeys, journeys } from '../journeys/world.ts';

let j: Journeys;
let a: { id: number };
let b: { id: number };
let staffA: string;
let staffB: string;

beforeAll(async () => {
  j = await journeys();
  a = await j.company();
  b = await j.company();
  staffA = (await j.user('company_staff', a.id)).token;
  staffB = (await j.user('company_staff', b.id)).token;
});
afterAll(() => j?.close());

/** Commits one event of `company` (as a domain does, in its own transaction). */
async function emit(company: number, type: EventType, id: number, status = 'confirmed') {
  return j.database.db.transaction().execute((trx) =>
    record(trx, {
      type,
      companyId: company,
      resource: { type: 'booking', id, data: { booking_id: id, status } },
    }),
  );
}

/**
 * Waits (bounded) until `id` is listed: an event is visible once every transaction that started before
 * its own has finished, and on a shared PostgreSQL server other sessions' transactions count too.
 */
async function visible(token: string, id: string, ms = 30_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const r = await j.req('GET', '/api/v1/events?limit=100', { token });
    if (r.body.data.some((e: { id: string }) => e.id === id)) return;
    if (Date.now() > deadline) throw new Error(`event ${id} never became visible`);
    await new Promise((res) => setTimeout(res, 20));
  }
}

/** An open event stream read message by message. */
async function open(token: string, query = '', lastEventId?: string) {
  const ac = new AbortController();
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (lastEventId) headers['last-event-id'] = lastEventId;
  const res = await j.runtime.app.handle(
    new Request(`http://travel.test/api/v1/events/stream${query}`, { headers, signal: ac.signal }),
  );
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buf = '';
  return {
    /** The next `event` message (heartbeats skipped), or a failure after `ms`. */
    async next(
      ms = 25_000,
    ): Promise<{ id: string; data: { id: string; type: string; resource: { id: string } } }> {
      const deadline = Date.now() + ms;
      for (;;) {
        const end = buf.indexOf('\n\n');
        if (end >= 0) {
          const block = buf.slice(0, end);
          buf = buf.slice(end + 2);
          const field = (n: string) =>
            block
              .split('\n')
              .filter((l) => l.startsWith(`${n}: `))
              .map((l) => l.slice(n.length + 2))
              .join('\n');
          if (field('event') !== 'event') continue;
          return { id: field('id'), data: JSON.parse(field('data')) };
        }
        const left = deadline - Date.now();
        if (left <= 0) throw new Error('no event in time');
        const chunk = await Promise.race([
          reader.read(),
          new Promise<never>((_, rej) => setTimeout(() => rej(new Error('no event in time')), left).unref()),
        ]);
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

describe('GET /api/v1/events', () => {
  it('pages the company’s events oldest first with starting_after; filters; never another company’s', async () => {
    const mine = [];
    for (let i = 0; i < 5; i++)
      mine.push(await emit(a.id, i % 2 ? 'booking.cancelled' : 'booking.created', 1000 + i));
    const theirs = await emit(b.id, 'booking.created', 2000);
    await visible(staffA, mine[4] as string);
    await visible(staffB, theirs);
    const p1 = await j.req('GET', '/api/v1/events?limit=2', { token: staffA });
    expect(p1.status).toBe(200);
    expect(p1.body.data.map((e: { id: string }) => e.id)).toEqual(mine.slice(0, 2));
    expect(p1.body.has_more).toBe(true);
    expect(p1.body.data[0]).toMatchObject({
      object: 'event',
      type: 'booking.created',
      company_id: a.id,
      resource: { type: 'booking', id: '1000', version: 1 },
      data: { booking_id: 1000, status: 'confirmed' },
    });
    const p2 = await j.req('GET', `/api/v1/events?limit=10&starting_after=${mine[1]}`, { token: staffA });
    expect(p2.body.data.map((e: { id: string }) => e.id)).toEqual(mine.slice(2));
    expect(p2.body.has_more).toBe(false);
    const typed = await j.req('GET', '/api/v1/events?type=booking.cancelled', { token: staffA });
    expect(typed.body.data.map((e: { id: string }) => e.id)).toEqual([mine[1], mine[3]]);
    const one = await j.req('GET', '/api/v1/events?resource_type=booking&resource_id=1002', {
      token: staffA,
    });
    expect(one.body.data.map((e: { id: string }) => e.id)).toEqual([mine[2]]);
    // Another company's event id is not a cursor here: as if it did not exist.
    const foreign = await j.req('GET', `/api/v1/events?starting_after=${theirs}`, { token: staffA });
    expect([foreign.status, foreign.body.code]).toEqual([400, 'event_not_found']);
    const bad = await j.req('GET', '/api/v1/events?type=booking.nope', { token: staffA });
    expect([bad.status, bad.body.code]).toEqual([400, 'invalid_event_type']);
    const b1 = await j.req('GET', '/api/v1/events', { token: staffB });
    expect(b1.body.data.map((e: { id: string }) => e.id)).toEqual([theirs]);
    const customer = await j.user('customer', null);
    expect((await j.req('GET', '/api/v1/events', { token: customer.token })).status).toBe(403);
    expect(j.violations).toEqual([]);
  });
});

describe('GET /api/v1/events/stream', () => {
  it('streams new events live to each company’s streams, one reader for all of them, and resumes with Last-Event-ID', {
    timeout: 90_000,
  }, async () => {
    const streams = await Promise.all(Array.from({ length: 20 }, () => open(staffA)));
    const other = await open(staffB);
    const filtered = await open(staffA, '?type=booking.cancelled');
    const first = await emit(a.id, 'booking.created', 3000);
    await emit(b.id, 'booking.created', 3001);
    const second = await emit(a.id, 'booking.cancelled', 3000, 'cancelled');
    for (const s of streams) {
      expect((await s.next()).id).toBe(first);
      expect((await s.next()).id).toBe(second);
    }
    expect((await filtered.next()).data).toMatchObject({ id: second, type: 'booking.cancelled' });
    expect((await other.next()).data.resource.id).toBe('3001');
    // 22 streams, one reader: a poll is one read of the table, whatever the number of streams.
    expect(j.runtime.feed.subscribers).toBe(22);
    const before = j.runtime.feed.reads;
    await j.runtime.feed.poll();
    expect(j.runtime.feed.reads - before).toBeLessThanOrEqual(1);
    for (const s of [...streams, other, filtered]) s.close();

    // Resume: a stream reconnecting after `first` gets what it missed, then the live ones, once each.
    const missed = await emit(a.id, 'booking.created', 3002);
    const resumed = await open(staffA, '', first);
    expect((await resumed.next()).id).toBe(second);
    expect((await resumed.next()).id).toBe(missed);
    const live = await emit(a.id, 'booking.cancelled', 3002, 'cancelled');
    expect((await resumed.next()).id).toBe(live);
    resumed.close();
  });
});
