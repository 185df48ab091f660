import type { SseMessage } from './types.ts';

const encoder = new TextEncoder();
const BYTES = Symbol('sse bytes');
type Shared = SseMessage & { [BYTES]?: Uint8Array | null };

/**
 * Marks a message that many streams send (one search's readers): its bytes are made by the first stream
 * that sends it and reused by the others. Other messages are encoded per send and never remembered.
 */
export function sharedSseMessage(m: SseMessage): SseMessage {
  (m as Shared)[BYTES] = null;
  return m;
}

function encode(m: SseMessage): Uint8Array {
  const cached = (m as Shared)[BYTES];
  if (cached === undefined) return encoder.encode(formatSse(m));
  if (cached !== null) return cached;
  const bytes = encoder.encode(formatSse(m));
  (m as Shared)[BYTES] = bytes;
  return bytes;
}

/** One message in the `text/event-stream` wire format. Multi-line data is split over `data:` lines. */
export function formatSse(m: SseMessage): string {
  let out = '';
  if (m.id !== undefined) out += `id: ${String(m.id).replace(/[\r\n]/g, '')}\n`;
  if (m.event) out += `event: ${m.event.replace(/[\r\n]/g, '')}\n`;
  if (m.retry !== undefined) out += `retry: ${Math.max(0, Math.floor(m.retry))}\n`;
  const data = typeof m.data === 'string' ? m.data : JSON.stringify(m.data);
  for (const line of data.split(/\r\n|\r|\n/)) out += `data: ${line}\n`;
  return `${out}\n`;
}

export const SSE_HEADERS: Record<string, string> = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-store, no-transform',
  'x-accel-buffering': 'no',
};

/**
 * How many bytes a stream may have written and its client not yet taken. Past it the stream stops
 * writing (an iterator source is not pulled; a push source pauses, keeping its place) until the client
 * drains; a push source cuts a client that stays past it for a whole heartbeat interval (the client
 * resumes with Last-Event-ID). So a slow reader holds at most this much (plus one message) in memory.
 */
export const MAX_UNREAD_BYTES = 64 * 1024;

/** Where a stream's bytes go: the node response (node-adapter) or a web `ReadableStream` (`handle`). */
export interface SseTransport {
  write(bytes: Uint8Array): void;
  /** Holds writes until the matching `uncork`, then sends them at once (one syscall for a burst). */
  cork(): void;
  uncork(): void;
  /** Bytes written and not yet taken by the client. */
  readonly buffered: number;
  /** Calls `fn` once when `buffered` has dropped (never if the client goes away first). */
  onDrain(fn: () => void): void;
  /** Ends the response after what was written; called while corked, what is held leaves with the end. */
  end(): void;
  /** Drops the connection at once. */
  destroy(): void;
}

/**
 * What a push source writes to: the transport's writes (a burst between `cork` and `uncork` leaves
 * together; every `cork` needs its `uncork`), plus how its stream ends.
 */
export interface SseWriter extends Pick<SseTransport, 'write' | 'cork' | 'uncork' | 'buffered' | 'onDrain'> {
  /** The source has sent its last message. */
  end(): void;
  /** The source failed: reported in-band, then the stream ends. */
  fail(err: unknown): void;
  /** The client is too slow: the connection is dropped. */
  cut(): void;
}

/** Marks an `sse` iterable that can also write its messages itself (see `PushSource`). */
export const SSE_PUSH: unique symbol = Symbol('sse push');

/**
 * An `sse` result that writes already-encoded messages straight to its writer, without an iterator, a
 * promise or a timer per stream: one search's readers are written by its feed. It is still an
 * `AsyncIterable` (the web `handle` path and tests iterate it). It returns how to stop writing (`stop`: the
 * client went away, or the server is shutting down); after `end`, `fail` or `cut` it must not write again.
 */
export interface PushSource {
  [SSE_PUSH](writer: SseWriter): { stop(): void };
}

const isPush = (s: unknown): s is PushSource => typeof (s as Partial<PushSource>)[SSE_PUSH] === 'function';

/** An open stream, as the kernel holds it. */
export interface SseRun {
  /** The client went away: stop, write nothing. */
  closed(): void;
  /** The server is shutting down: the final `shutdown` event, then the end. */
  shutdown(): void;
  readonly finished: boolean;
}

/** The bytes of a message: shared messages (`sharedSseMessage`) are encoded once for every stream. */
export function sseBytes(m: SseMessage): Uint8Array {
  return encode(m);
}

const SHUTDOWN = encoder.encode(
  formatSse({ event: 'shutdown', data: { reason: 'server_shutdown', reconnect: true }, retry: 1000 }),
);
const FAILED = encoder.encode(formatSse({ event: 'error', data: { code: 'internal_error' } }));

/**
 * Writes the handler's messages to `t` as they come. Ends when the source ends, when the client goes
 * away (`closed`), or when the server shuts down (`shutdown`): then a final `shutdown` event tells the
 * client to reconnect elsewhere with its Last-Event-ID, since the search itself has not ended. A failing
 * source is reported in-band (`error` event), then the stream ends. `onClose` runs once, however it ended.
 */
