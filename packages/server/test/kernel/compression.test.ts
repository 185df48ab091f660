/**
 * Response compression: a dynamic answer up to COMPRESS_INLINE_MAX_BYTES is compressed on the event loop,
 * so it never waits for a libuv pool thread (on a busy machine that wait is most of what compressing a
 * batch answer costs); larger answers and static documents still go to the pool. Both paths give bytes
 * that decode to the body.
 */
import { pbkdf2 } from 'node:crypto';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { COMPRESS_INLINE_MAX_BYTES, type Coding, compress } from '../../src/kernel/compression.ts';

const json = (bytes: number) => {
  const row = JSON.stringify({ offer_id: 'of_x', price: { currency: 'USD', total_minor: 57825 } });
  return `[${Array.from({ length: Math.ceil(bytes / (row.length + 1)) }, () => row).join(',')}]`;
};
const decode = (coding: Coding, b: Buffer) => (coding === 'br' ? brotliDecompressSync(b) : gunzipSync(b));

/** Occupies every libuv pool thread; resolves with how many of those jobs have finished when asked. */
function busyPool() {
  const threads = Number(process.env.UV_THREADPOOL_SIZE ?? 4);
  let finished = 0;
  const all = Array.from(
    { length: threads },
    () =>
      new Promise<void>((resolve) =>
        pbkdf2('secret', 'salt', 400_000, 32, 'sha256', () => {
          finished += 1;
          resolve();
        }),
      ),
  );
  return { finished: () => finished, settled: Promise.all(all) };
}

describe('response compression', () => {
  for (const coding of ['br', 'gzip'] as const) {
    it(`${coding}: a dynamic answer up to the inline limit is ready while every pool thread is busy`, async () => {
      const body = json(32 * 1024);
      expect(body.length).toBeLessThanOrEqual(COMPRESS_INLINE_MAX_BYTES);
      const pool = busyPool();
      const out = await compress(body, coding, 'dynamic');
      // Compressed without a pool thread: none of the jobs holding them has finished yet.
      expect(pool.finished()).toBe(0);
      expect(decode(coding, out).toString()).toBe(body);
      expect(out.byteLength).toBeLessThan(body.length / 4);
      await pool.settled;
    });

    it(`${coding}: a larger answer goes to the pool and decodes to the body`, async () => {
      const body = json(COMPRESS_INLINE_MAX_BYTES * 2);
      const pool = busyPool();
      const out = await compress(body, coding, 'dynamic');
      // It waited for a pool thread, so a job holding one finished first.
      expect(pool.finished()).toBeGreaterThan(0);
      expect(decode(coding, out).toString()).toBe(body);
      await pool.settled;
    });
  }
});
