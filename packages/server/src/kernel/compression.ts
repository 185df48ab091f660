/**
 * Response compression (contract: `Content-Encoding` only when the client sent `Accept-Encoding` for it).
 * `negotiator` (the parser behind Express's `compression`) reads the header, q-values and `identity;q=0`
 * included; Node's zlib does the work, off the event loop (the async APIs run on the libuv pool).
 *
 * Two kinds of body: dynamic JSON answers of at least COMPRESS_MIN_BYTES (Brotli at quality 4, gzip at
 * level 6: fast enough per request), and static documents (the docs page, the contract) compressed once,
 * when the server starts, in the background (Brotli at STATIC_BROTLI_QUALITY, gzip at level 9), and kept:
 * never on a visitor's request. Until a coding is ready the document goes out as it is (issue 33: Brotli
 * at quality 11 on the 4.35 MB docs page made the first browser visit wait 38-98 s; quality 6 takes about
 * 0.45 s of one core for 14 % more bytes). A dynamic body of at most COMPRESS_INLINE_MAX_BYTES is compressed on the
 * event loop: that takes about 0.1 ms for 32 KiB (a flight batch answer), less than handing it to the
 * libuv pool and back, which on a busy machine waits for a pool thread and for the loop to be woken.
 */
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';
import Negotiator from 'negotiator';

export type Coding = 'br' | 'gzip';
const CODINGS: Coding[] = ['br', 'gzip'];

/** Below this a JSON body is sent as it is: the headers would cost more than they save. */
export const COMPRESS_MIN_BYTES = 1024;

/** Up to this size a dynamic body is compressed in line (see above); larger ones on the libuv pool. */
export const COMPRESS_INLINE_MAX_BYTES = 64 * 1024;

/** Brotli quality of the static documents, compressed once at start (see above). */
export const STATIC_BROTLI_QUALITY = 6;

const br = promisify(brotliCompress);
const gz = promisify(gzip);

/** The coding to use for a client's `Accept-Encoding` (Brotli preferred), or null: send it as it is. */
export function negotiate(acceptEncoding: string | string[] | undefined): Coding | null {
  if (!acceptEncoding) return null;
  // Equal q-values: ours decides (Brotli first), not the order the client listed them in. negotiator 1.x
  // takes `{ preferred }`; @types/negotiator still describes 0.6, hence the signature spelled out here.
  const n = new Negotiator({ headers: { 'accept-encoding': acceptEncoding } }) as unknown as {
    encoding(available: string[], options: { preferred: string[] }): string | undefined;
  };
  const found = n.encoding([...CODINGS, 'identity'], { preferred: CODINGS });
  return found === 'br' || found === 'gzip' ? found : null;
}

/** Compresses `body`: `static` at the best quality (kept by the caller), `dynamic` fast. */
export function compress(
  body: string | Uint8Array,
  coding: Coding,
  kind: 'static' | 'dynamic',
): Promise<Buffer> {
  const input = typeof body === 'string' ? Buffer.from(body) : body;
  const inline = kind === 'dynamic' && input.byteLength <= COMPRESS_INLINE_MAX_BYTES;
  if (coding === 'br') {
    const options = {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: kind === 'static' ? STATIC_BROTLI_QUALITY : 4,
        [constants.BROTLI_PARAM_SIZE_HINT]: input.byteLength,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    };
    return inline ? settle(() => brotliCompressSync(input, options)) : br(input, options);
  }
  const options = { level: kind === 'static' ? constants.Z_BEST_COMPRESSION : 6 };
  return inline ? settle(() => gzipSync(input, options)) : gz(input, options);
}

/** `fn`'s result, or its error, as a settled promise (callers handle both codings' paths alike). */
function settle<T>(fn: () => T): Promise<T> {
  try {
    return Promise.resolve(fn());
  } catch (err) {
    return Promise.reject(err);
  }
}

/**
 * A static document in every coding, made by `precompute()` (called when the server starts, never by a
 * request) and kept, with a strong ETag per representation (RFC 9110: a compressed body is another
 * representation). A request that comes before a coding is ready gets the document as it is.
 */
export class StaticDocument {
  readonly #body: Buffer;
  readonly #etag: string;
  readonly #coded = new Map<Coding, Buffer>();
  #precomputing: Promise<void> | undefined;

  constructor(body: string | Buffer, etag: string) {
    this.#body = typeof body === 'string' ? Buffer.from(body) : body;
    this.#etag = etag;
  }

  /** Compresses every coding once, one after the other on the libuv pool; later calls share the first. */
  precompute(): Promise<void> {
    this.#precomputing ??= (async () => {
      for (const coding of CODINGS) this.#coded.set(coding, await compress(this.#body, coding, 'static'));
    })();
    return this.#precomputing;
  }

  /** The codings ready to be served. */
  ready(): Coding[] {
    return [...this.#coded.keys()];
  }

  /** The representation for this request: its bytes and the headers that describe them. Never waits. */
  for(acceptEncoding: string | undefined): { body: Buffer; headers: Record<string, string> } {
    const vary = { vary: 'Accept-Encoding' };
    const coding = negotiate(acceptEncoding);
    const coded = coding ? this.#coded.get(coding) : undefined;
    if (!coding || !coded) return { body: this.#body, headers: { ...vary, etag: `"${this.#etag}"` } };
    return {
      body: coded,
      headers: { ...vary, 'content-encoding': coding, etag: `"${this.#etag}-${coding}"` },
    };
  }
}

/** Whether `If-None-Match` names the representation's ETag (weak comparison, as for GET). */
export function notModified(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const bare = (t: string) => t.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((t) => bare(t) === bare(etag));
}
