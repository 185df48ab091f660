/**
 * `travel api` without the network: which contract operation a METHOD + path names, and the request to
 * send (typed `-f` fields, query, body, the Idempotency-Key the contract asks for).
 */
import { readFileSync } from 'node:fs';
import { UsageError } from './errors.ts';
import { type Idempotency, OPERATIONS } from './operations.generated.ts';

export interface ResolvedOperation {
  method: string;
  /** The contract's path template, e.g. `/api/v1/bookings/{booking_id}`. */
  template: string;
  operationId: string;
  idempotency: Idempotency;
  /** The concrete path to request (without the query string). */
  path: string;
}

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

interface Matcher {
  row: (typeof OPERATIONS)[number];
  pattern: RegExp;
  /** Literal path segments: `/admin/bookings/reconciliation` beats `/admin/bookings/{booking_id}`. */
  literals: number;
}

let matchers: Matcher[] | undefined;
function allMatchers(): Matcher[] {
  matchers ??= OPERATIONS.map((row) => {
    const template = row[1];
    const source = template
      .split(/(\{[^}]+\})/)
      .map((part) => (part.startsWith('{') ? '([^/]+)' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
      .join('');
    return {
      row,
      pattern: new RegExp(`^${source}$`),
      literals: template.split('/').filter((s) => s && !s.startsWith('{')).length,
    };
  });
  return matchers;
}

/** `bookings/42` and `/bookings/42` mean `/api/v1/bookings/42` unless the path exists as written. */
function candidates(path: string): string[] {
  const absolute = path.startsWith('/') ? path : `/${path}`;
  return absolute.startsWith('/api/') ? [absolute] : [absolute, `/api/v1${absolute}`];
}

/** The operation for METHOD + concrete path, or undefined. */
export function resolveOperation(method: string, rawPath: string): ResolvedOperation | undefined {
  const upper = method.toUpperCase();
  const path = rawPath.split('?')[0] ?? '';
  for (const candidate of candidates(path)) {
    const hits = allMatchers()
      .filter((m) => m.row[0] === upper && m.pattern.test(candidate))
      .sort((a, b) => b.literals - a.literals);
    const best = hits[0];
    if (best) {
      const [m, template, operationId, idempotency] = best.row;
      return { method: m, template, operationId, idempotency, path: candidate };
    }
  }
  return undefined;
}

/** The methods the contract has for a path (for the "did you mean" of an unknown METHOD + path). */
export function methodsFor(rawPath: string): string[] {
  const path = rawPath.split('?')[0] ?? '';
  const found = new Set<string>();
  for (const candidate of candidates(path))
    for (const m of allMatchers()) if (m.pattern.test(candidate)) found.add(m.row[0]);
  return [...found];
}

/**
 * A `-f key=value` value: `true`/`false`/`null`, numbers, JSON objects, arrays and "quoted strings" as
 * JSON; `@file` the file's contents (parsed when the file name ends in .json); anything else a string.
 */
export function typedValue(raw: string, readFile: (path: string) => string = readText): unknown {
  if (raw.startsWith('@') && raw.length > 1) {
    const file = raw.slice(1);
    const text = readFile(file);
    if (!file.endsWith('.json')) return text.replace(/\r?\n$/, '');
    try {
      return JSON.parse(text);
    } catch {
      throw new UsageError(`-f …=@${file}: the file is not JSON`);
    }
  }
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  if (raw === 'null') return null;
  if (/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(raw)) return Number(raw);
  if (/^[[{"]/.test(raw)) {
    try {
      return JSON.parse(raw);
    } catch {
      return raw;
    }
  }
  return raw;
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

/**
 * Sets `key`, `key[sub]` or `key[]` (append) on `target`, as `gh api -F` does:
 * `-f passengers[]=@ada.json -f contact[email]=a@b.test`.
 */
export function setField(target: Record<string, unknown>, key: string, value: unknown): void {
  const parts = key.match(/^([^[\]]+)((?:\[[^\]]*\])*)$/);
  if (!parts?.[1]) throw new UsageError(`-f ${key}=…: the key must be name, name[sub] or name[]`);
  const path = [parts[1], ...[...(parts[2] ?? '').matchAll(/\[([^\]]*)\]/g)].map((m) => m[1] ?? '')];
  let node: Record<string, unknown> | unknown[] = target;
  for (let i = 0; i < path.length; i++) {
    const segment = path[i] as string;
    const last = i === path.length - 1;
    const nextIsAppend = path[i + 1] === '';
    if (Array.isArray(node)) {
      if (segment !== '') throw new UsageError(`-f ${key}=…: [] must come last`);
      if (last) node.push(value);
      else {
        const child = nextIsAppend ? [] : {};
        node.push(child);
        node = child;
      }
      continue;
    }
    if (last) {
      node[segment] = value;
      break;
    }
    const existing: unknown = node[segment];
    const child: Record<string, unknown> | unknown[] =
      existing && typeof existing === 'object'
        ? (existing as Record<string, unknown>)
        : nextIsAppend
          ? []
          : {};
    node[segment] = child;
    node = child;
  }
}

/** Splits `key=value` (the first `=`). */
export function splitPair(pair: string, flag: string): [string, string] {
  const at = pair.indexOf('=');
  if (at <= 0) throw new UsageError(`${flag} ${pair}: expected key=value`);
  return [pair.slice(0, at), pair.slice(at + 1)];
}

export interface ApiInput {
  method: string;
  path: string;
  fields: string[];
  query: string[];
  headers: string[];
  /** The parsed --input document, when given. */
  input?: unknown;
  idempotencyKey?: string | undefined;
}

export interface ApiRequest {
  operation: ResolvedOperation;
  query: Record<string, unknown>;
  body: unknown;
  headers: Record<string, string>;
}

/** Everything `travel api` sends, decided before any network: usage errors (exit 2) end here. */
export function buildApiRequest(
  input: ApiInput,
  newKey: () => string = () => globalThis.crypto.randomUUID(),
  readFile?: (path: string) => string,
): ApiRequest {
  const method = input.method.toUpperCase();
  if (!METHODS.has(method))
    throw new UsageError(`METHOD "${input.method}": one of ${[...METHODS].join(', ')}`);
  const operation = resolveOperation(method, input.path);
  if (!operation) {
    const methods = methodsFor(input.path);
    throw new UsageError(
      methods.length > 0
        ? `${method} ${input.path} is not in the contract; that path takes ${methods.join(', ')}`
        : `no operation of the contract matches ${input.path} (see openapi.json or \`travel api --list\`)`,
    );
  }
  const query: Record<string, unknown> = {};
  const inline = input.path.split('?')[1];
  if (inline) for (const [k, v] of new URLSearchParams(inline)) appendQuery(query, k, v);
  for (const pair of input.query) {
    const [k, v] = splitPair(pair, '--query');
    appendQuery(query, k, v);
  }
  // GET and DELETE have no body: their fields are query parameters (as `gh api` does).
  const fieldsInQuery = method === 'GET' || method === 'DELETE';
  let body: unknown = input.input;
  if (input.fields.length > 0) {
    if (
      !fieldsInQuery &&
      body !== undefined &&
      (typeof body !== 'object' || body === null || Array.isArray(body))
    )
      throw new UsageError('-f adds keys to an object: --input must hold a JSON object to combine them');
    const target = fieldsInQuery ? {} : ((body as Record<string, unknown> | undefined) ?? {});
    for (const pair of input.fields) {
      const [k, v] = splitPair(pair, '-f');
      setField(target, k, typedValue(v, readFile));
    }
    if (fieldsInQuery) for (const [k, v] of Object.entries(target)) appendQuery(query, k, v);
    else body = target;
  }
  if (fieldsInQuery && body !== undefined) throw new UsageError(`${method} takes no body: drop --input`);
  const headers: Record<string, string> = {};
  for (const line of input.headers) {
    const at = line.indexOf(':');
    if (at <= 0) throw new UsageError(`-H ${line}: expected "Name: value"`);
    headers[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  const hasKey = Object.keys(headers).some((h) => h.toLowerCase() === 'idempotency-key');
  if (input.idempotencyKey && !hasKey) headers['Idempotency-Key'] = input.idempotencyKey;
  else if (operation.idempotency !== 'none' && !hasKey) headers['Idempotency-Key'] = newKey();
  return { operation, query, body, headers };
}

function appendQuery(query: Record<string, unknown>, key: string, value: unknown): void {
  const existing = query[key];
  if (existing === undefined) query[key] = value;
  else query[key] = Array.isArray(existing) ? [...existing, value] : [existing, value];
}
