import { writeSync } from 'node:fs';

/** Lines kept before a write is forced without waiting for the timer. */
const HIGH_WATER = 16 * 1024;
/** While the reader's pipe is full (EAGAIN), the next try. */
const RETRY_MS = 5;
/** A synchronous flush on exit waits this long at most for a full pipe. */
const EXIT_PATIENCE_MS = 2000;

const pending = new Set<LineBuffer>();
let hooked = false;

/**
 * stdout for the service's log lines (issue 31, F3): a line is appended to a string, and the string is
 * written with one `write(2)` per event-loop turn (`setImmediate`), or at once past 16 KiB. Under load one
 * write carries every line of the turn (about 30 at 32 connections: 0.03 writes per request, counted in
 * /proc/<pid>/io); an idle server's line leaves before the loop waits again, well under a millisecond.
 * Measured (bench/README.md "The kernel with default logging"), per request: pino's synchronous stdout
 * cost about 8 µs of server CPU, sonic-boom's asynchronous mode (a libuv pool thread per write, and a
 * wake-up of the loop when it is done) about 5, this 2.5 with pino's serializer (less with the access
 * line's own writer, access-line.ts). A write every millisecond instead of every turn was tried: the same
 * 0.03 writes per request under load, so not kept.
 *
 * A pipe whose reader does not keep up (EAGAIN: node makes a piped stdout non-blocking) is tried again
 * 5 ms later; the lines wait in memory meanwhile, the event loop never does. A partial write keeps the
 * rest. A closed reader (EPIPE) ends the logging. `flushSync` (on exit: one 'exit' hook for every buffer
 * with lines) writes what is left, waiting up to 2 s for a full pipe.
 */
export class LineBuffer {
  readonly #fd: number;
  #lines = '';
  /** The bytes of a write the pipe took only part of, before `#lines`. */
  #rest: Buffer | undefined;
  #scheduled = false;
  #closed = false;
  readonly #flush = () => {
    this.#scheduled = false;
    this.#writeOut();
  };

  constructor(fd = 1) {
    this.#fd = fd;
  }

  write(line: string): boolean {
    if (this.#closed) return true;
    this.#lines += line;
    if (this.#lines.length >= HIGH_WATER && !this.#rest) this.#writeOut();
    else if (!this.#scheduled) this.#schedule(false);
    return true;
  }

  /** Writes everything now, waiting (bounded) for a full pipe: for the exit path. */
  flushSync(): void {
    const until = Date.now() + EXIT_PATIENCE_MS;
    const wait = new Int32Array(new SharedArrayBuffer(4));
    while (!this.#closed && (this.#rest || this.#lines) && Date.now() < until) {
      if (!this.#writeOnce()) Atomics.wait(wait, 0, 0, 1);
    }
    pending.delete(this);
  }

  #schedule(later: boolean): void {
    this.#scheduled = true;
    if (later) setTimeout(this.#flush, RETRY_MS);
    else setImmediate(this.#flush);
    pending.add(this);
    if (!hooked) {
      hooked = true;
      process.once('exit', () => {
        for (const b of pending) b.flushSync();
      });
    }
  }

  #writeOut(): void {
    while (this.#rest || this.#lines) {
      if (!this.#writeOnce()) {
        if (!this.#scheduled && !this.#closed) this.#schedule(true);
        return;
      }
    }
    // Written out at 16 KiB while a flush is scheduled: lines written after this are that flush's, and
    // the exit hook's should the process end first (so the buffer stays in `pending` until the flush).
    if (!this.#scheduled) pending.delete(this);
  }

  /** One write(2); false when the pipe is full (the caller tries again later). */
  #writeOnce(): boolean {
    const chunk = this.#rest ?? Buffer.from(this.#lines);
    if (!this.#rest) this.#lines = '';
    this.#rest = undefined;
    try {
      const n = writeSync(this.#fd, chunk);
      if (n < chunk.length) this.#rest = chunk.subarray(n);
      return true;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN' || code === 'EWOULDBLOCK') {
        this.#rest = chunk;
        return false;
      }
      // EPIPE (nobody reads any more), EBADF: nowhere to write; the lines are dropped from now on.
      this.#closed = true;
      this.#lines = '';
      pending.delete(this);
      return false;
    }
  }
}
