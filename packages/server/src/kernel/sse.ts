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
 * Writes the handler's messages as they come. Ends when the iterable ends, when the client goes away
 * (`signal`), or when the server shuts down (`shutdown`): then a final `shutdown` event tells the client
 * to reconnect elsewhere with its Last-Event-ID, since the search itself has not ended.
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
  const it = source[Symbol.asyncIterator]();
  let finished = false;
  let onShutdown: (() => void) | undefined;
  const finish = async () => {
    if (finished) return;
    finished = true;
    if (onShutdown) opts.shutdown.removeEventListener('abort', onShutdown);
    opts.onClose?.();
    await it.return?.().catch(() => {});
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      onShutdown = () => {
        if (finished) return;
        try {
          controller.enqueue(
            encoder.encode(
              formatSse({
                event: 'shutdown',
                data: { reason: 'server_shutdown', reconnect: true },
                retry: 1000,
              }),
            ),
          );
          controller.close();
        } catch {
          // already closed by the client
        }
        void finish();
      };
      if (opts.shutdown.aborted) onShutdown();
      else opts.shutdown.addEventListener('abort', onShutdown, { once: true });
      opts.signal.addEventListener('abort', () => void finish(), { once: true });
    },
    async pull(controller) {
      if (finished) return;
      try {
        const next = await it.next();
        if (finished) return;
        if (next.done) {
          await finish();
          controller.close();
          return;
        }
        controller.enqueue(encode(next.value));
      } catch (err) {
        opts.onError?.(err);
        // Headers are long gone: the failure is reported in-band, then the stream ends.
        controller.enqueue(encoder.encode(formatSse({ event: 'error', data: { code: 'internal_error' } })));
        await finish();
        controller.close();
      }
    },
    async cancel() {
      await finish();
    },
  });
}
