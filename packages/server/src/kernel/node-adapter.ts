import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import type { Kernel } from './kernel.ts';
import { NodeRequest, requestUrl } from './node-request.ts';

export interface ServeOptions {
  port: number;
  host?: string;
  /** Idle keep-alive sockets close after this; above a typical load balancer's 60 s idle timeout. */
  keepAliveTimeoutMs?: number;
  /** Must exceed keepAliveTimeoutMs (Node's documented pitfall) and bounds slowloris headers. */
  headersTimeoutMs?: number;
  /** 0: no whole-request limit (SSE streams are long-lived by design). */
  requestTimeoutMs?: number;
}

export interface RunningServer {
  server: Server;
  url: string;
  /**
   * Graceful stop: stop accepting, close idle sockets, end streams with their final event, wait for
   * in-flight requests (up to `graceMs`), then cut what is left.
   */
  close(graceMs?: number): Promise<void>;
}

const BODYLESS = new Set(['GET', 'HEAD']);

function toRequest(req: IncomingMessage, signal: AbortSignal): Request {
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
    ...(BODYLESS.has(method) ? {} : { body: Readable.toWeb(req) as ReadableStream, duplex: 'half' }),
  } as RequestInit);
}

async function writeResponse(res: ServerResponse, response: Response): Promise<void> {
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

/** Methods a web `Request` refuses: they keep the `Request` path, which answers them 500 as before. */
const FORBIDDEN = new Set(['CONNECT', 'TRACE', 'TRACK']);

/**
 * The only file that knows node:http. With a kernel that has `dispatch`, no web `Request`/`Response` is
 * built: the reply is written with one `res.end` (and a content-length); streams and non-JSON results
 * still come back as a `Response` and are streamed out. The client-gone signal is made only when read.
 */
export function serve(kernel: Kernel, opts: ServeOptions): Promise<RunningServer> {
  const fail = (res: ServerResponse) => {
    if (!res.headersSent) {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ detail: 'Internal server error.', code: 'internal_error', request_id: '' }));
    } else res.destroy();
  };

  const viaResponse = async (req: IncomingMessage, res: ServerResponse) => {
    const ac = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) ac.abort();
    });
    try {
      const response = await kernel.handle(toRequest(req, ac.signal), {
        ip: req.socket.remoteAddress ?? 'unknown',
        signal: ac.signal,
      });
      await writeResponse(res, response);
    } catch {
      fail(res);
    }
  };

  const viaDispatch = async (
    dispatch: NonNullable<Kernel['dispatch']>,
    req: IncomingMessage,
    res: ServerResponse,
  ) => {
    let ac: AbortController | undefined;
    const signal = () => {
      if (!ac) {
        const c = new AbortController();
        ac = c;
        if (res.closed) {
          if (!res.writableFinished) c.abort();
        } else
          res.on('close', () => {
            if (!res.writableFinished) c.abort();
          });
      }
      return ac.signal;
    };
    try {
      const request = new NodeRequest(req);
      const reply = await dispatch({
        request,
        url: requestUrl(req),
        ip: req.socket.remoteAddress ?? 'unknown',
        signal,
        headers: () => request.record(),
      });
      if ('response' in reply) {
        await writeResponse(res, reply.response);
        return;
      }
      res.writeHead(reply.status, reply.headers);
      if (reply.body === null) res.end();
      else res.end(reply.body);
    } catch {
      fail(res);
    }
  };

  const server = createServer((req, res) => {
    const dispatch = kernel.dispatch;
    if (dispatch && !FORBIDDEN.has(req.method ?? 'GET')) void viaDispatch(dispatch, req, res);
    else void viaResponse(req, res);
  });
  server.keepAliveTimeout = opts.keepAliveTimeoutMs ?? 65_000;
  server.headersTimeout = opts.headersTimeoutMs ?? 66_000;
  server.requestTimeout = opts.requestTimeoutMs ?? 0;

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host ?? '0.0.0.0', () => {
      server.off('error', reject);
      const addr = server.address() as AddressInfo;
      const shownHost = !opts.host || opts.host === '0.0.0.0' || opts.host === '::' ? 'localhost' : opts.host;
      resolve({
        server,
        url: `http://${shownHost}:${addr.port}`,
        async close(graceMs = 10_000) {
          const closed = new Promise<void>((r) => server.close(() => r()));
          server.closeIdleConnections();
          kernel.shutdown();
          const deadline = Date.now() + graceMs;
          while (kernel.inFlight() > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
          // Keep-alive sockets that are now idle, then anything that outlived the grace period.
          server.closeIdleConnections();
          if (kernel.inFlight() > 0) server.closeAllConnections();
          setTimeout(() => server.closeAllConnections(), 200).unref();
          await closed;
        },
      });
    });
  });
}
