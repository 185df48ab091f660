/**
 * The SDK's own SSE parser against `eventsource-parser` (which it replaced in the bundle; still a dev
 * dependency, as the reference): the same text, whole, cut in two at every position and cut in tiny
 * pieces, must give the same events and `retry:` values.
 */
import { createParser } from 'eventsource-parser';
import { describe, expect, it } from 'vitest';
import { createSseParser, type SseMessage } from '../src/core/sse-parser.ts';

type Seen = (SseMessage | { retry: number })[];

function ours(chunks: string[]): Seen {
  const seen: Seen = [];
  const feed = createSseParser(
    (m) => seen.push(m),
    (retry) => seen.push({ retry }),
  );
  for (const chunk of chunks) feed(chunk);
  return seen;
}

function reference(chunks: string[]): Seen {
  const seen: Seen = [];
  const parser = createParser({
    onEvent: (m) => seen.push({ id: m.id, event: m.event, data: m.data }),
    onRetry: (retry) => seen.push({ retry }),
  });
  for (const chunk of chunks) parser.feed(chunk);
  return seen;
}

const STREAMS: Record<string, string> = {
  'frames as the server writes them':
    'retry: 1500\n\nid: 1\nevent: offer\ndata: {"offer_id":"o1"}\n\nevent: heartbeat\ndata: {}\n\nid: 2\nevent: done\ndata: {"status":"completed"}\n\n',
  'CRLF line ends': 'id: 7\r\nevent: offer\r\ndata: a\r\n\r\ndata: b\r\n\r\n',
  'CR line ends': 'event: offer\rdata: a\r\rdata: b\r\r',
  'mixed line ends': 'data: a\r\ndata: b\rdata: c\n\r\ndata: d\n\n',
  'multi-line data, empty data, data without a colon': 'data: one\ndata:two\ndata\ndata:\n\ndata:\n\n',
  'comments, unknown fields, a field without a space': ': keep-alive\nfoo: bar\nevent:x\ndata:y\n:\n\n',
  'retry that is not digits, then a valid one': 'retry: soon\nretry: 12a\nretry:250\ndata: r\n\n',
  'an id with NUL is ignored; an empty id is an id':
    'id: 1\ndata: a\n\nid: 2\u0000\ndata: b\n\nid:\ndata: c\n\n',
  'a block without data dispatches nothing': 'id: 9\nevent: offer\n\ndata: after\n\n',
  'an empty event name is the default': 'event: x\nevent:\ndata: d\n\n',
  'a leading BOM': '\uFEFFdata: bom\n\n',
  'spaces are kept after the first one': 'data:   padded  \n\nevent:  two\ndata: t\n\n',
  'unicode in data': 'data: Zürich → 東京 🛫\n\n',
  'an unfinished last event is not dispatched': 'data: whole\n\ndata: cut',
};

/** Deterministic tiny pieces (1-3 characters). */
function pieces(text: string, seed: number): string[] {
  const out: string[] = [];
  let state = seed;
  for (let i = 0; i < text.length; ) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    const size = 1 + (state % 3);
    out.push(text.slice(i, i + size));
    i += size;
  }
  return out;
}

describe('SSE parser', () => {
  for (const [name, text] of Object.entries(STREAMS)) {
    it(`matches eventsource-parser: ${name}`, () => {
      const expected = reference([text]);
      expect(ours([text])).toEqual(expected);
      for (let cut = 0; cut <= text.length; cut++) {
        const chunks = [text.slice(0, cut), text.slice(cut)];
        expect(ours(chunks), `cut at ${cut}`).toEqual(reference(chunks));
      }
      for (let seed = 1; seed <= 20; seed++) expect(ours(pieces(text, seed))).toEqual(expected);
    });
  }

  it('reads the server’s frames as events with their ids, names and retry', () => {
    expect(ours([STREAMS['frames as the server writes them'] as string])).toEqual([
      { retry: 1500 },
      { id: '1', event: 'offer', data: '{"offer_id":"o1"}' },
      { id: undefined, event: 'heartbeat', data: '{}' },
      { id: '2', event: 'done', data: '{"status":"completed"}' },
    ]);
  });

  it('takes a CR that ends one chunk and an LF that starts the next as one line end', () => {
    expect(ours(['data: a\r', '\n', '\r', '\ndata: b\r', '\r'])).toEqual([
      { id: undefined, event: undefined, data: 'a' },
      { id: undefined, event: undefined, data: 'b' },
    ]);
  });
});
