import type { Logger as PinoLogger } from 'pino';
import type { Exchange } from './context.ts';
import { runSse, type SseRun, type SseTransport, sseStream } from './sse.ts';
import type { SseMessage } from './types.ts';

/**
 * The kernel's requests in flight: the count (`inFlight()`, open streams included), the open streams of
 * the node path, and the shutdown that ends them with a final event.
 */
export class RequestsInFlight {
  /** Requests (including open streams) not yet finished; the kernel counts a request in and out. */
  active = 0;
  readonly #shutdownController = new AbortController();
  /** Open streams of the node path (`dispatch`), ended by `shutdown()`. */
  readonly #streams = new Set<SseRun>();
  readonly #logger: PinoLogger;

  constructor(logger: PinoLogger) {
    this.#logger = logger;
  }

  get shuttingDown(): AbortSignal {
    return this.#shutdownController.signal;
  }

  /** Ends open SSE streams with a final event; new streams end at once. */
  shutdown(): void {
    this.#shutdownController.abort();
    for (const run of [...this.#streams]) run.shutdown();
  }

  /**
   * An open stream of the node path: counted in flight until it ends, ended with the final `shutdown`
   * event by `shutdown()`. It keeps only the request id (the exchange is not held for the stream's life).
   */
  openStream(requestId: string, source: AsyncIterable<SseMessage>, transport: SseTransport): SseRun {
    this.active += 1;
    let run: SseRun | undefined;
    run = runSse(source, transport, {
      onClose: () => {
        this.active -= 1;
        if (run) this.#streams.delete(run);
      },
      onError: (err) => this.#logger.child({ req_id: requestId }).error({ err }, 'stream failed'),
    });
    if (run.finished) return run;
    if (this.#shutdownController.signal.aborted) run.shutdown();
    else this.#streams.add(run);
    return run;
  }

  /** A stream of the web path (`handle`) as a `Response` body: counted in flight until it closes. */
  webStream(ex: Exchange, source: AsyncIterable<SseMessage>): ReadableStream<Uint8Array> {
    this.active += 1;
    let closed = false;
    return sseStream(source, {
      signal: ex.ctx.signal,
      shutdown: this.#shutdownController.signal,
      onClose: () => {
        if (!closed) {
          closed = true;
          this.active -= 1;
        }
      },
      onError: (err) => ex.ctx.log.error({ err }, 'stream failed'),
    });
  }
}
