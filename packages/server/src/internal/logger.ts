import pino, { type DestinationStream, type Logger as PinoLogger } from 'pino';

/**
 * The service's logger (issue 31, F3): pino at `LOG_LEVEL`, one JSON line per record, written to stdout
 * asynchronously. A line is appended to sonic-boom's buffer and the write is started at once (no
 * `minLength`), so an idle server's line leaves within a millisecond; under load the lines made while one
 * write is on its way leave together in the next (up to 16 KiB), one syscall for many requests instead of
 * one each, and the event loop never blocks on a full pipe. What is still in the buffer is written
 * synchronously on exit (`flushLogs`, called on every way out of `main.ts`, and pino's own exit hook).
 * What a kill -9 can lose: the lines not yet handed to the kernel, i.e. those made while the last write
 * was on its way (milliseconds of lines); a line already written to the pipe is the reader's.
 */
export function createLogger(level: string, destination?: DestinationStream): PinoLogger {
  const logger = pino(
    { level, base: { service: 'travel-server' } },
    destination ?? pino.destination({ dest: 1, sync: false }),
  );
  plain.add(logger);
  return logger;
}

/**
 * Writes what the logger's asynchronous destination still holds, synchronously. Without `exiting`, a
 * write already on its way is left to finish (the event loop is still running; the lines after it follow
 * in order) and nothing is done. `exiting` (before `process.exit`, in the 'exit' event): the buffered
 * lines are written now, even while a write is on its way (they may then land before that write's
 * lines, which the exiting process may not finish). A logger without such a destination (a test's
 * stream) is left alone.
 */
export function flushLogs(logger: PinoLogger, exiting = false): void {
  const stream = (logger as unknown as Record<symbol, unknown>)[pino.symbols.streamSym] as
    | { flushSync?: () => void; fd?: number; destroyed?: boolean; _writing?: boolean }
    | undefined;
  if (!stream || typeof stream.flushSync !== 'function' || stream.destroyed || (stream.fd ?? -1) < 0) return;
  if (stream._writing && !exiting) return;
  try {
    stream.flushSync();
  } catch {
    // A closed stdout (EPIPE) has nobody left to read the lines.
  }
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
