import type { ValidateFunction } from 'ajv/dist/2020.js';
import { deref, listOperations, type OpenApiDoc } from './contract.ts';
import { SchemaCompiler, toIssues } from './schema-compiler.ts';

/**
 * Checks a response body against the contract's schema for (operationId, status). Used by tests to
 * catch a handler returning what the contract does not describe.
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

  /** Problems found (empty when the body matches). Throws when the contract has no such response. */
  check(operationId: string, status: number, body: unknown): string[] {
    const key = `${operationId} ${status}`;
    let v = this.#cache.get(key);
    if (v === undefined) {
      const responses = this.#ops.get(operationId);
      if (!responses) throw new Error(`no operation ${operationId} in the contract`);
      const resp = deref<Record<string, unknown> | undefined>(
        this.#doc,
        responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default,
      );
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
}
