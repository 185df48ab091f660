/**
 * A small JSON Schema -> fast-check mapper over the subset `openapi.json` uses ($ref, allOf/anyOf/oneOf,
 * const, enum, type (or a list of types), format date/date-time/email/uri/int64, pattern,
 * minLength/maxLength, minimum/maximum/exclusiveMinimum, items/minItems/maxItems/uniqueItems,
 * properties/required/additionalProperties/minProperties), plus hostile variants of each.
 */
import fc from 'fast-check';
import { deref, type OpenApiDoc, type Schema } from '../../src/kernel/contract.ts';

/** Strings that have broken services before: SQL, NUL, lone surrogates, RTL, injection, traversal. */
export const NASTY_STRINGS: readonly string[] = [
  '',
  ' ',
  "' OR '1'='1",
  "'; DROP TABLE users; --",
  '1; SELECT pg_sleep(10)',
  '" OR ""="',
  '%',
  '_',
  '\\',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff',
  'Zaż\u00f3łć gęślą jaźń',
  '\u202eRTL\u202c',
  '👨‍👩‍👧‍👦🏳️‍🌈',
  '\u200b',
  '\ufeff',
  '𝕿𝖗𝖆𝖛𝖊𝖑',
  '<script>alert(1)</script>',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, on purpose
  '${7*7}',
  '{{7*7}}',
  '../../../../etc/passwd',
  '__proto__',
  'constructor',
  'prototype',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-1',
  '0',
  '1e309',
  '99999999999999999999',
  '2024-02-30',
  '0000-00-00',
  '9999-12-31T25:61:61Z',
  'true',
  '[]',
  '{}',
  '\t\r\n',
  'x'.repeat(256),
];

export const NASTY_NUMBERS: readonly number[] = [
  -1,
  0,
  -0,
  0.5,
  1.5,
  2 ** 31,
  2 ** 53,
  2 ** 63,
  -(2 ** 63),
  1e21,
  1e308,
  -1e308,
  Number.MIN_VALUE,
];

const WRONG_TYPES: readonly unknown[] = [null, true, false, 0, -1, 1.5, '', 'x', [], {}, [null], { a: 1 }];

const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

/** An object with an own enumerable key (so JSON.stringify sends it), even `__proto__`. */
export function withOwnKey(
  base: Record<string, unknown>,
  key: string,
  value: unknown,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  Object.defineProperty(out, key, { value, enumerable: true, configurable: true, writable: true });
  return out;
}

const MAX_DEPTH = 6;
const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

export class SchemaArbitraries {
  readonly #doc: OpenApiDoc;
  readonly #valid = new WeakMap<object, fc.Arbitrary<unknown>>();

  constructor(doc: OpenApiDoc) {
    this.#doc = doc;
  }

