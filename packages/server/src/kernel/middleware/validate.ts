import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { Exchange } from '../context.ts';
import type { Operation, ParameterSpec, Schema } from '../contract.ts';
import { ValidationError, type ValidationIssue } from '../errors.ts';
import { type SchemaCompiler, toIssues } from '../schema-compiler.ts';

interface Compiled {
  path?: ValidateFunction;
  query?: ValidateFunction;
  header?: ValidateFunction;
  queryArrays: Set<string>;
  headerNames: string[];
  body?: ValidateFunction;
  bodyRequired: boolean;
}

function objectSchema(params: ParameterSpec[], lowerNames: boolean): Schema | undefined {
  if (params.length === 0) return undefined;
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const p of params) {
    const name = lowerNames ? p.name.toLowerCase() : p.name;
    properties[name] = p.schema ?? {};
    if (p.required || p.in === 'path') required.push(name);
  }
  return { type: 'object', properties, required };
}

/** At most this many input-hygiene entries in one 422 (a body can hold thousands of bad strings). */
const MAX_HYGIENE_ISSUES = 20;

/**
 * Values that pass a JSON schema but that no handler or database may see, whatever the operation:
 * - a NUL character (U+0000): PostgreSQL text and jsonb refuse it (`string_nul`);
 * - a lone UTF-16 surrogate (valid JSON `"\udfff"`): jsonb refuses it, text silently mangles it
 *   (`string_unpaired_surrogate`);
 * - a non-finite number: `1e309` in JSON, or `page=1e309` / `Infinity` coerced by Ajv (`finite_number`).
 * Walks strings (object keys included), numbers, arrays and objects; `loc` names the offending value.
 */
export function inputHygieneIssues(
  value: unknown,
  loc: (string | number)[],
  out: ValidationIssue[] = [],
): ValidationIssue[] {
  // Iterative with parent links: a 10 000-deep `[[[[…` body must neither overflow the stack nor build
  // 10 000 loc arrays; a loc is materialized only for an offending value.
  interface Node {
    value: unknown;
    key: string | number | undefined;
    parent: Node | undefined;
  }
  const locOf = (n: Node, extra?: string): (string | number)[] => {
    const keys: (string | number)[] = extra === undefined ? [] : [extra];
    for (let c: Node | undefined = n; c?.key !== undefined; c = c.parent) keys.push(c.key);
    return [...loc, ...keys.reverse()];
  };
  const stack: Node[] = [{ value, key: undefined, parent: undefined }];
  while (stack.length > 0 && out.length < MAX_HYGIENE_ISSUES) {
    const node = stack.pop() as Node;
    const v = node.value;
    if (typeof v === 'string') {
      const type = stringProblem(v);
      if (type) out.push({ loc: locOf(node), msg: PROBLEM_MSG[type], type });
    } else if (typeof v === 'number') {
      if (!Number.isFinite(v))
        out.push({ loc: locOf(node), msg: PROBLEM_MSG.finite_number, type: 'finite_number' });
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], key: i, parent: node });
    } else if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [k, child] = entries[i] as [string, unknown];
        const type = stringProblem(k);
        if (type) out.push({ loc: locOf(node, k), msg: PROBLEM_MSG[type], type });
        else stack.push({ value: child, key: k, parent: node });
      }
    }
  }
  return out.slice(0, MAX_HYGIENE_ISSUES);
}

type Problem = 'string_nul' | 'string_unpaired_surrogate' | 'finite_number';
const PROBLEM_MSG: Record<Problem, string> = {
  string_nul: 'String should not contain the NUL character (\\u0000)',
  string_unpaired_surrogate: 'String should not contain an unpaired UTF-16 surrogate',
  finite_number: 'Input should be a finite number',
};

/** With the `u` flag a valid surrogate pair is one code point; only a lone surrogate is category Cs. */
const LONE_SURROGATE = /\p{Cs}/u;

function stringProblem(s: string): Problem | undefined {
  if (s.includes('\u0000')) return 'string_nul';
  if (LONE_SURROGATE.test(s)) return 'string_unpaired_surrogate';
  return undefined;
}

/**
 * True when `value` is an object of strings, finite numbers, booleans and nulls only (path, query and
 * header values mostly are) none of which `inputHygieneIssues` would report: checked in one pass,
 * without its walk. Anything else (nested values, or a problem) takes the full walk.
 */
function flatAndClean(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const o = value as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    if (stringProblem(k)) return false;
    const v = o[k];
    if (typeof v === 'string') {
      if (stringProblem(v)) return false;
    } else if (typeof v === 'number') {
      if (!Number.isFinite(v)) return false;
    } else if (v !== null && v !== undefined && typeof v !== 'boolean') return false;
  }
  return true;
}

