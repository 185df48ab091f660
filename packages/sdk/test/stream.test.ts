import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { ConnectionError, NotFoundError } from '../src/index.ts';
import { BASE, collect, frame, sseResponse, testClient, useMsw } from './helpers.ts';

const server = useMsw();
const STREAM = `${BASE}/api/v1/flight/getFare/stream/:id`;

describe('search streams', () => {
  it('resumes a stream cut mid-way with Last-Event-ID, without loss or duplicates, honouring retry:', async () => {
    const lastEventIds: (string | null)[] = [];
    server.use(
      http.get(STREAM, ({ request }) => {
        lastEventIds.push(request.headers.get('last-event-id'));
        if (lastEventIds.length === 1) {
          // First connection: retry hint, two offers, then the connection closes before `done`.
          return sseResponse([
            'retry: 1500\n\n',
            frame('offer', { offer_id: 'o1' }, '1'),
            frame('offer', { offer_id: 'o2' }, '2'),
          ]);
        }
        // The server replays the last one (overlap); the client must not yield it twice.
        return sseResponse([
          frame('offer', { offer_id: 'o2' }, '2'),
          frame('offer', { offer_id: 'o3' }, '3'),
          frame('done', { status: 'completed' }, '4'),
        ]);
      }),
    );
    const { client, sleeps } = testClient();
    const events = await collect(client.flights.resume('s1').stream());
    expect(events.map((e) => [e.id, e.event])).toEqual([
      ['1', 'offer'],
      ['2', 'offer'],
      ['3', 'offer'],
      ['4', 'done'],
    ]);
    expect(lastEventIds).toEqual([null, '2']);
    expect(sleeps).toEqual([1500]);
  });

  it('treats a broken connection (network error mid-body) as a drop too', async () => {
    // Injected fetch rather than MSW: the interceptor buffers a body that errors, hiding the partial chunk.
    let calls = 0;
    const fetch = async () => {
      calls++;
      return calls === 1
        ? sseResponse([frame('offer', { offer_id: 'o1' }, '1')], 'error')
        : sseResponse([frame('done', { status: 'completed' }, '2')]);
    };
    const { client } = testClient({ fetch });
    const events = await collect(client.flights.resume('s1').stream());
    expect(events.map((e) => e.id)).toEqual(['1', '2']);
    expect(calls).toBe(2);
  });

  it('skips heartbeats and ends on done even if more bytes follow', async () => {
    server.use(
      http.get(STREAM, () =>
        sseResponse([
          frame('heartbeat', {}),
          frame('offer', { offer_id: 'o1' }, '1'),
          frame('done', {}, '2'),
          frame('offer', {}, '3'),
        ]),
      ),
    );
    const { client } = testClient();
    const events = await collect(client.flights.resume('s1').stream());
    expect(events.map((e) => e.event)).toEqual(['offer', 'done']);
  });

  it('offers() collects every offer until done', async () => {
    server.use(
      http.get(STREAM, () =>
        sseResponse([
          frame('offer', { offer: { offer_id: 'a' } }, '1'),
          frame('offer', { offer: { offer_id: 'b' } }, '2'),
          frame('done', {}, '3'),
        ]),
      ),
    );
    const { client } = testClient();
    expect(await client.flights.resume('s1').offers()).toEqual([{ offer_id: 'a' }, { offer_id: 'b' }]);
  });

  it('gives up with ConnectionError after maxReconnects drops without progress', async () => {
    server.use(http.get(STREAM, () => sseResponse([])));
    const { client, sleeps } = testClient();
    await expect(collect(client.flights.resume('s1').stream({ maxReconnects: 2 }))).rejects.toBeInstanceOf(
      ConnectionError,
    );
    expect(sleeps).toEqual([1000, 2000]);
  });

  it('maps 410 on an expired search to NotFoundError with the code', async () => {
    server.use(
      http.get(STREAM, () =>
        HttpResponse.json({ detail: 'expired', code: 'search_expired', request_id: 'r1' }, { status: 410 }),
      ),
    );
    const { client } = testClient();
    const error = await collect(client.flights.resume('s1').stream()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 410, code: 'search_expired', requestId: 'r1' });
  });

  it('stops when the caller aborts', async () => {
    server.use(http.get(STREAM, () => sseResponse([frame('offer', { offer_id: 'a' }, '1')])));
    const { client } = testClient();
    const controller = new AbortController();
    const seen: string[] = [];
    const run = (async () => {
      for await (const event of client.flights.resume('s1').stream({ signal: controller.signal })) {
        seen.push(event.event);
        controller.abort();
      }
    })();
    await expect(run).rejects.toThrow();
    expect(seen).toEqual(['offer']);
  });
});
