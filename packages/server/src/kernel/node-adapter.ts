import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { API_VERSION } from '@travel/contract';
import { COMPRESS_MIN_BYTES, type Coding, compress, negotiate } from './compression.ts';
import type { Kernel, Reply } from './kernel-api.ts';
import { mintRequestId } from './middleware/request-id.ts';
import {
  ALL_METHODS,
  clientErrorResponse,
  draining,
  FORBIDDEN,
  rawErrorResponse,
} from './node-raw-answers.ts';
import { NodeRequest, requestUrl } from './node-request.ts';
import { writeStream } from './node-stream.ts';
import { settleUnreadBody } from './node-unread-body.ts';
import { toRequest, writeResponse } from './node-web.ts';

export interface ServeOptions {
  port: number;
  host?: string;
  /** Idle keep-alive sockets close after this; above a typical load balancer's 60 s idle timeout. */
  keepAliveTimeoutMs?: number;
  /** Must exceed keepAliveTimeoutMs (Node's documented pitfall) and bounds slowloris headers. */
  headersTimeoutMs?: number;
  /** 0: no whole-request limit (SSE streams are long-lived by design). */
  requestTimeoutMs?: number;
  /**
   * After an answer given before the request body was read (413, 415, 401 ...), up to this many bytes of
   * the rest are read and dropped so the keep-alive connection stays usable; a longer body (declared or
   * found) closes the connection instead. Default 4 MiB.
   */
  drainLimitBytes?: number;
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

/** The value of `name` (lower-case) in a flat `[name, value, ...]` list. */
function headerValue(headers: string[], name: string): string | undefined {
  for (let i = 0; i < headers.length; i += 2) if (headers[i] === name) return headers[i + 1];
  return undefined;
}

/** Replaces `name`'s value in a flat list where it is, else adds it at the end (as a record would). */
function setHeader(headers: string[], name: string, value: string): void {
  for (let i = 0; i < headers.length; i += 2) {
    if (headers[i] === name) {
      headers[i + 1] = value;
      return;
    }
  }
  headers.push(name, value);
}

/**
 * One full garbage collection, before the first request. Start-up (migrations, schema compilation, the
 * contract) leaves a heap whose survival statistics can make V8 pretenure allocation sites the request
 * path then uses: each request's short-lived objects are then kept alive through old space until a full
 * collection, and in such a process GC took 30-50 % of the CPU and a `GET /` cost 10-12 µs instead of
 * about 4 µs (measured in process; which processes it hit varied from run to run). Collecting once after
 * start-up, before listening, was enough in every run. `gc` is fetched through a fresh context with
 * `--expose-gc` set just for that, then the flag is cleared again.
 */
function collectStartupGarbage(): void {
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as (() => void) | undefined;
    setFlagsFromString('--no-expose-gc');
    gc?.();
  } catch {
    // Not available (another runtime): start without it.
  }
}
/**
 * The node:http server (with its helpers, the node-*.ts files beside it, the only files that know
 * node:http). With a kernel that has `dispatch`, no web `Request`/`Response` is
 * built: the reply is written with one `res.end` (and a content-length); an SSE stream is written to
 * `res` by the kernel's stream (`writeStream`); non-JSON results still come back as a `Response` and are
 * streamed out. The client-gone signal is made only when read.
 */
