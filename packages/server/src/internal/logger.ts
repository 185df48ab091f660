import pino, { type DestinationStream, type Logger as PinoLogger } from 'pino';
import { markPlain } from './access-line.ts';
import { LineBuffer } from './log-destination.ts';

/**
 * The service's logger (issue 31, F3): pino at `LOG_LEVEL`, one JSON line per record, to stdout through a
 * `LineBuffer` (`log-destination.ts`): the lines of one event-loop turn leave in one write, an idle
 * server's line before the loop waits again, a full pipe never blocks the loop, and what is buffered is
 * written on exit (the buffer's own 'exit' hook, and `flushLogs` on every way out of `main.ts`). What a
 * kill -9 can lose: the lines of the turn in progress (and, while the reader's pipe is full, the lines
 * waiting for it); a line already written is in the pipe, the reader's.
 */
export function createLogger(level: string, destination?: DestinationStream): PinoLogger {
  const logger = pino({ level, base: { service: 'travel-server' } }, destination ?? new LineBuffer(1));
  // No mixin, redaction, hooks or custom formatters: the access line may be written without pino's walk.
  markPlain(logger);
  return logger;
}

/**
 * Writes what the logger's `LineBuffer` still holds, synchronously (before `process.exit`, after the last
 * line of a shutdown). A logger writing elsewhere (a test's stream) is left alone.
 */
export function flushLogs(logger: PinoLogger): void {
  const stream = (logger as unknown as Record<symbol, unknown>)[pino.symbols.streamSym];
  if (stream instanceof LineBuffer) stream.flushSync();
}

/**
 * The logger every layer writes to (pino's shape): defined on the ground floor so storage, jobs and the
 * supplier adapters can take one without importing the kernel. `kernel/types.ts` re-exports it.
 */
export interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
  debug(obj: object, msg?: string): void;
}
