/**
 * The Server-Sent Events line grammar (WHATWG HTML, "interpreting an event stream"), small enough to
 * live in the SDK's core: it replaced the bundled `eventsource-parser` (4.3 KB minified of 13 KB) and
 * `test/sse-parser.test.ts` checks it against that parser on the same bytes cut at every position.
 *
 * Lines end at CRLF, LF or CR (a CR that ends one chunk may be half of a CRLF); one leading BOM is
 * dropped; `:` starts a comment; `field: value` loses one leading space; an empty line dispatches the
 * event when it had a `data` line. `id` is the event's own `id:` field (undefined when it had none), as
 * `eventsource-parser` reports it: the stream keeps the last one itself, for `Last-Event-ID`.
 */

/** One dispatched event. */
export interface SseMessage {
  id: string | undefined;
  /** Undefined when the event named none (the SSE default is `message`). */
  event: string | undefined;
  /** The `data` lines joined with `\n`. */
  data: string;
}

/**
 * A parser: feed it decoded text in chunks of any size; it calls `onEvent` per event and `onRetry` for a
 * valid `retry:` (milliseconds).
 *
 * @example
 * const feed = createSseParser((m) => console.log(m.event, m.data), () => {});
 * feed('event: offer\ndata: {"a":1}\n\n'); // offer {"a":1}
 */
export function createSseParser(
  onEvent: (message: SseMessage) => void,
  onRetry: (ms: number) => void,
): (chunk: string) => void {
  let rest = '';
  let bom = true;
  let skipLf = false;
  let id: string | undefined;
  let event: string | undefined;
  let data: string | undefined;
  const line = (text: string) => {
    if (text === '') {
      if (data !== undefined) onEvent({ id, event, data });
      id = event = data = undefined;
      return;
    }
    const colon = text.indexOf(':');
    if (colon === 0) return;
    const field = colon < 0 ? text : text.slice(0, colon);
    const value = colon < 0 ? '' : text.slice(text[colon + 1] === ' ' ? colon + 2 : colon + 1);
    if (field === 'data') data = data === undefined ? value : `${data}\n${value}`;
    else if (field === 'event') event = value || undefined;
    else if (field === 'id') id = value.includes('\0') ? id : value;
    else if (field === 'retry' && /^\d+$/.test(value)) onRetry(Number(value));
  };
  return (chunk) => {
    if (!chunk) return;
    let text = rest + (skipLf && chunk[0] === '\n' ? chunk.slice(1) : chunk);
    if (bom && text) {
      bom = false;
      if (text[0] === '\uFEFF') text = text.slice(1);
    }
    const lines = text.split(/\r\n|\r|\n/);
    rest = lines.pop() ?? '';
    skipLf = text.endsWith('\r');
    for (const l of lines) line(l);
  };
}
