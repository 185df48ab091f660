import type { Middleware } from '../compose.ts';
import { HttpError } from '../errors.ts';

const tooLarge = (limit: number) =>
  new HttpError(413, 'payload_too_large', `The request body exceeds the limit of ${limit} bytes.`);

/** Reads the body (up to `limitBytes`, default 1 MiB) into `ex.rawBody`; beyond the limit: 413. */
export function bodyLimit(opts: { limitBytes?: number } = {}): Middleware {
  const limit = opts.limitBytes ?? 1024 * 1024;
  return async function bodyLimitMiddleware(ex, next) {
    const req = ex.request;
    if (req.body && req.method !== 'GET' && req.method !== 'HEAD') {
      const declared = Number(req.headers.get('content-length') ?? Number.NaN);
      if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
      const reader = req.body.getReader();
      const chunks: Uint8Array[] = [];
      let size = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > limit) {
          await reader.cancel().catch(() => {});
          throw tooLarge(limit);
        }
        chunks.push(value);
      }
      const buf = new Uint8Array(size);
      let off = 0;
      for (const c of chunks) {
        buf.set(c, off);
        off += c.byteLength;
      }
      ex.rawBody = buf;
    }
    await next();
  };
}
