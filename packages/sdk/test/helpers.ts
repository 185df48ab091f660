/** Shared test plumbing: one MSW server per file, a client wired to a fake sleep, SSE response builders. */
import { HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { createTravelClient, type TravelClientOptions } from '../src/index.ts';

export const BASE = 'http://travel.test';

/** Starts MSW for the file; unhandled requests fail the test. */
export function useMsw() {
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
  afterEach(() => server.resetHandlers());
  afterAll(() => server.close());
  return server;
}

/** A client whose sleeps are recorded instead of waited. */
export function testClient(options: Partial<TravelClientOptions> = {}) {
  const sleeps: number[] = [];
  const client = createTravelClient({
    baseUrl: BASE,
    token: 'test-token',
    random: () => 0.5,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...options,
  });
  return { client, sleeps };
}

/** A JSON error body as the server renders it. */
export function apiError(
  status: number,
  code: string,
  extra: Record<string, unknown> = {},
  headers?: Record<string, string>,
) {
  return HttpResponse.json(
    { detail: `failed: ${code}`, code, request_id: `req-${code}`, ...extra },
    { status, headers },
  );
}

/** One SSE frame. */
export function frame(event: string, data: unknown, id?: string): string {
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** An SSE response that sends `chunks` and then closes, or breaks (`end: 'error'`). */
export function sseResponse(chunks: string[], end: 'close' | 'error' = 'close'): Response {
  const encoder = new TextEncoder();
  const queue = [...chunks];
  // Pull-based, so the chunks are delivered before the break (erroring in start() would discard them).
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = queue.shift();
      if (chunk !== undefined) controller.enqueue(encoder.encode(chunk));
      else if (end === 'error') controller.error(new TypeError('socket hang up'));
      else controller.close();
    },
  });
  return new Response(body, { headers: { 'Content-Type': 'text/event-stream' } });
}

/** Collects an async iterable. */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}