export function runSse(
  source: AsyncIterable<SseMessage>,
  t: SseTransport,
  o: { onClose?: () => void; onError?: (err: unknown) => void },
): SseRun {
  const run = new SseStreamRun(t, o);
  if (isPush(source)) {
    const pushed = source[SSE_PUSH](run);
    if (run.finished) pushed.stop();
    else run.source = pushed;
  } else void run.pump(source[Symbol.asyncIterator]());
  return run;
}

/**
 * One open stream: the kernel's handle on it (`SseRun`) and, for a push source, what the source writes
 * to (`SseWriter`). A class, so that the thousands of open streams of a popular search share its
 * methods instead of holding a dozen closures each.
 */
class SseStreamRun implements SseRun, SseWriter {
  finished = false;
  /** How to stop the source: a push source's handle, or the iterator (`return`). */
  source: { stop(): void } | undefined;
  /** Wakes an iterator pump waiting for a drain. */
  unblock: (() => void) | undefined;
  readonly t: SseTransport;
  readonly o: { onClose?: () => void; onError?: (err: unknown) => void };

  constructor(t: SseTransport, o: { onClose?: () => void; onError?: (err: unknown) => void }) {
    this.t = t;
    this.o = o;
  }

  finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.unblock?.();
    this.o.onClose?.();
    this.source?.stop();
  }

  closed(): void {
    this.finish();
  }

  shutdown(): void {
    if (this.finished) return;
    this.t.write(SHUTDOWN);
    this.t.end();
    this.finish();
  }

  write(bytes: Uint8Array): void {
    if (!this.finished) this.t.write(bytes);
  }

  cork(): void {
    this.t.cork();
  }

  uncork(): void {
    this.t.uncork();
  }

  get buffered(): number {
    return this.t.buffered;
  }

  onDrain(fn: () => void): void {
    this.t.onDrain(fn);
  }

  end(): void {
    if (this.finished) return;
    this.t.end();
    this.finish();
  }

  fail(err: unknown): void {
    if (this.finished) return;
    this.o.onError?.(err);
    this.t.write(FAILED);
    this.t.end();
    this.finish();
  }

  cut(): void {
    if (this.finished) return;
    this.t.destroy();
    this.finish();
  }

  /** An iterated source: pulled while its client keeps up (MAX_UNREAD_BYTES), until it ends. */
  async pump(it: AsyncIterator<SseMessage>): Promise<void> {
    this.source = { stop: () => void it.return?.()?.catch(() => {}) };
    try {
      for (;;) {
        const next = await it.next();
        if (this.finished) return;
        if (next.done) {
          this.end();
          return;
        }
        this.t.write(encode(next.value));
        if (this.t.buffered > MAX_UNREAD_BYTES) {
          await new Promise<void>((resolve) => {
            this.unblock = resolve;
            this.t.onDrain(resolve);
          });
          this.unblock = undefined;
          if (this.finished) return;
        }
      }
    } catch (err) {
      this.fail(err);
    }
  }
}

/**
 * The web form (`Kernel.handle`): the same stream as a `ReadableStream`, which queues up to
 * MAX_UNREAD_BYTES for its reader. Ends with the client (`signal`) or a `shutdown` event (`shutdown`).
 */
export function sseStream(
  source: AsyncIterable<SseMessage>,
  opts: {
    signal: AbortSignal;
    shutdown: AbortSignal;
    onClose?: () => void;
    onError?: (err: unknown) => void;
  },
): ReadableStream<Uint8Array> {
  let run: SseRun | undefined;
  let drained: (() => void)[] = [];
  let onShutdown: (() => void) | undefined;
  let onAbort: (() => void) | undefined;
  const cleanup = () => {
    if (onShutdown) opts.shutdown.removeEventListener('abort', onShutdown);
    if (onAbort) opts.signal.removeEventListener('abort', onAbort);
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        let open = true;
        const transport: SseTransport = {
          write(bytes) {
            if (open) controller.enqueue(bytes);
          },
          cork() {},
          uncork() {},
          get buffered() {
            return open ? MAX_UNREAD_BYTES - (controller.desiredSize ?? 0) : 0;
          },
          onDrain(fn) {
            drained.push(fn);
          },
          end() {
            if (!open) return;
            open = false;
            controller.close();
          },
          destroy() {
            if (!open) return;
            open = false;
            controller.error(new Error('the reader fell too far behind'));
          },
        };
        run = runSse(source, transport, {
          onClose: () => {
            open = false;
            cleanup();
            opts.onClose?.();
          },
          ...(opts.onError ? { onError: opts.onError } : {}),
        });
        const r = run;
        if (r.finished) return;
        onShutdown = () => r.shutdown();
        onAbort = () => r.closed();
        if (opts.shutdown.aborted) onShutdown();
        else opts.shutdown.addEventListener('abort', onShutdown, { once: true });
        if (opts.signal.aborted) onAbort();
        else opts.signal.addEventListener('abort', onAbort, { once: true });
      },
      pull() {
        const fns = drained;
        drained = [];
        for (const fn of fns) fn();
      },
      cancel() {
        run?.closed();
      },
    },
    { highWaterMark: MAX_UNREAD_BYTES, size: (chunk) => chunk.byteLength },
  );
}
