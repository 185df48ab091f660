/**
 * `NodeRequest.readBody`: the body read from the `IncomingMessage` itself (no web stream) gives the bytes
 * reading `body` gives, stops past the limit, and rejects when the client goes away mid-body. (Over the
 * wire, with the kernel: test/security/http-hygiene.test.ts, 413 / drain / 499.)
 */
import { createServer, type IncomingMessage, request } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { NodeRequest } from '../../src/kernel/node-request.ts';

let close: (() => void) | undefined;
afterEach(() => close?.());

/** A server that hands each request to `onRequest`; the client sends `chunks` as separate writes. */
async function exchange(
  chunks: Buffer[],
  onRequest: (req: IncomingMessage) => Promise<unknown>,
  o: { cut?: boolean } = {},
): Promise<unknown> {
  let settle: (v: unknown) => void = () => {};
  let started: () => void = () => {};
  const arrived = new Promise<void>((resolve) => {
    started = resolve;
  });
  const seen = new Promise<unknown>((resolve) => {
    settle = resolve;
  });
  const server = createServer((req, res) => {
    started();
    onRequest(req).then(
      (v) => {
        settle({ ok: v });
        res.end('done');
      },
      (err: unknown) => {
        settle({ failed: err });
        res.destroy();
      },
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  close = () => server.close();
  const port = (server.address() as AddressInfo).port;
  const req = request({
    port,
    host: '127.0.0.1',
    method: 'POST',
    path: '/',
    headers: { 'transfer-encoding': 'chunked' },
  });
  req.on('error', () => {});
  req.on('response', (res) => res.resume());
  for (const c of chunks) {
    req.write(c);
    await new Promise((r) => setImmediate(r));
  }
  if (o.cut) {
    // Cut once the server is reading the body.
    await arrived;
    req.destroy();
  } else req.end();
  return seen;
}

const parts = [Buffer.from('{"a":'), Buffer.from('"h\u00e9llo",'), Buffer.from('"b":[1,2,3]}')];

it('gives the same bytes as reading the web stream `body`, from several chunks', async () => {
  const direct = await exchange(parts, (req) => new NodeRequest(req).readBody(1024));
  const viaStream = await exchange(parts, async (req) => {
    const chunks: Uint8Array[] = [];
    for await (const c of new NodeRequest(req).body as ReadableStream<Uint8Array>) chunks.push(c);
    return Buffer.concat(chunks);
  });
  expect(Buffer.from((direct as { ok: Uint8Array }).ok)).toEqual(Buffer.concat(parts));
  expect(Buffer.from((viaStream as { ok: Uint8Array }).ok)).toEqual(Buffer.concat(parts));
});

it('answers null past the limit, and an empty body as no bytes', async () => {
  expect(await exchange(parts, (req) => new NodeRequest(req).readBody(8))).toEqual({ ok: null });
  const empty = (await exchange([], (req) => new NodeRequest(req).readBody(8))) as { ok: Uint8Array };
  expect(empty.ok.byteLength).toBe(0);
});

it('rejects when the client goes away before the body ended', async () => {
  const r = (await exchange([parts[0] as Buffer], (req) => new NodeRequest(req).readBody(1024), {
    cut: true,
  })) as {
    failed?: unknown;
  };
  expect(r.failed).toBeInstanceOf(Error);
});

it('a POST without Content-Length or Transfer-Encoding reads as an empty body, at once (optimizeEmptyRequests)', async () => {
  // The adapter's server option: such a request's body stream is ended before the handler runs, and
  // emits no 'data' or 'end': readBody and body must not wait for them.
  let settle: (v: unknown) => void = () => {};
  const seen = new Promise<unknown>((resolve) => {
    settle = resolve;
  });
  const server = createServer({ optimizeEmptyRequests: true }, (req, res) => {
    const r = new NodeRequest(req);
    void Promise.all([r.readBody(1024), new Response(r.body).arrayBuffer()]).then(([direct, viaStream]) => {
      settle({ ended: req.readableEnded, direct: direct?.byteLength, viaStream: viaStream.byteLength });
      res.end('done');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  close = () => server.close();
  const port = (server.address() as AddressInfo).port;
  const socket = connect(port, '127.0.0.1');
  socket.on('data', () => {});
  socket.write('POST / HTTP/1.1\r\nHost: t\r\n\r\n');
  expect(await seen).toEqual({ ended: true, direct: 0, viaStream: 0 });
  socket.destroy();
});
