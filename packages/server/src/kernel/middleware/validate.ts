import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { Middleware } from '../compose.ts';
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

/**
 * Validates path, query (coerced, defaults applied), headers and body against the contract; every
 * problem found becomes one entry of a single 422. Unknown query parameters are ignored, not refused.
 */
export function validate(opts: { compiler: SchemaCompiler; operations: Operation[] }): Middleware {
  const compiled = new Map<string, Compiled>();
  for (const op of opts.operations) compiled.set(op.operationId, compileOperation(opts.compiler, op));

  return async function validateMiddleware(ex, next) {
    const op = ex.operation;
    const c = op && compiled.get(op.operationId);
    if (!c) return next();
    const issues: ValidationIssue[] = [];

    const params: Record<string, unknown> = { ...ex.rawParams };
    if (c.path && !c.path(params)) issues.push(...toIssues(c.path.errors, 'path'));

    const query: Record<string, unknown> = {};
    for (const key of new Set(ex.url.searchParams.keys())) {
      const all = ex.url.searchParams.getAll(key);
      query[key] = c.queryArrays.has(key) ? all : all[0];
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
    if (issues.length > 0) throw new ValidationError(issues);

    ex.ctx.params = params;
    ex.ctx.query = query;
    ex.ctx.body = body;
    await next();
  };
}