  /** Follows `$ref` and folds `allOf` into one schema. */
  resolve(schema: unknown): Schema {
    const s = deref<Schema | undefined>(this.#doc, schema) ?? {};
    if (!Array.isArray(s.allOf)) return s;
    const merged: Schema = { ...s };
    delete merged.allOf;
    const props: Record<string, unknown> = { ...((s.properties as Record<string, unknown>) ?? {}) };
    const required = new Set<string>((s.required as string[] | undefined) ?? []);
    for (const part of s.allOf as unknown[]) {
      const p = this.resolve(part);
      for (const [k, v] of Object.entries(p)) {
        if (k === 'properties') Object.assign(props, v as Record<string, unknown>);
        else if (k === 'required') for (const r of v as string[]) required.add(r);
        else if (!(k in merged)) merged[k] = v;
      }
    }
    if (Object.keys(props).length > 0) merged.properties = props;
    if (required.size > 0) merged.required = [...required];
    return merged;
  }

  /** Values the schema accepts (mostly: patterns and formats are approximated). */
  valid(schema: unknown, depth = 0): fc.Arbitrary<unknown> {
    const raw = deref<Schema | undefined>(this.#doc, schema);
    if (raw && typeof raw === 'object') {
      const hit = this.#valid.get(raw);
      if (hit) return hit;
    }
    const arb = this.#validUncached(this.resolve(schema), depth);
    if (raw && typeof raw === 'object' && depth === 0) this.#valid.set(raw, arb);
    return arb;
  }

  #validUncached(s: Schema, depth: number): fc.Arbitrary<unknown> {
    if (depth > MAX_DEPTH) return fc.constant(null);
    if ('const' in s) return fc.constant(s.const);
    if (Array.isArray(s.enum) && s.enum.length > 0) return fc.constantFrom(...(s.enum as unknown[]));
    for (const k of ['oneOf', 'anyOf'] as const) {
      const alts = s[k];
      if (Array.isArray(alts) && alts.length > 0) {
        return fc.oneof(...alts.map((a) => this.valid(a, depth + 1)));
      }
    }
    const type = s.type;
    if (Array.isArray(type)) {
      return fc.oneof(...(type as string[]).map((t) => this.#validUncached({ ...s, type: t }, depth)));
    }
    switch (type) {
      case 'string':
        return this.#validString(s);
      case 'integer':
      case 'number':
        return this.#validNumber(s, type === 'integer');
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'array': {
        const item = this.valid(s.items ?? {}, depth + 1);
        const minLength = (s.minItems as number | undefined) ?? 0;
        const maxLength = Math.max(minLength, Math.min((s.maxItems as number | undefined) ?? 3, 3));
        return s.uniqueItems
          ? fc.uniqueArray(item, { minLength, maxLength, selector: (v) => JSON.stringify(v) })
          : fc.array(item, { minLength, maxLength });
      }
      default:
        if (type === 'object' || isObj(s.properties)) return this.#validObject(s, depth);
        return fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean(), fc.constant(null));
    }
  }

  #validString(s: Schema): fc.Arbitrary<unknown> {
    const minLength = (s.minLength as number | undefined) ?? 0;
    const maxLength = (s.maxLength as number | undefined) ?? 10_000;
    const examples = ((s.examples as unknown[] | undefined) ?? []).filter((e) => typeof e === 'string');
    const withExamples = (a: fc.Arbitrary<string>) =>
      examples.length > 0 ? fc.oneof(a, fc.constantFrom(...(examples as string[]))) : a;
    switch (s.format) {
      case 'date':
        return withExamples(
          fc
            .date({ min: new Date('2020-01-01'), max: new Date('2032-12-31'), noInvalidDate: true })
            .map((d) => d.toISOString().slice(0, 10)),
        );
      case 'date-time':
        return withExamples(
          fc
            .date({ min: new Date('2020-01-01'), max: new Date('2032-12-31'), noInvalidDate: true })
            .map((d) => d.toISOString()),
        );
      case 'email':
        return withExamples(
          fc.oneof(
            fc.emailAddress().filter((e) => e.length <= maxLength),
            fc.constantFrom('a@b.co', "o'brien+tag@example.test", 'UPPER@EXAMPLE.TEST'),
          ),
        );
      case 'uri':
        return withExamples(fc.webUrl());
      default:
        break;
    }
    if (typeof s.pattern === 'string') {
      let re: RegExp | undefined;
      try {
        re = new RegExp(s.pattern as string, 'u');
      } catch {
        re = undefined;
      }
      if (re) {
        const matcher = fc.stringMatching(re).filter((x) => x.length >= minLength && x.length <= maxLength);
        return withExamples(matcher);
      }
    }
    const nasty = NASTY_STRINGS.filter((x) => [...x].length >= minLength && [...x].length <= maxLength);
    const plain = fc.string({ minLength, maxLength: Math.max(minLength, Math.min(maxLength, 24)) });
    const unicode = fc.string({
      unit: 'grapheme',
      minLength,
      maxLength: Math.max(minLength, Math.min(maxLength, 12)),
    });
    const arbs: fc.Arbitrary<string>[] = [plain, unicode];
    if (nasty.length > 0) arbs.push(fc.constantFrom(...nasty));
    if (maxLength >= 64 && maxLength <= 20_000) arbs.push(fc.constant('é'.repeat(maxLength)));
    return withExamples(fc.oneof(...arbs));
  }

  #validNumber(s: Schema, integer: boolean): fc.Arbitrary<unknown> {
    const excl = s.exclusiveMinimum as number | undefined;
    let min = (s.minimum as number | undefined) ?? (excl !== undefined ? excl + (integer ? 1 : 1e-6) : -1e6);
    let max = (s.maximum as number | undefined) ?? (s.exclusiveMaximum as number | undefined) ?? 1e9;
    min = Math.max(min, Number.MIN_SAFE_INTEGER);
    max = Math.min(max, Number.MAX_SAFE_INTEGER);
    const edges = [min, max].filter((x) => !integer || Number.isInteger(x));
    const core = integer
      ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) })
      : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
    // Small ids are the ones most likely to exist.
    const small = integer && min <= 1 && max >= 5 ? [fc.integer({ min: Math.max(1, min), max: 5 })] : [];
    return fc.oneof(core, ...small, ...(edges.length > 0 ? [fc.constantFrom(...edges)] : []));
  }

  #validObject(s: Schema, depth: number): fc.Arbitrary<unknown> {
    const props = (s.properties as Record<string, unknown> | undefined) ?? {};
    const keys = Object.keys(props);
    const required = ((s.required as string[] | undefined) ?? []).filter((k) => keys.includes(k));
    if (keys.length === 0) {
      const ap = s.additionalProperties;
      if (ap === false) return fc.constant({});
      const value = isObj(ap)
        ? this.valid(ap, depth + 1)
        : fc.oneof(fc.string({ maxLength: 8 }), fc.integer());
      return fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), value, {
        minKeys: (s.minProperties as number | undefined) ?? 0,
        maxKeys: 3,
      });
    }
    const model: Record<string, fc.Arbitrary<unknown>> = {};
    for (const k of keys) model[k] = this.valid(props[k], depth + 1);
    const minProps = (s.minProperties as number | undefined) ?? 0;
    const requiredKeys = [...required];
    for (const k of keys)
      if (requiredKeys.length < minProps && !requiredKeys.includes(k)) requiredKeys.push(k);
    return fc.record(model, { requiredKeys });
  }

  /** Values the schema should refuse (or that sit on its edges), derived from it. */
  hostile(schema: unknown, depth = 0): fc.Arbitrary<unknown> {
    const s = this.resolve(schema);
    const generic = fc.oneof(
      fc.constantFrom(...WRONG_TYPES),
      fc.constantFrom(...NASTY_STRINGS),
      fc.constantFrom(...NASTY_NUMBERS),
    );
    if (depth > 3) return generic;
    const arbs: fc.Arbitrary<unknown>[] = [generic];
    const types = Array.isArray(s.type) ? (s.type as string[]) : [s.type];
    if (types.includes('string')) {
      const max = (s.maxLength as number | undefined) ?? 1000;
      const min = (s.minLength as number | undefined) ?? 0;
      arbs.push(fc.constantFrom('x'.repeat(max + 1), 'ü'.repeat(max + 1), 'x'.repeat(Math.max(0, min - 1))));
      arbs.push(fc.constant('A'.repeat(100_000)));
    }
    if (types.includes('integer') || types.includes('number')) {
      const edges: number[] = [];
      if (typeof s.minimum === 'number') edges.push(s.minimum - 1, s.minimum - 0.5);
      if (typeof s.maximum === 'number') edges.push(s.maximum + 1, s.maximum + 0.5);
      if (edges.length > 0) arbs.push(fc.constantFrom(...edges));
    }
    if (types.includes('array')) {
      const item = this.valid(s.items ?? {}, depth + 1);
      arbs.push(fc.array(this.hostile(s.items ?? {}, depth + 1), { minLength: 1, maxLength: 3 }));
      arbs.push(item.map((v) => Array.from({ length: 5000 }, () => v)));
      arbs.push(fc.constant([]));
    }
    if (types.includes('object') || isObj(s.properties)) arbs.push(this.#hostileObject(s, depth));
    return fc.oneof(...arbs);
  }

  #hostileObject(s: Schema, depth: number): fc.Arbitrary<unknown> {
    const props = (s.properties as Record<string, unknown> | undefined) ?? {};
    const keys = Object.keys(props);
    const required = (s.required as string[] | undefined) ?? [];
    const base = this.valid(s, depth).filter(isObj) as fc.Arbitrary<Record<string, unknown>>;
    const muts: fc.Arbitrary<unknown>[] = [
      // An unknown field (refused where additionalProperties is false).
      base.map((o) => ({ ...o, zz_unknown_field: 'x' })),
      // Prototype-pollution keys, as own properties so they reach the wire.
      fc
        .tuple(
          base,
          fc.constantFrom(...PROTO_KEYS),
          fc.constantFrom<unknown>({ isAdmin: true }, 'x', null, []),
        )
        .map(([o, k, v]) => withOwnKey(o, k, v)),
      // Deep nesting.
      fc.constant(JSON.parse(`${'{"a":'.repeat(2000)}1${'}'.repeat(2000)}`) as unknown),
    ];
    if (required.length > 0) {
      muts.push(
        fc.tuple(base, fc.constantFrom(...required)).map(([o, k]) => {
          const c = { ...o };
          delete c[k];
          return c;
        }),
      );
    }
    if (keys.length > 0) {
      muts.push(
        fc
          .constantFrom(...keys)
          .chain((k) =>
            fc.tuple(base, this.hostile(props[k], depth + 1)).map(([o, v]) => withOwnKey(o, k, v)),
          ),
      );
    }
    return fc.oneof(...muts);
  }
}
