import type { Middleware } from '../compose.ts';
import { ClientClosedRequest, HttpError } from '../errors.ts';

const tooLarge = (limit: number) =>
  new HttpError(413, 'payload_too_large', `The request body exceeds the limit of ${limit} bytes.`);

/**
 * Reads the body (up to `limitBytes`, default 1 MiB) into `ex.rawBody`; beyond the limit: 413. The rest
 * of an oversized body is left to the transport, which drains it or closes the connection (node adapter).
 * A body the client cuts off (it disconnected) is a `ClientClosedRequest`, not a server error.
 */
export function bodyLimit(opts: { limitBytes?: number } = {}): Middleware {
  const limit = opts.limitBytes ?? 1024 * 1024;
  return async function bodyLimitMiddleware(ex, next) {
    const req = ex.request;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      const declared = Number(req.headers.get('content-length') ?? Number.NaN);
      if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
      if (req.readBody) ex.rawBody = await readDirect(req.readBody(limit), limit);
      else {
        const body = req.body;
        if (body) ex.rawBody = await readAtMost(body, limit);
      }
    }
    await next();
  };
}

/** A transport's own read (`KernelRequest.readBody`), with the same answers as `readAtMost`. */
async function readDirect(read: Promise<Uint8Array | null>, limit: number): Promise<Uint8Array> {
  let bytes: Uint8Array | null;
  try {
    bytes = await read;
  } catch (err) {
    throw new ClientClosedRequest(err);
  }
  if (bytes === null) throw tooLarge(limit);
  return bytes;
}

async function readAtMost(body: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let step: Awaited<ReturnType<typeof reader.read>>;
    try {
      step = await reader.read();
    } catch (err) {
      throw new ClientClosedRequest(err);
    }
    if (step.done) break;
    size += step.value.byteLength;
    if (size > limit) {
      reader.releaseLock();
      throw tooLarge(limit);
    }
    chunks.push(step.value);
  }
  const buf = new Uint8Array(size);
  let off = 0;
  for (const c of chunks) {
    buf.set(c, off);
    off += c.byteLength;
  }
  return buf;
}
