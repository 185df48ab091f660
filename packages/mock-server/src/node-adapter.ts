import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getResponse, type RequestHandler } from 'msw';
import { isConnectionReset } from './shared/faults.ts';

/**
 * Serves MSW handlers over a real `node:http` server, so the same emulator that tests use in-process
 * (`setupServer`) also answers official clients that need a host and port, and humans with curl.
 */
export interface ServeHandlersOptions {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** The supplier's own "no such route" answer; default a plain JSON 404. */
  notFound?: (request: Request) => Response | Promise<Response>;
  /** Knob: when it returns true the socket is destroyed instead of answering (connection reset). */
  resetConnection?: (request: Request) => boolean;
  /** Runs around each request's handling, before its answer is written (the state journal's hook). */
  around?: <T>(handle: () => Promise<T>) => Promise<T>;
}

export interface ServedHandlers {
  /** `http://host:port`, no trailing slash. */
  url: string;
  port: number;
  server: Server;
  close: () => Promise<void>;
}

export async function serveHandlers(
  handlers: RequestHandler[],
  opts: ServeHandlersOptions = {},
): Promise<ServedHandlers> {
  const host = opts.host ?? '127.0.0.1';
  // Handlers match absolute URLs under the server's own origin; requests are rebuilt on it whatever Host
  // the client sent (localhost, 127.0.0.1, a proxy name).
  let origin = '';
  const server = createServer((req, res) => {
    void answer(handlers, opts, origin, req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  origin = url;
  return {
    url,
    port,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Keep-alive sockets (and hanging "timeout" requests) would otherwise hold close() open.
        server.closeAllConnections();
      }),
  };
}

async function answer(
  handlers: RequestHandler[],
  opts: ServeHandlersOptions,
  origin: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  // Aborts the Request when the client goes away, so a handler that hangs (timeout trigger) stops.
  const abort = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) abort.abort();
  });
  try {
    const request = await toFetchRequest(req, origin, abort.signal);
    if (opts.resetConnection?.(request)) {
      req.socket.destroy();
      return;
    }
    const handle = async (): Promise<Response> =>
      (await getResponse(handlers, request)) ??
      (opts.notFound ? await opts.notFound(request) : defaultNotFound(request));
    const response = opts.around ? await opts.around(handle) : await handle();
    if (isConnectionReset(response)) {
      req.socket.destroy();
      return;
    }
    await writeResponse(response, res);
  } catch (err) {
    if (abort.signal.aborted) return;
    if (!res.headersSent) {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'emulator_failure', message: String(err) }));
    } else {
      res.destroy();
    }
  }
}

async function toFetchRequest(req: IncomingMessage, origin: string, signal: AbortSignal): Promise<Request> {
  const url = new URL(req.url ?? '/', origin);
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    headers.append(req.rawHeaders[i] as string, req.rawHeaders[i + 1] as string);
  }
  const method = req.method ?? 'GET';
  let body: Buffer | undefined;
  if (method !== 'GET' && method !== 'HEAD') {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    body = Buffer.concat(chunks);
  }
  return new Request(url, {
    method,
    headers,
    body: body && body.length > 0 ? new Uint8Array(body) : undefined,
    signal,
  });
}

async function writeResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  res.writeHead(response.status, response.statusText, headers);
  if (!response.body) {
    res.end();
    return;
  }
  // Streamed chunk by chunk so that server-sent events reach the client as they are produced.
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!res.write(value)) await new Promise((r) => res.once('drain', r));
  }
  res.end();
}

function defaultNotFound(request: Request): Response {
  const { pathname } = new URL(request.url);
  return Response.json(
    { error: 'not_found', message: `No route for ${request.method} ${pathname}` },
    { status: 404 },
  );
}
