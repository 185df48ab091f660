/**
 * The suppliers of the getFare figures, in a process of their own: the emulators at a fixed latency
 * (`SANDBOX_LATENCY_MS`), each behind a pass-through proxy that records when each request arrived and
 * when its answer was sent back (the supplier's own span as the service sees it; the emulator's latency
 * applies per HTTP call, and some adapters make two, e.g. a token then the search).
 *
 * Kept out of the bench's own process so that building the three answers does not delay the client's
 * read of ours: the client times the first offer and the batch answer, and would otherwise share its
 * event loop with the emulators exactly while the answers are built.
 *
 * `node bench/fare-suppliers.ts <latency-ms>` sends `{ urls }` over IPC; the message `spans` is answered
 * `{ spans }` (and the list emptied), with times as `performance.timeOrigin + performance.now()` (ms, the
 * same scale in every process); `stop` closes everything and exits.
 */
import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startEmulators } from '../test/resilience/stack.ts';

export interface Span {
  supplier: string;
  start: number;
  end: number;
}

const now = () => performance.timeOrigin + performance.now();
const spans: Span[] = [];

async function spanProxy(supplier: string, target: string, delayMs: number) {
  const server = createServer((req, res) => {
    const start = now();
    if (delayMs > 0) req.pause();
    setTimeout(() => forward(req, res, start), delayMs);
  });
  const forward = (req: IncomingMessage, res: ServerResponse, start: number) => {
    req.resume();
    const up = request(
      `${target}${req.url}`,
      { method: req.method, headers: { ...req.headers, host: new URL(target).host } },
      (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
        r.on('end', () => spans.push({ supplier, start, end: now() }));
      },
    );
    up.on('error', () => res.destroy());
    req.pipe(up);
  };
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const emulators = await startEmulators(Number(process.argv[2] ?? 100));
// argv[3]: the flight suppliers' answers this many ms apart (the k-th of FLIGHT held k times as long
// before each call is forwarded); 0, the default, has every supplier answer at the same latency.
const stagger = Number(process.argv[3] ?? 0);
const FLIGHT = ['amadeus', 'duffel', 'mystifly'];
const proxies = await Promise.all(
  Object.entries(emulators.urls).map(
    async ([k, v]) => [k, await spanProxy(k, v as string, Math.max(0, FLIGHT.indexOf(k)) * stagger)] as const,
  ),
);
process.send?.({ urls: Object.fromEntries(proxies.map(([k, p]) => [k, p.url])) });
process.on('message', async (m) => {
  if (m === 'spans') process.send?.({ spans: spans.splice(0) });
  else if (m === 'stop') {
    for (const [, p] of proxies) await p.close();
    await emulators.close();
    process.exit(0);
  }
});
process.on('disconnect', () => process.exit(0));
