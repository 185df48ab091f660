import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { OpenApiDoc, Schema } from './contract.ts';
import type { ValidationIssue } from './errors.ts';

const CONTRACT_ID = 'urn:travel:contract';
// ajv-formats is CommonJS; under nodenext its default import is the module object.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as unknown as (ajv: Ajv2020) => void;

/** Rewrites local refs so an operation's schema can point into the contract's components. */
function rebase(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(rebase);
  if (node && typeof node === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) {
      out[k] = k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `${CONTRACT_ID}${v}` : rebase(v);
    }
    return out;
  }
  return node;
}

/**
 * Compiles contract schemas with Ajv (JSON Schema 2020-12, as OpenAPI 3.1 uses). Two engines: one that
 * coerces strings (path, query, headers arrive as text) and one that does not (JSON bodies must already
 * have the right types). Both apply `default`s.
 */
export class SchemaCompiler {
  readonly #coercing: Ajv2020;
  readonly #strict: Ajv2020;

  constructor(doc: OpenApiDoc) {
    const make = (coerce: boolean) => {
      const ajv = new Ajv2020({
        strict: false,
        allErrors: true,
        // Errors carry their schema: an unmatched anyOf is reported as its closest branch (toIssues).
        verbose: true,
        useDefaults: true,
        coerceTypes: coerce ? 'array' : false,
        // NaN/Infinity are not numbers (a JSON body's 1e309 parses to Infinity). Coerced query values are
        // re-checked by the validate middleware (Ajv does not re-check after coercing "1e309").
        strictNumbers: true,
        validateFormats: true,
      });
      addFormats(ajv);
      ajv.addSchema({ $id: CONTRACT_ID, components: doc.components ?? {} });
      return ajv;
    };
    this.#coercing = make(true);
    this.#strict = make(false);
  }

  compile(schema: Schema, opts: { coerce: boolean }): ValidateFunction {
    return (opts.coerce ? this.#coercing : this.#strict).compile(rebase(schema) as Schema);
  }
}

const TYPE_NAMES: Record<string, string> = {
  required: 'missing',
  enum: 'enum',
  const: 'literal_error',
  format: 'value_error',
  minLength: 'string_too_short',
  maxLength: 'string_too_long',
  pattern: 'string_pattern_mismatch',
  minimum: 'greater_than_equal',
  exclusiveMinimum: 'greater_than',
  maximum: 'less_than_equal',
  exclusiveMaximum: 'less_than',
  minItems: 'too_short',
  maxItems: 'too_long',
  additionalProperties: 'extra_forbidden',
  unevaluatedProperties: 'extra_forbidden',
};

/** Ajv errors -> HTTPValidationError entries, one per problem, `loc` rooted at `part`. */
export function toIssues(errors: ErrorObject[] | null | undefined, part: string): ValidationIssue[] {
  const seen = new Set<string>();
  const out: ValidationIssue[] = [];
  for (const e of closestBranches(errors ?? [])) {
    const loc: (string | number)[] = [part];
    for (const seg of e.instancePath.split('/').slice(1)) {
      const s = seg.replace(/~1/g, '/').replace(/~0/g, '~');
      loc.push(/^\d+$/.test(s) ? Number(s) : s);
    }
    let type = TYPE_NAMES[e.keyword] ?? e.keyword;
    let msg = e.message ?? 'invalid';
    if (e.keyword === 'required') {
      loc.push((e.params as { missingProperty: string }).missingProperty);
      msg = 'Field required';
    } else if (e.keyword === 'additionalProperties') {
      loc.push((e.params as { additionalProperty: string }).additionalProperty);
      msg = 'Extra inputs are not permitted';
    } else if (e.keyword === 'type') {
      type = `${String((e.params as { type: string }).type).split(',')[0]}_type`;
    } else if (e.keyword === 'enum') {
      msg = `must be one of: ${((e.params as { allowedValues: unknown[] }).allowedValues ?? []).join(', ')}`;
    }
    const key = `${loc.join('\u0000')}|${type}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ loc, msg, type });
  }
  return out;
}

/**
 * An `anyOf` no branch of which matched (e.g. `Passenger`: a saved traveler's id, or the name fields)
 * is reported as the branch the value came closest to: the one with the most of its required fields
 * present, the last on a tie (the fuller form). Its errors stay; the other branches' and the `anyOf`
 * error itself go, so a caller reads "last_name missing", not every alternative's complaint.
 */
function closestBranches(errors: ErrorObject[]): ErrorObject[] {
  const unmatched = errors.filter((e) => e.keyword === 'anyOf');
  if (unmatched.length === 0) return errors;
  const drop = new Set<ErrorObject>(unmatched);
  for (const a of unmatched) {
    const prefix = `${a.schemaPath}/`;
    const branches = new Map<number, ErrorObject[]>();
    for (const e of errors) {
      if (e === a || !e.schemaPath.startsWith(prefix) || !e.instancePath.startsWith(a.instancePath)) continue;
      const i = Number(e.schemaPath.slice(prefix.length).split('/')[0]);
      branches.set(i, [...(branches.get(i) ?? []), e]);
    }
    const score = (i: number): number => {
      const own = branches.get(i) ?? [];
      const required = own.find((e) => e.keyword === 'required' && e.instancePath === a.instancePath);
      const wanted = Array.isArray(required?.schema) ? required.schema.length : 0;
      return wanted - own.filter((e) => e.keyword === 'required').length;
    };
    // Only alternatives of required sets (Passenger); others (a nullable's `anyOf: [T, null]`) keep
    // every error, as before.
    const requiredSets = [...branches.values()].some((list) =>
      list.some((e) => e.keyword === 'required' && e.instancePath === a.instancePath),
    );
    if (!requiredSets) {
      drop.delete(a);
      continue;
    }
    const ids = [...branches.keys()].sort((x, y) => x - y);
    const best = ids.reduce((b, i) => (score(i) >= score(b) ? i : b), ids[0] ?? 0);
    for (const [i, list] of branches) if (i !== best) for (const e of list) drop.add(e);
  }
  return errors.filter((e) => !drop.has(e));
}
