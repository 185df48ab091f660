/**
 * A loopback HTTP proxy in front of the test server that records every request it forwards (method,
 * path, the Authorization / X-API-Key / Idempotency-Key it carried, the status answered): how tests count
 * refresh calls and see which token or key each attempt used. Streams (SSE) are piped through unchanged.
 */
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Seen {
  method: string;
  path: string;
  authorization: string | undefined;
  apiKey: string | undefined;
  idempotencyKey: string | undefined;
  status: number | undefined;
}

export interface CountingProxy {
  url: string;
  seen: Seen[];
  /** Requests to `path` (exact pathname) seen so far. */
  count(method: string, path: string): number;
  reset(): void;
  close(): Promise<void>;
}

export async function startCountingProxy(target: string): Promise<CountingProxy> {
  const upstream = new URL(target);
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const header = (name: string) => {
      const value = req.headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    const record: Seen = {
      method: req.method ?? 'GET',
      path: new URL(req.url ?? '/', 'http://x').pathname,
      authorization: header('authorization'),
      apiKey: header('x-api-key'),
      idempotencyKey: header('idempotency-key'),
      status: undefined,
    };
    seen.push(record);
    const forward = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: upstream.host },
      },
      (answer) => {
        record.status = answer.statusCode;
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    count: (method, path) => seen.filter((s) => s.method === method && s.path === path).length,
    reset: () => void seen.splice(0),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
