/** The kernel's stream writer on its own: back-pressure, shutdown, failure and the client going away. */
import { expect, it } from 'vitest';
import { MAX_UNREAD_BYTES, runSse, type SseTransport, sseStream } from '../../src/kernel/sse.ts';
import type { SseMessage } from '../../src/kernel/types.ts';

function transport() {
  const drains: (() => void)[] = [];
  const t = {
    text: '',
    buffered: 0,
    ended: false,
    destroyed: false,
    write(bytes: Uint8Array) {
      t.text += new TextDecoder().decode(bytes);
      t.buffered += bytes.byteLength;
    },
    cork() {},
    uncork() {},
    onDrain: (fn: () => void) => void drains.push(fn),
    drain() {
      t.buffered = 0;
      for (const fn of drains.splice(0)) fn();
    },
    end() {
      t.ended = true;
    },
    destroy() {
      t.destroyed = true;
    },
  };
  return t satisfies SseTransport & Record<string, unknown>;
}

/** One turn of the event loop: every pending promise reaction has run (no clock involved). */
const turn = () => new Promise<void>((r) => setImmediate(r));

it('an iterated source is not pulled while its client has more than MAX_UNREAD_BYTES unread; a drain lets it go on', async () => {
  let pulled = 0;
  async function* source(): AsyncGenerator<SseMessage> {
    for (let i = 1; i <= 3; i++) {
      pulled = i;
      yield { id: String(i), data: 'x'.repeat(MAX_UNREAD_BYTES) };
    }
  }
  const t = transport();
  let closed = 0;
  runSse(source(), t, { onClose: () => closed++ });
  for (let n = 1; n <= 3; n++) {
    await turn();
    // Message n is past the bound: the next one is not asked for until the client drains.
    expect(pulled).toBe(n);
    expect(t.text.match(/^id: \d+$/gm)?.length).toBe(n);
    expect(t.ended).toBe(false);
    t.drain();
  }
  await turn();
  expect(t.ended).toBe(true);
  expect(t.text.match(/^id: \d+$/gm)).toEqual(['id: 1', 'id: 2', 'id: 3']);
  expect(closed).toBe(1);
});

it('the web form ends with the shutdown event on shutdown', async () => {
  async function* source(): AsyncGenerator<SseMessage> {
    yield { id: '1', event: 'offer', data: { n: 1 } };
    await new Promise(() => {});
  }
  const shutdown = new AbortController();
  let closed = 0;
  const body = sseStream(source(), {
    signal: new AbortController().signal,
    shutdown: shutdown.signal,
    onClose: () => closed++,
  });
  const reader = body.getReader();
  const first = new TextDecoder().decode((await reader.read()).value);
  expect(first).toBe('id: 1\nevent: offer\ndata: {"n":1}\n\n');
  shutdown.abort();
  let rest = '';
  for (let r = await reader.read(); !r.done; r = await reader.read())
    rest += new TextDecoder().decode(r.value);
  expect(rest).toBe('event: shutdown\nretry: 1000\ndata: {"reason":"server_shutdown","reconnect":true}\n\n');
  expect(closed).toBe(1);
});

it('a failing source is reported in-band with an error event, then the stream ends', async () => {
  async function* source(): AsyncGenerator<SseMessage> {
    yield { id: '1', data: 'a' };
    throw new Error('log unreadable');
  }
  const errors: unknown[] = [];
  const body = sseStream(source(), {
    signal: new AbortController().signal,
    shutdown: new AbortController().signal,
    onError: (err) => errors.push(err),
  });
  const text = await new Response(body).text();
  expect(text).toBe('id: 1\ndata: a\n\nevent: error\ndata: {"code":"internal_error"}\n\n');
  expect((errors[0] as Error).message).toBe('log unreadable');
});
