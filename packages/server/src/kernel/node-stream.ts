import type { ServerResponse } from 'node:http';
import type { Reply } from './kernel-api.ts';
import type { SseTransport } from './sse.ts';

/**
 * A stream reply: the headers at once, then the kernel's stream writes to `res` directly (each message's
 * bytes, shared by every reader of one search, go straight to the socket). The client going away ends it.
 */
export function writeStream(res: ServerResponse, reply: Extract<Reply, { stream: unknown }>): void {
  res.writeHead(reply.status, reply.headers);
  res.flushHeaders();
  const run = reply.stream(new ResponseTransport(res));
  if (res.destroyed) run.closed();
  else res.once('close', () => run.closed());
}

/** A stream's bytes to the node response (a class: one per open stream, methods shared). */
class ResponseTransport implements SseTransport {
  readonly res: ServerResponse;
  constructor(res: ServerResponse) {
    this.res = res;
  }
  write(bytes: Uint8Array): void {
    if (!this.res.destroyed) this.res.write(bytes);
  }
  // The socket's own cork: the response's (`res.cork`) hands the held chunks to an uncorked socket one
  // by one on `uncork` (a syscall each). Corked here, a burst, its chunk framing and an `end` leave in
  // one writev.
  cork(): void {
    this.res.socket?.cork();
  }
  uncork(): void {
    this.res.socket?.uncork();
  }
  get buffered(): number {
    return this.res.writableLength;
  }
  onDrain(fn: () => void): void {
    this.res.once('drain', fn);
  }
  end(): void {
    this.res.end();
  }
  destroy(): void {
    this.res.destroy();
  }
}
