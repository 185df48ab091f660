import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

// The node adapter's web-object path: for a kernel without `dispatch`, and for the non-JSON results a
// `dispatch` still answers as a `Response` (node-adapter.ts).

const BODYLESS = new Set(['GET', 'HEAD']);

export function toRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const host = req.headers.host ?? 'localhost';
  const url = new URL(req.url ?? '/', `http://${host}`);
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const k = req.rawHeaders[i];
    const v = req.rawHeaders[i + 1];
    if (k !== undefined && v !== undefined) headers.append(k, v);
  }
  const method = req.method ?? 'GET';
  return new Request(url, {
    method,
    headers,
    signal,
    // An already ended body: a request without one (the server's `optimizeEmptyRequests`).
    ...(BODYLESS.has(method) || req.readableEnded
      ? {}
      : { body: Readable.toWeb(req) as ReadableStream, duplex: 'half' }),
  } as RequestInit);
}

export async function writeResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((v, k) => {
    headers[k] = v;
  });
  const setCookie = response.headers.getSetCookie();
  if (setCookie.length > 0) headers['set-cookie'] = setCookie;
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  const streaming = (response.headers.get('content-type') ?? '').startsWith('text/event-stream');
  if (streaming) res.flushHeaders();
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (res.destroyed) break;
      if (!res.write(value))
        await new Promise<void>((r) => res.once('drain', () => r()).once('close', () => r()));
    }
  } finally {
    reader.releaseLock();
    res.end();
  }
}
