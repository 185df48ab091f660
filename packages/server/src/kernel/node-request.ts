import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { KernelRequest, RequestUrl } from './context.ts';

const isHttpSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const trimHttp = (v: string) =>
  v.length > 0 && (isHttpSpace(v.charCodeAt(0)) || isHttpSpace(v.charCodeAt(v.length - 1)))
    ? v.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '')
    : v;

/**
 * An `IncomingMessage` seen as the kernel's request, answering what a web `Request` built from it would:
 * header lookups are case-insensitive over the raw headers, repeated headers joined with `, ` (`; ` for
 * `cookie`), values trimmed; the body is a web stream made only when read (none for GET and HEAD).
 */
export class NodeRequest implements KernelRequest {
  readonly method: string;
  readonly #req: IncomingMessage;
  #body: ReadableStream<Uint8Array> | null | undefined;

  constructor(req: IncomingMessage) {
    this.#req = req;
    this.method = req.method ?? 'GET';
  }

  get headers(): { get(name: string): string | null } {
    return this;
  }

  get(name: string): string | null {
    const raw = this.#req.rawHeaders;
    const wanted = name.toLowerCase();
    const n = wanted.length;
    let out: string | null = null;
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const k = raw[i] as string;
      if (k.length !== n || (k !== wanted && k.toLowerCase() !== wanted)) continue;
      const v = trimHttp(raw[i + 1] as string);
      out = out === null ? v : `${out}${wanted === 'cookie' ? '; ' : ', '}${v}`;
    }
    return out;
  }

  /** Every header, lower-cased names in sorted order (as iterating a web `Headers` gives them). */
  record(): Record<string, string> {
    const names = new Set<string>();
    const raw = this.#req.rawHeaders;
    for (let i = 0; i < raw.length; i += 2) names.add((raw[i] as string).toLowerCase());
    const out: Record<string, string> = {};
    for (const name of [...names].sort()) {
      if (name === 'set-cookie') {
        // A web Headers iterates each set-cookie apart; Object.fromEntries kept the last.
        for (let i = 0; i + 1 < raw.length; i += 2)
          if ((raw[i] as string).toLowerCase() === name) out[name] = trimHttp(raw[i + 1] as string);
      } else out[name] = this.get(name) as string;
    }
    return out;
  }

  /**
   * The body from the `IncomingMessage` itself (its 'data' events): what reading `body` to the end
   * gives, without a web stream and a promise per chunk. Past `limit` it stops listening and pauses the
   * message (the adapter drains or closes what is left, as after a `body` read stopped early); a message
   * that errors or closes before its end (the client went away) rejects.
   */
  readBody(limit: number): Promise<Uint8Array | null> {
    const req = this.#req;
    // Ended before any read: a request without a body (the server's `optimizeEmptyRequests`).
    if (req.readableEnded) return Promise.resolve(Buffer.alloc(0));
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const stop = () => {
        req.off('data', onData);
        req.off('end', onEnd);
        req.off('error', onError);
        req.off('close', onClose);
      };
      const onData = (chunk: Buffer) => {
        size += chunk.byteLength;
        if (size > limit) {
          stop();
          req.pause();
          resolve(null);
        } else chunks.push(chunk);
      };
      const onEnd = () => {
        stop();
        resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
      };
      const onError = (err: unknown) => {
        stop();
        reject(err);
      };
      const onClose = () => {
        stop();
        reject(new Error('The request closed before its body ended.'));
      };
      req.on('data', onData);
      req.once('end', onEnd);
      req.once('error', onError);
      req.once('close', onClose);
    });
  }

  get body(): ReadableStream<Uint8Array> | null {
    if (this.#body === undefined) {
      this.#body =
        this.method === 'GET' || this.method === 'HEAD'
          ? null
          : this.#req.readableEnded
            ? new ReadableStream<Uint8Array>({ start: (c) => c.close() })
            : (Readable.toWeb(this.#req) as unknown as ReadableStream<Uint8Array>);
    }
    return this.#body;
  }
}

// A path that `new URL` keeps as it is: no percent signs, backslashes, spaces or other characters it
// would encode, no dot segments, not `//` (which it would read as a host).
const PLAIN_PATH = /^\/(?!\/)[\w\-.~!$&'()*+,;=:@/]*$/;
const DOT_SEGMENT = /(?:^|\/)\.\.?(?:\/|$)/;
const PLAIN_QUERY = /^[^#\t\n\r]*$/;

/** Hosts already checked against `new URL` (bounded: a client can send any Host). */
const hostOk = new Map<string, boolean>();
function validHost(host: string): boolean {
  let ok = hostOk.get(host);
  if (ok === undefined) {
    try {
      ok = new URL(`http://${host}/`).host !== '';
    } catch {
      ok = false;
    }
    if (hostOk.size > 1000) hostOk.clear();
    hostOk.set(host, ok);
  }
  return ok;
}

/** `req.headers.host` (the first Host sent) without making node build the whole `req.headers` object. */
function firstHost(raw: string[]): string | undefined {
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const k = raw[i] as string;
    if (k.length === 4 && k.toLowerCase() === 'host') return raw[i + 1];
  }
  return undefined;
}

class PlainUrl implements RequestUrl {
  readonly pathname: string;
  readonly search: string;
  #params: URLSearchParams | undefined;
  constructor(pathname: string, search: string) {
    this.pathname = pathname;
    this.search = search;
  }
  get searchParams(): URLSearchParams {
    this.#params ??= new URLSearchParams(this.search);
    return this.#params;
  }
}

/**
 * The request target as `new URL(req.url, "http://" + host)` reads it. Plain targets (nearly all) are
 * split without the URL parser; anything else goes through it, and throws where it would.
 */
export function requestUrl(req: IncomingMessage): RequestUrl {
  const target = req.url ?? '/';
  const host = firstHost(req.rawHeaders) ?? 'localhost';
  if (validHost(host)) {
    const q = target.indexOf('?');
    const path = q === -1 ? target : target.slice(0, q);
    const query = q === -1 ? '' : target.slice(q + 1);
    if (PLAIN_PATH.test(path) && !DOT_SEGMENT.test(path) && PLAIN_QUERY.test(query)) {
      return new PlainUrl(path, query === '' ? '' : `?${query}`);
    }
  }
  return new URL(target, `http://${host}`);
}