export function serve(kernel: Kernel, opts: ServeOptions): Promise<RunningServer> {
  const drainLimit = opts.drainLimitBytes ?? 4 * 1024 * 1024;
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
      settleUnreadBody(req, res, drainLimit);
      if (kernel.shuttingDown.aborted && !res.headersSent) res.setHeader('connection', 'close');
      await writeResponse(res, response);
    } catch {
      fail(res);
    }
  };

  /** A compressed JSON answer: the body compressed off the request's turn, then written. */
  const writeCompressed = async (
    res: ServerResponse,
    status: number,
    headers: string[],
    text: string,
    coding: Coding,
  ) => {
    const body = await compress(text, coding, 'dynamic');
    setHeader(headers, 'content-encoding', coding);
    setHeader(headers, 'content-length', String(body.byteLength));
    const vary = headerValue(headers, 'vary');
    setHeader(headers, 'vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
    res.writeHead(status, headers);
    res.end(body);
  };

  /** The kernel's reply to `res`: a JSON answer at once (in this turn when the reply is), else streamed. */
  const writeReply = (req: IncomingMessage, res: ServerResponse, reply: Reply): void => {
    // Draining: the keep-alive socket closes after this answer, so no new request follows on it.
    if (kernel.shuttingDown.aborted && !res.headersSent) res.setHeader('connection', 'close');
    try {
      settleUnreadBody(req, res, drainLimit);
      if ('response' in reply) {
        writeResponse(res, reply.response).catch(() => fail(res));
        return;
      }
      if ('stream' in reply) {
        writeStream(res, reply);
        return;
      }
      const body = reply.body;
      const headers = reply.headers;
      // A large JSON answer goes compressed to a client that asks for it (the SDK's fetch does).
      if (
        typeof body === 'string' &&
        body.length >= COMPRESS_MIN_BYTES &&
        !headerValue(headers, 'content-encoding')
      ) {
        const coding = negotiate(req.headers['accept-encoding']);
        if (coding) {
          writeCompressed(res, reply.status, headers, body, coding).catch(() => fail(res));
          return;
        }
      }
      // A flat [name, value, ...] list: node stores it as it comes.
      res.writeHead(reply.status, headers);
      if (body === null) res.end();
      else res.end(body);
    } catch {
      fail(res);
    }
  };

  /**
   * The node path: no web objects. A reply the kernel made synchronously is written in the same turn
   * as the request arrived (no promise, no microtask), as a bare node:http handler would.
   */
  const viaDispatch = (
    dispatch: NonNullable<Kernel['dispatch']>,
    req: IncomingMessage,
    res: ServerResponse,
  ): void => {
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
    let reply: Reply | Promise<Reply>;
    try {
      const request = new NodeRequest(req);
      reply = dispatch({
        request,
        url: requestUrl(req),
        ip: req.socket.remoteAddress ?? 'unknown',
        signal,
        headers: () => request.record(),
      });
    } catch {
      fail(res);
      return;
    }
    if (typeof (reply as Partial<Promise<Reply>>).then === 'function')
      (reply as Promise<Reply>).then(
        (r) => writeReply(req, res, r),
        () => fail(res),
      );
    else writeReply(req, res, reply as Reply);
  };

  // A request without Content-Length or Transfer-Encoding has no body (RFC 9112 §6.3): node (24.12+) then
  // makes its body stream already ended, skipping the stream's end and close events (and their
  // process.nextTick calls) per request; NodeRequest reads such a body as empty.
  const server = createServer({ optimizeEmptyRequests: true }, (req, res) => {
    if (kernel.shuttingDown.aborted && draining(req, res)) return;
    const dispatch = kernel.dispatch;
    if (dispatch) viaDispatch(dispatch, req, res);
    else if (FORBIDDEN.has(req.method ?? 'GET')) {
      res.writeHead(405, {
        'content-type': 'application/json',
        allow: ALL_METHODS,
        'x-content-type-options': 'nosniff',
        'api-version': API_VERSION,
      });
      res.end(
        JSON.stringify({
          detail: `${req.method} is not allowed here.`,
          code: 'method_not_allowed',
          request_id: mintRequestId(),
        }),
      );
    } else void viaResponse(req, res);
  });
  // Oversized headers (431), timeouts (408) and malformed requests (400) with our JSON body; a socket
  // whose answer has started is only closed (anything written now would corrupt it).
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (err.code !== 'ECONNRESET' && socket.writable && !inFlight?.headersSent) {
      socket.end(clientErrorResponse(err.code));
      setTimeout(() => socket.destroy(), 1000).unref();
    } else socket.destroy();
  });
  // CONNECT never reaches the request handler; it is no more allowed than TRACE.
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    socket.end(
      rawErrorResponse(405, 'Method Not Allowed', 'method_not_allowed', `${req.method} is not allowed here.`),
    );
  });
  server.keepAliveTimeout = opts.keepAliveTimeoutMs ?? 65_000;
  server.headersTimeout = opts.headersTimeoutMs ?? 66_000;
  server.requestTimeout = opts.requestTimeoutMs ?? 0;

  collectStartupGarbage();
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
