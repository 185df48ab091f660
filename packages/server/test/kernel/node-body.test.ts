/**
 * `NodeRequest.readBody`: the body read from the `IncomingMessage` itself (no web stream) gives the bytes
 * reading `body` gives, stops past the limit, and rejects when the client goes away mid-body. (Over the
 * wire, with the kernel: test/security/http-hygiene.test.ts, 413 / drain / 499.)
 */
import { createServer, type IncomingMessage, request } from 'node:http';
import type { AddressInfo } from 'node:net';
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
