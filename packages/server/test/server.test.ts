import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type RunningServer, serve } from '../src/kernel/node-adapter.ts';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { testRoutes } from './helpers/test-routes.ts';

let t: TestApp;
let srv: RunningServer;
let hooks: { streamItems?: number };
beforeAll(async () => {
  hooks = { streamItems: 3 };
  t = await createTestApp({ routes: (s) => testRoutes(s, hooks) });
  srv = await serve(t.app.kernel, { port: 0, host: '127.0.0.1' });
});
afterAll(async () => {
  await srv.close(1000);
  await t.close();
});

async function readAll(res: Response): Promise<string> {
  return new TextDecoder().decode(new Uint8Array(await res.arrayBuffer()));
}

describe('over a real socket', () => {
  test('JSON request and response through node:http', async () => {
    const r = await fetch(`${srv.url}/api/v1/test/items/5?page=2`);
    expect(r.status).toBe(200);
    expect(await r.json()).toMatchObject({ params: { item_id: 5 }, query: { page: 2 } });
  });

  test('SSE: events with ids, in order, then the stream ends', async () => {
    const r = await fetch(`${srv.url}/api/v1/test/stream`);
    expect(r.headers.get('content-type')).toContain('text/event-stream');
    const text = await readAll(r);
    expect(text).toContain('id: 1\nevent: item\ndata: {"i":1}\n\n');
    expect(text.indexOf('id: 3')).toBeGreaterThan(text.indexOf('id: 2'));
    expect(text.trimEnd().endsWith('data: {"status":"completed"}')).toBe(true);
  });

  test('415 and 413 over the wire', async () => {
    const r = await fetch(`${srv.url}/admin/maintenance/run`, {
      method: 'POST',
      body: 'x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(r.status).toBe(415);
  });
});

describe('graceful shutdown', () => {
  test('SIGTERM drain: in-flight finish, streams end with a final event, new connections refused', async () => {
    const app = await createTestApp({ routes: (s) => testRoutes(s, { streamItems: 100_000 }) });
    const server = await serve(app.app.kernel, { port: 0, host: '127.0.0.1' });
    const stream = await fetch(`${server.url}/api/v1/test/stream`);
    const reader = stream.body?.getReader();
    const first = await reader?.read();
    expect(new TextDecoder().decode(first?.value)).toContain('event: item');
    const closing = server.close(2000);
    let rest = '';
    for (;;) {
      const chunk = await reader?.read();
      if (!chunk || chunk.done) break;
      rest += new TextDecoder().decode(chunk.value);
    }
    expect(rest).toContain('event: shutdown');
    await closing;
    expect(app.app.kernel.inFlight()).toBe(0);
    await expect(fetch(`${server.url}/health/`)).rejects.toThrow();
    await app.close();
  });
});
