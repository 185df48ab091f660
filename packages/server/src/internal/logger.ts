import pino, { type DestinationStream, type Logger as PinoLogger } from 'pino';
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
  plain.add(logger);
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

/** Loggers made by `createLogger`: no mixin, redaction, hooks or custom formatters, `msg` as the message key. */
const plain = new WeakSet<object>();

type Json = string | number | boolean | null | undefined;
type LineWriter = (fields: Record<string, Json>, msg: string) => void;
const writers = new WeakMap<object, LineWriter>();
const q = JSON.stringify;

/**
 * The access line's writer for a logger made here: the JSON line pino would write for
 * `logger.info(fields, msg)`, built by string concatenation from the fields as they are (each value a
 * JSON scalar; `undefined` left out, as pino does) and handed to the logger's stream, without pino's
 * generic walk over the object (about 1.1 µs against 0.3 per line). Any other logger: undefined (the
 * caller uses `logger.info`).
 */
export function lineWriter(logger: PinoLogger): LineWriter | undefined {
  if (!plain.has(logger)) return undefined;
  let writer = writers.get(logger);
  if (writer) return writer;
  const l = logger as unknown as Record<symbol, unknown>;
  const stream = l[pino.symbols.streamSym] as { write(line: string): unknown };
  const chindings = l[pino.symbols.chindingsSym] as string;
  const time = l[pino.symbols.timeSym] as () => string;
  const level = logger.levels.values.info;
  writer = (fields, msg) => {
    let line = `{"level":${level}${time()}${chindings}`;
    for (const key in fields) {
      const v = fields[key];
      if (v !== undefined) line += `,"${key}":${q(v)}`;
    }
    stream.write(`${line},"msg":${q(msg)}}\n`);
  };
  writers.set(logger, writer);
  return writer;
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
