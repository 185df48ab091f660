/**
 * Request lines are written asynchronously (src/internal/logger.ts): none may be lost on a clean exit.
 * The real server (`sandbox/main.ts`, PGlite in a temporary DATA_DIR, LOG_LEVEL=info as `pnpm start`) answers
 * N requests, several at a time, and gets SIGTERM right after the last answer, while the last lines may
 * still be in the logger's buffer or on their way; once its stdout is closed, every request's line must
 * be there, once, and the shutdown's 'stopped' line after them. (The access line's own writer is
 * checked against pino's in access-line.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import { startServer } from '../search/processes.ts';

type Line = Record<string, unknown> & { msg?: string };

function jsonLines(text: string): Line[] {
  const out: Line[] = [];
  for (const l of text.split('\n')) {
    if (!l.startsWith('{')) continue;
    try {
      out.push(JSON.parse(l) as Line);
    } catch {
      // not a log line
    }
  }
  return out;
}

describe('request log lines', () => {
  it('a clean SIGTERM writes every request line made before it', { timeout: 120_000 }, async () => {
    const server = await startServer('log-flush', { LOG_LEVEL: 'info', READINESS_DRAIN_MS: '0' });
    const closed = new Promise<void>((resolve) => server.child.once('close', () => resolve()));
    let stdout = '';
    server.child.stdout?.on('data', (c: Buffer) => {
      stdout += c.toString();
    });
    const N = 400;
    const ids = Array.from({ length: N }, (_, i) => `flush-${i}-${process.pid}`);
    for (let i = 0; i < N; i += 25) {
      const batch = ids.slice(i, i + 25);
      const answers = await Promise.all(
        batch.map((id) => fetch(`${server.url}/`, { headers: { 'x-request-id': id } })),
      );
      for (const a of answers) {
        expect(a.status).toBe(200);
        await a.arrayBuffer();
      }
    }
    const exit = await server.stop('SIGTERM');
    await closed;
    expect(exit.code).toBe(0);
    const lines = jsonLines(stdout);
    const seen = new Map<string, number>();
    for (const l of lines) {
      if (l.msg === 'request' && typeof l.req_id === 'string' && l.req_id.startsWith('flush-')) {
        seen.set(l.req_id, (seen.get(l.req_id) ?? 0) + 1);
        expect(l).toMatchObject({
          level: 30,
          service: 'travel-server',
          method: 'GET',
          path: '/',
          status: 200,
        });
      }
    }
    expect(ids.filter((id) => seen.get(id) !== 1)).toEqual([]);
    // The shutdown's 'stopped' line (written after the listener closed) comes after every request line.
    const stopped = lines.findIndex((l) => l.msg === 'stopped');
    expect(stopped, JSON.stringify(lines.slice(-3))).toBeGreaterThan(0);
    expect(lines.findLastIndex((l) => l.msg === 'request')).toBeLessThan(stopped);
  });
});