/** Adds the hygiene entries of `value` whose `loc` has no schema entry yet (one entry per field). */
function addHygieneIssues(issues: ValidationIssue[], value: unknown, part: string): void {
  if (flatAndClean(value)) return;
  const found = inputHygieneIssues(value, [part]);
  if (found.length === 0) return;
  const taken = new Set(issues.map((i) => i.loc.join('\u0000')));
  for (const i of found) if (!taken.has(i.loc.join('\u0000'))) issues.push(i);
}

const isArraySchema = (s: Schema | undefined) =>
  s?.type === 'array' || (Array.isArray(s?.type) && (s.type as string[]).includes('array'));

/** Compiles every operation's validators once; a contract schema Ajv rejects fails at start, not later. */
export function compileOperation(compiler: SchemaCompiler, op: Operation): Compiled {
  const byIn = (where: string) => op.parameters.filter((p) => p.in === where);
  const c: Compiled = {
    queryArrays: new Set(
      byIn('query')
        .filter((p) => isArraySchema(p.schema))
        .map((p) => p.name),
    ),
    headerNames: byIn('header').map((p) => p.name.toLowerCase()),
    bodyRequired: op.requestBody?.required ?? false,
  };
  const path = objectSchema(byIn('path'), false);
  const query = objectSchema(byIn('query'), false);
  const header = objectSchema(byIn('header'), true);
  if (path) c.path = compiler.compile(path, { coerce: true });
  if (query) c.query = compiler.compile(query, { coerce: true });
  if (header) c.header = compiler.compile(header, { coerce: true });
  if (op.requestBody?.schema) c.body = compiler.compile(op.requestBody.schema, { coerce: false });
  return c;
}

const isEmpty = (o: Record<string, unknown>) => {
  for (const _ in o) return false;
  return true;
};

/**
 * Validates path, query (coerced, defaults applied), headers and body against the contract; every
 * problem found becomes one entry of a single 422. Unknown query parameters are ignored, not refused.
 * Then, for every operation and every part (path, query, headers, body, unknown query parameters
 * included), the input hygiene rules of `inputHygieneIssues` (NUL, lone surrogates, non-finite numbers).
 * Synchronous: the kernel calls it in line; `validate` is the same as a middleware.
 */
export function inputValidator(opts: {
  compiler: SchemaCompiler;
  operations: Operation[];
}): (ex: Exchange) => void {
  const compiled = new Map<string, Compiled>();
  for (const op of opts.operations) compiled.set(op.operationId, compileOperation(opts.compiler, op));

  return function validateInput(ex) {
    const op = ex.operation;
    const c = op && compiled.get(op.operationId);
    if (!c) return;
    const issues: ValidationIssue[] = [];

    const params: Record<string, unknown> = { ...ex.rawParams };
    if (c.path && !c.path(params)) issues.push(...toIssues(c.path.errors, 'path'));

    const query: Record<string, unknown> = {};
    // An empty search has no parameters: no URLSearchParams is made for it.
    if (ex.url.search !== '') {
      const sp = ex.url.searchParams;
      for (const key of new Set(sp.keys())) {
        const all = sp.getAll(key);
        query[key] = c.queryArrays.has(key) ? all : all[0];
      }
    }
    if (c.query && !c.query(query)) issues.push(...toIssues(c.query.errors, 'query'));

    const headerValues: Record<string, unknown> = {};
    for (const name of c.headerNames) {
      const v = ex.request.headers.get(name);
      if (v !== null) headerValues[name] = v;
    }
    if (c.header && !c.header(headerValues)) issues.push(...toIssues(c.header.errors, 'header'));

    let body = ex.ctx.body;
    if (c.body) {
      if (body === undefined) {
        if (c.bodyRequired) issues.push({ loc: ['body'], msg: 'Field required', type: 'missing' });
      } else if (!c.body(body)) {
        issues.push(...toIssues(c.body.errors, 'body'));
      }
    } else if (op.requestBody === undefined) {
      body = body ?? undefined;
    }
    // After Ajv, so coerced values (page=1e309 -> Infinity) are seen as the handler would see them.
    // An empty part has nothing to check.
    if (!isEmpty(params)) addHygieneIssues(issues, params, 'path');
    if (!isEmpty(query)) addHygieneIssues(issues, query, 'query');
    if (!isEmpty(headerValues)) addHygieneIssues(issues, headerValues, 'header');
    if (body !== undefined) addHygieneIssues(issues, body, 'body');
    if (issues.length > 0) throw new ValidationError(issues);

    ex.ctx.params = params;
    ex.ctx.query = query;
    ex.ctx.body = body;
  };
}
