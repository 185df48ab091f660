import type { ValidateFunction } from 'ajv/dist/2020.js';
import { deref, listOperations, type OpenApiDoc } from './contract.ts';
import { SchemaCompiler, toIssues } from './schema-compiler.ts';

/** How the kernel checks its own responses against the contract (`RESPONSE_VALIDATION`). */
export type ResponseValidationMode = 'off' | 'log' | 'strict';

/** One response the contract does not allow. */
export interface ResponseViolation {
  operationId: string;
  method: string;
  path: string;
  status: number;
  problems: string[];
}

/**
 * Checks a response body against the contract's schema for (operationId, status). Used by tests to
 * catch a handler returning what the contract does not describe, and by the kernel itself when
 * `RESPONSE_VALIDATION` is `log` or `strict`.
 */
export class ResponseValidator {
  readonly #doc: OpenApiDoc;
  readonly #compiler: SchemaCompiler;
  readonly #ops: Map<string, Record<string, unknown>>;
  readonly #cache = new Map<string, ValidateFunction | null>();

  constructor(doc: OpenApiDoc) {
    this.#doc = doc;
    this.#compiler = new SchemaCompiler(doc);
    this.#ops = new Map(listOperations(doc).map((o) => [o.operationId, o.responses]));
  }

  #declared(operationId: string, status: number): Record<string, unknown> | undefined {
    const responses = this.#ops.get(operationId);
    if (!responses) throw new Error(`no operation ${operationId} in the contract`);
    return deref<Record<string, unknown> | undefined>(
      this.#doc,
      responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default,
    );
  }

  /** Problems found (empty when the body matches). Throws when the contract has no such response. */
  check(operationId: string, status: number, body: unknown): string[] {
    const key = `${operationId} ${status}`;
    let v = this.#cache.get(key);
    if (v === undefined) {
      const resp = this.#declared(operationId, status);
      if (!resp) throw new Error(`${operationId} declares no ${status} response`);
      const content = resp.content as Record<string, { schema?: Record<string, unknown> }> | undefined;
      const schema = content?.['application/json']?.schema;
      v = schema ? this.#compiler.compile(schema, { coerce: false }) : null;
      this.#cache.set(key, v);
    }
    if (!v) return [];
    // Validate a copy: Ajv's useDefaults would otherwise write into the caller's object.
    if (v(structuredClone(body))) return [];
    return toIssues(v.errors, 'response').map((i) => `${i.loc.join('.')}: ${i.msg} (${i.type})`);
  }

  /**
   * Everything the contract says about one response: the status is declared, a JSON body matches its
   * schema, and an error's `code` is one the response lists in `x-error-codes`. `body` undefined: no
   * JSON body to check (streams, HTML, an empty 204).
   */
  problems(operationId: string, status: number, body: unknown): string[] {
    const resp = this.#declared(operationId, status);
    if (!resp) return [`status ${status} is not declared`];
    const out = body === undefined ? [] : this.check(operationId, status, body);
    const code = (body as { code?: unknown } | null | undefined)?.code;
    const codes = resp['x-error-codes'];
    if (status >= 400 && typeof code === 'string' && Array.isArray(codes) && !codes.includes(code))
      out.push(`code ${code} is not in x-error-codes [${codes.join(', ')}]`);
    return out;
  }
}
