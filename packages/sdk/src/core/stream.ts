/**
 * Server-Sent Events over plain fetch + web streams (no EventSource: it cannot send a bearer header and
 * does not run in every runtime). A connection that closes or breaks before the terminal event is a drop:
 * we wait the server's `retry:` interval, reconnect with `Last-Event-ID`, and skip any event id already
 * delivered, so the consumer sees every event exactly once.
 */
import { ConnectionError, createApiError } from './errors.ts';
import type { Sleep } from './retry.ts';
import { createSseParser, type SseMessage } from './sse-parser.ts';
import type { Transport } from './transport.ts';

/** One event; `data` is parsed JSON when it is JSON, else the raw string. */
export interface SseEvent<TData = unknown> {
  id: string | undefined;
  event: string;
  data: TData;
}

/** Per-stream options. */
export interface StreamOptions {
  signal?: AbortSignal;
  /** Resume after this event id, e.g. one persisted by a previous process. */
  lastEventId?: string;
  /** Consecutive drops without a new event before giving up with a `ConnectionError` (default 5). */
  maxReconnects?: number;
  /** Yield `heartbeat` keep-alives too (default false: they carry no data). */
  includeHeartbeats?: boolean;
  /** Extra headers on every (re)connection. */
  headers?: Record<string, string>;
  /** Automatic retries of each (re)connection attempt (the client's `maxRetries` otherwise). */
  maxRetries?: number;
}

/** What a stream needs from the client. */
export interface StreamDeps {
  transport: Transport;
  sleep: Sleep;
  /** The event name that ends the stream (the contract names it `done`). */
  terminalEvent: string;
}

// Used until the server sends `retry:`; the SSE default in browsers is in this range too.
const DEFAULT_RECONNECT_MS = 1000;
const MAX_RECONNECT_MS = 30_000;

/**
 * Reads an SSE endpoint to its terminal event, reconnecting across drops.
 *
 * @example
 * for await (const event of streamEvents(deps, `${baseUrl}/api/v1/flight/getFare/stream/${id}`)) {
 *   if (event.event === 'offer') console.log(event.data);
 * }
 */
export async function* streamEvents<TEvent = SseEvent>(
  deps: StreamDeps,
  url: string,
  options: StreamOptions = {},
): AsyncGenerator<TEvent, void, undefined> {
  const seen = new Set<string>();
  let lastId = options.lastEventId;
  let reconnectMs = DEFAULT_RECONNECT_MS;
  let drops = 0;
  for (;;) {
    const headers = new Headers({ ...options.headers, Accept: 'text/event-stream' });
    if (lastId !== undefined) headers.set('Last-Event-ID', lastId);
    const request = new Request(url, { headers, ...(options.signal ? { signal: options.signal } : {}) });
    const response = await deps.transport(request, {
      timeoutMs: false,
      ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
    });
    if (!response.ok || !response.body)
      throw createApiError({
        status: response.status,
        body: await bodyOf(response),
        headers: response.headers,
      });
    const pending: SseMessage[] = [];
    const feed = createSseParser(
      (message) => pending.push(message),
      (ms) => {
        reconnectMs = ms;
      },
    );
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const chunk = await reader.read().catch((error: unknown) => {
          if (options.signal?.aborted) throw error;
          return { done: true as const, value: undefined };
        });
        if (chunk.done) break;
        feed(decoder.decode(chunk.value, { stream: true }));
        for (const message of pending.splice(0)) {
          if (message.id !== undefined) {
            if (seen.has(message.id)) continue;
            seen.add(message.id);
            lastId = message.id;
          }
          drops = 0;
          const name = message.event ?? 'message';
          if (name === 'heartbeat' && !options.includeHeartbeats) continue;
          yield { id: message.id, event: name, data: parseData(message.data) } as TEvent;
          if (name === deps.terminalEvent) return;
        }
      }
    } finally {
      await reader.cancel().catch(() => undefined);
    }
    drops++;
    if (drops > (options.maxReconnects ?? 5)) {
      throw new ConnectionError({ message: `stream closed ${drops} times before its terminal event` });
    }
    await deps.sleep(Math.min(MAX_RECONNECT_MS, reconnectMs * 2 ** (drops - 1)), options.signal);
  }
}

function parseData(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return data;
  }
}

async function bodyOf(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
