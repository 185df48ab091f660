import pino, { type Logger as PinoLogger } from 'pino';

/**
 * Whether `JSON.stringify` would escape something in `s`: `"`, `\`, a C0 control, or a surrogate (paired
 * or not: `JSON.stringify` tells a pair from a lone one). Everything else (other non-ASCII, U+2028, DEL)
 * it writes as it is.
 */
function needsEscape(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return true;
  }
  return false;
}

/** `JSON.stringify(s)` for a string: the same text, without the stringifier for a string that needs none. */
export const jsonString = (s: string): string => (needsEscape(s) ? JSON.stringify(s) : `"${s}"`);

/** A field whose type the writer does not know for sure: JSON as pino writes it (`undefined` never comes here). */
const jsonValue = (v: string | number | null): string =>
  typeof v === 'string' ? jsonString(v) : typeof v === 'number' && Number.isFinite(v) ? `${v}` : 'null';

/**
 * `JSON.stringify(Math.round(ms * 10) / 10)` for a duration in milliseconds: integer digits only (a
 * tenth is its own digit), so no double is printed. Negative, huge or non-finite values take the
 * general path.
 */
export function tenths(ms: number): string {
  const t = Math.round(ms * 10);
  if (!(t >= 0 && t < 1e15)) return JSON.stringify(t / 10);
  const d = t % 10;
  const whole = (t - d) / 10;
  return d === 0 ? `${whole}` : `${whole}.${d}`;
}

/**
 * The access line's fields, in the order they are written (the order of the object pino was given:
 * `test/observability/log-flush.test.ts` compares the two lines).
 */
export interface AccessFields {
  req_id: string;
  method: string;
  path: string;
  operation: string;
  status: number;
  /** Milliseconds; written rounded to a tenth. */
  ms: number;
  user_id: string | null;
  company_id: number | null;
  api_key_id: string | null;
  ip: string;
  user_agent: string | null;
  /** Left out when undefined (tracing off), as pino leaves out an undefined field. */
  trace_id: string | undefined;
}

export type AccessWriter = (f: AccessFields) => void;

/** Loggers made by `createLogger` (logger.ts): no mixin, redaction, hooks or custom formatters. */
const plain = new WeakSet<object>();

/** Marks a logger `createLogger` made: `accessWriter` may write its lines itself. */
export function markPlain(logger: PinoLogger): void {
  plain.add(logger);
}

/**
 * The access line's writer for a logger `createLogger` made: the JSON line pino writes for
 * `logger.info(fields, 'request')`, field by field in a fixed order (no walk over the object, no
 * stringifier for a value that needs no escaping), handed to the logger's stream. The caller checks the
 * level. Any other logger: undefined (the caller uses `logger.info`).
 */
export function accessWriter(logger: PinoLogger): AccessWriter | undefined {
  if (!plain.has(logger)) return undefined;
  const l = logger as unknown as Record<symbol, unknown>;
  const stream = l[pino.symbols.streamSym] as { write(line: string): unknown };
  const chindings = l[pino.symbols.chindingsSym] as string;
  const time = l[pino.symbols.timeSym] as () => string;
  const head = `{"level":${logger.levels.values.info}`;
  // The fields around `ms` as text, remade only when they change (a server answering the same route to
  // the same caller writes the same text each time): the route's, and the caller's.
  let method = '';
  let path = '';
  let operation = '';
  let status = Number.NaN;
  let route = '';
  let caller: readonly unknown[] = [];
  let callerText = '';
  return (f) => {
    if (f.method !== method || f.path !== path || f.operation !== operation || f.status !== status) {
      method = f.method;
      path = f.path;
      operation = f.operation;
      status = f.status;
      route = `,"method":${jsonString(method)},"path":${jsonString(path)},"operation":${jsonString(operation)},"status":${jsonValue(status)},"ms":`;
    }
    if (
      f.user_id !== caller[0] ||
      f.company_id !== caller[1] ||
      f.api_key_id !== caller[2] ||
      f.ip !== caller[3] ||
      f.user_agent !== caller[4] ||
      caller.length === 0
    ) {
      caller = [f.user_id, f.company_id, f.api_key_id, f.ip, f.user_agent];
      callerText = `,"user_id":${jsonValue(f.user_id)},"company_id":${jsonValue(f.company_id)},"api_key_id":${jsonValue(f.api_key_id)},"ip":${jsonString(f.ip)},"user_agent":${jsonValue(f.user_agent)}`;
    }
    const trace = f.trace_id === undefined ? '' : `,"trace_id":${jsonString(f.trace_id)}`;
    stream.write(
      `${head}${time()}${chindings},"req_id":${jsonString(f.req_id)}${route}${tenths(f.ms)}${callerText}${trace},"msg":"request"}\n`,
    );
  };
}
