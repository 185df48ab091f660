import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Readable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { API_VERSION } from '@travel/contract';
import { COMPRESS_MIN_BYTES, type Coding, compress, negotiate } from './compression.ts';
import type { ErrorCode } from './errors.ts';
import type { Kernel, Reply } from './kernel.ts';
import { mintRequestId } from './middleware/request-id.ts';
import { NodeRequest, requestUrl } from './node-request.ts';
import type { SseTransport } from './sse.ts';

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
 * A stream reply: the headers at once, then the kernel's stream writes to `res` directly (each message's
 * bytes, shared by every reader of one search, go straight to the socket). The client going away ends it.
 */
function writeStream(res: ServerResponse, reply: Extract<Reply, { stream: unknown }>): void {
  res.writeHead(reply.status, reply.headers);
  res.flushHeaders();
  const run = reply.stream(new ResponseTransport(res));
  if (res.destroyed) run.closed();
  else res.once('close', () => run.closed());
}

/** A stream's bytes to the node response (a class: one per open stream, methods shared). */
class ResponseTransport implements SseTransport {
  readonly res: ServerResponse;
  constructor(res: ServerResponse) {
    this.res = res;
  }
  write(bytes: Uint8Array): void {
    if (!this.res.destroyed) this.res.write(bytes);
  }
  // The socket's own cork: the response's (`res.cork`) hands the held chunks to an uncorked socket one
  // by one on `uncork` (a syscall each). Corked here, a burst, its chunk framing and an `end` leave in
  // one writev.
  cork(): void {
    this.res.socket?.cork();
  }
  uncork(): void {
    this.res.socket?.uncork();
  }
  get buffered(): number {
    return this.res.writableLength;
  }
  onDrain(fn: () => void): void {
    this.res.once('drain', fn);
  }
  end(): void {
    this.res.end();
  }
  destroy(): void {
    this.res.destroy();
  }
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

/** Methods a web `Request` refuses: a kernel without `dispatch` cannot see them; they are answered 405 here. */
const FORBIDDEN = new Set(['CONNECT', 'TRACE', 'TRACK']);

/** CONNECT targets a host, not one of our paths: the Allow of a 405 for it lists what any path may answer. */
const ALL_METHODS = 'DELETE, GET, HEAD, OPTIONS, PATCH, POST, PUT';

/** How long the rest of an unread body may take to arrive before the connection is cut. */
const DRAIN_TIMEOUT_MS = 10_000;

/** A whole HTTP/1.1 response with our JSON error body, for the paths that never reach the kernel. */
function rawErrorResponse(status: number, reason: string, code: ErrorCode, detail: string): string {
  const body = JSON.stringify({ detail, code, request_id: mintRequestId() });
  return [
    `HTTP/1.1 ${status} ${reason}`,
    ...(status === 405 ? [`Allow: ${ALL_METHODS}`] : []),
    'Content-Type: application/json',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'X-Content-Type-Options: nosniff',
    'Cache-Control: no-store',
    `API-Version: ${API_VERSION}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/** What node's parser refused, answered as the contract answers everything else (node would send no body). */
function clientErrorResponse(code: string | undefined): string {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return rawErrorResponse(
        431,
        'Request Header Fields Too Large',
        'request_header_fields_too_large',
        'The request headers exceed the size limit.',
      );
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'HPE_HEADERS_TIMEOUT':
      return rawErrorResponse(
        408,
        'Request Timeout',
        'request_timeout',
        'The request took too long to arrive.',
      );
    default:
      return rawErrorResponse(400, 'Bad Request', 'malformed_request', 'The request is not valid HTTP/1.1.');
  }
}

/**
 * The kernel answered before the request body was read to its end (a 413, or a 415/401 that never
 * looked at it). Node only discards the rest of a body nobody started reading, so a body the kernel
 * began to read would otherwise sit unread and stall the keep-alive connection. A declared body beyond
 * `limit` gets `Connection: close` (node ends the socket after the answer); anything else is read and
 * dropped once the answer is out, and the socket is cut if more than `limit` bytes or DRAIN_TIMEOUT_MS
 * pass.
 */
function settleUnreadBody(req: IncomingMessage, res: ServerResponse, limit: number): void {
  if (req.complete || req.destroyed) return;
  // Neither a length nor a transfer coding: a request without a body (RFC 9112 §6.3). A reply made in
  // the request's own turn comes before node's parser has marked even such a request complete.
  const declaredLength = req.headers['content-length'];
  if (declaredLength === undefined && req.headers['transfer-encoding'] === undefined) return;
  const declared = Number(declaredLength);
  if (Number.isFinite(declared) && declared > limit) {
    if (!res.headersSent) res.setHeader('connection', 'close');
    return;
  }
  res.once('finish', () => {
    if (req.complete || req.destroyed) return;
    let seen = 0;
    const cut = () => req.socket?.destroy();
    const timer = setTimeout(cut, DRAIN_TIMEOUT_MS);
    timer.unref();
    req.removeAllListeners('data');
    req.on('data', (chunk: Buffer) => {
      seen += chunk.byteLength;
      if (seen > limit) {
        clearTimeout(timer);
        cut();
      }
    });
    req.once('end', () => clearTimeout(timer));
    req.once('close', () => clearTimeout(timer));
    req.resume();
  });
}

/**
 * The only file that knows node:http. With a kernel that has `dispatch`, no web `Request`/`Response` is
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

  const server = createServer((req, res) => {
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

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A request that arrives while the server drains for shutdown (on a keep-alive socket opened before):
 * its answer closes the socket (`Connection: close`), and an effectful one is refused before any
 * supplier or payment call, 503 `server_draining` with Retry-After, since it could not be finished within
 * the grace. Reads are still answered. Returns whether the request was answered here.
 */
function draining(req: IncomingMessage, res: ServerResponse): boolean {
  res.setHeader('connection', 'close');
  if (READS.has(req.method ?? 'GET')) return false;
  req.resume();
  res.writeHead(503, {
    'content-type': 'application/json',
    'retry-after': '5',
    'x-content-type-options': 'nosniff',
  });
  res.end(
    JSON.stringify({
      detail:
        'The server is shutting down and starts no new operation; retry shortly with the same Idempotency-Key.',
      code: 'server_draining',
      request_id: mintRequestId(),
    }),
  );
  return true;
}
