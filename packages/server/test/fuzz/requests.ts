/**
 * Builds requests for one contract operation: a fixed matrix of hostile cases (every operation gets each
 * that applies) and a fast-check arbitrary mixing valid and hostile path, query, header, body and auth.
 */
import fc from 'fast-check';
import type { Operation, ParameterSpec } from '../../src/kernel/contract.ts';
import type { AuthKind, FuzzRequest } from './harness.ts';
import { CREDENTIAL_CALLERS, ROLES } from './harness.ts';
import { NASTY_STRINGS, type SchemaArbitraries, withOwnKey } from './schema-arb.ts';

/** Path segments that are wrong for any id: non-numeric, negative, huge, a PNR that does not exist. */
export const HOSTILE_PATH_VALUES: readonly string[] = [
  'abc',
  'ZZZ9ZZ',
  'QQQQQQ',
  '0',
  '-1',
  '1.5',
  '1e3',
  '0x10',
  '99999999999999999999',
  '9223372036854775808',
  ' 1',
  'null',
  '__proto__',
  'constructor',
  "1' OR '1'='1",
  '\u0000',
  'ü',
  '😀',
  'x'.repeat(200),
];

export const MALFORMED_BODIES: readonly (string | Uint8Array)[] = [
  '{',
  '{"a":}',
  '{"a":1,}',
  "{'a':1}",
  '[1,2',
  'nul',
  '\ufeff{}',
  '{"a":"\\ud800"}',
  '{"a":NaN}',
  new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
];

const WRONG_CONTENT_TYPES: readonly (string | null)[] = [
  'text/plain',
  'application/json; charset=utf-16',
  'application/vnd.travel+json',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/jsonx',
  null,
];

export const hasBody = (op: Operation) =>
  op.requestBody !== undefined || op.method === 'POST' || op.method === 'PATCH' || op.method === 'PUT';
const wantsKey = (op: Operation) =>
  op.idempotency !== undefined || op.method === 'POST' || op.method === 'PATCH';

/** The caller most likely to get past auth: the first role the operation allows. */
export function bestAuth(op: Operation): AuthKind {
  if (op.public) return 'none';
  return (op.roles?.[0] as AuthKind | undefined) ?? 'customer';
}

function authArb(op: Operation): fc.Arbitrary<AuthKind> {
  const allowed = (op.roles?.length ? op.roles : ROLES) as AuthKind[];
  const others: AuthKind[] = [
    'none',
    'garbage',
    'wrong_scheme',
    'unknown_user',
    ...ROLES,
    ...CREDENTIAL_CALLERS,
  ];
  return fc.oneof(
    { weight: op.public ? 2 : 8, arbitrary: fc.constantFrom(...allowed) },
    { weight: 2, arbitrary: fc.constantFrom(...others) },
  );
}

/** encodeURIComponent, except that a lone surrogate is sent as its (invalid) UTF-8 bytes instead of throwing. */
function encodeSegment(v: string): string {
  try {
    return encodeURIComponent(v);
  } catch {
    return v
      .split(/([\ud800-\udfff])/)
      .map((part) => (/^[\ud800-\udfff]$/.test(part) ? '%ED%BF%BF' : encodeURIComponent(part)))
      .join('');
  }
}

function fillPath(op: Operation, values: Record<string, string>): string {
  return op.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeSegment(values[name] ?? '1'));
}

const pathParams = (op: Operation) => op.parameters.filter((p) => p.in === 'path');
const queryParams = (op: Operation) => op.parameters.filter((p) => p.in === 'query');

const asText = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

function paramValueArb(arbs: SchemaArbitraries, p: ParameterSpec): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 5, arbitrary: arbs.valid(p.schema ?? {}).map(asText) },
    { weight: 1, arbitrary: fc.constantFrom(...HOSTILE_PATH_VALUES) },
    { weight: 1, arbitrary: arbs.hostile(p.schema ?? {}).map(asText) },
  );
}

function queryArb(arbs: SchemaArbitraries, op: Operation): fc.Arbitrary<string> {
  const params = queryParams(op);
  if (params.length === 0) return fc.constant('');
  const one = (p: ParameterSpec): fc.Arbitrary<[string, string][]> => {
    const isArray = (p.schema as { type?: unknown } | undefined)?.type === 'array';
    const valid = arbs.valid(p.schema ?? {});
    return fc.oneof(
      { weight: 3, arbitrary: fc.constant<[string, string][]>([]) },
      {
        weight: 4,
        arbitrary: valid.map((v): [string, string][] =>
          isArray && Array.isArray(v)
            ? v.map((x): [string, string] => [p.name, asText(x)])
            : [[p.name, asText(v)]],
        ),
      },
      {
        weight: 1,
        arbitrary: arbs.hostile(p.schema ?? {}).map((v): [string, string][] => [[p.name, asText(v)]]),
      },
      {
        weight: 1,
        arbitrary: fc.constantFrom(...NASTY_STRINGS).map((v): [string, string][] => [
          [p.name, v],
          [p.name, v],
        ]),
      },
    );
  };
  return fc.tuple(...params.map(one)).map((lists) => {
    const pairs = lists.flat();
    return pairs.length === 0 ? '' : `?${new URLSearchParams(pairs).toString()}`;
  });
}

function headerArb(op: Operation): fc.Arbitrary<Record<string, string>> {
  const key: fc.Arbitrary<Record<string, string>> = wantsKey(op)
    ? fc.oneof(
        { weight: 8, arbitrary: fc.uuid().map((u) => ({ 'idempotency-key': `fz-${u}` })) },
        { weight: 1, arbitrary: fc.constant({}) },
        {
          weight: 1,
          arbitrary: fc
            .constantFrom(' bad key ', 'ü', 'x'.repeat(300), '\u0000'.replace('\u0000', '%00'))
            .map((k) => ({ 'idempotency-key': k })),
        },
      )
    : fc.constant({});
  const lastEvent: fc.Arbitrary<Record<string, string>> = op.sse
    ? fc.oneof(
        fc.constant({}),
        fc
          .constantFrom('0', '-1', 'abc', '99999999999999999999', 'x'.repeat(200))
          .map((v) => ({ 'last-event-id': v })),
      )
    : fc.constant({});
  return fc.tuple(key, lastEvent).map(([a, b]) => ({ ...a, ...b }));
}

type BodyPart = Pick<FuzzRequest, 'body' | 'contentType'>;

function bodyArb(arbs: SchemaArbitraries, op: Operation): fc.Arbitrary<BodyPart> {
  if (!hasBody(op)) return fc.constant({});
  const schema = op.requestBody?.schema ?? {};
  return fc.oneof(
    { weight: 6, arbitrary: arbs.valid(schema).map((json): BodyPart => ({ body: { json } })) },
    { weight: 4, arbitrary: arbs.hostile(schema).map((json): BodyPart => ({ body: { json } })) },
    { weight: 1, arbitrary: fc.constant<BodyPart>({}) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(...MALFORMED_BODIES).map((raw): BodyPart => ({ body: { raw } })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(arbs.valid(schema), fc.constantFrom(...WRONG_CONTENT_TYPES))
        .map(([json, contentType]): BodyPart => ({ body: { json }, contentType })),
    },
  );
}

/** Random requests for `op`: mostly plausible, with hostile parts mixed in. */
export function requestArb(arbs: SchemaArbitraries, op: Operation): fc.Arbitrary<FuzzRequest> {
  const params = pathParams(op);
  const pathArb =
    params.length === 0
      ? fc.constant(op.path)
      : fc.tuple(...params.map((p) => paramValueArb(arbs, p))).map((vals) => {
          const values: Record<string, string> = {};
          params.forEach((p, i) => {
            values[p.name] = vals[i] ?? '1';
          });
          return fillPath(op, values);
        });
  return fc
    .record({
      path: pathArb,
      query: queryArb(arbs, op),
      auth: authArb(op),
      headers: headerArb(op),
      body: bodyArb(arbs, op),
    })
    .map(
      (r): FuzzRequest => ({
        method: op.method,
        path: `${r.path}${r.query}`,
        auth: r.auth,
        headers: r.headers,
        ...r.body,
      }),
    );
}

/** The fixed matrix: every hostile case that applies to `op`, with `sample` as the plausible body. */
export function fixedCases(
  arbs: SchemaArbitraries,
  op: Operation,
  seed: number,
  bodyLimitBytes: number,
): FuzzRequest[] {
  const sample = <T>(a: fc.Arbitrary<T>): T => fc.sample(a, { seed, numRuns: 1 })[0] as T;
  const validParams: Record<string, string> = {};
  for (const p of pathParams(op)) validParams[p.name] = asText(sample(arbs.valid(p.schema ?? {})));
  const path = fillPath(op, validParams);
  const auth = bestAuth(op);
  let n = 0;
  const key = (): Record<string, string> =>
    wantsKey(op) ? { 'idempotency-key': `fz-fixed-${op.operationId}-${++n}` } : {};
  const body = hasBody(op)
    ? { json: op.requestBody?.schema ? sample(arbs.valid(op.requestBody.schema)) : {} }
    : undefined;
  const base = (over: Partial<FuzzRequest> = {}): FuzzRequest => ({
    method: op.method,
    path,
    auth,
    headers: key(),
    ...(body ? { body } : {}),
    ...over,
  });

  const out: FuzzRequest[] = [];
  // Every caller: none, broken tokens, a token of each role, a key of each key role, an impersonation.
  for (const a of [
    'none',
    'garbage',
    'wrong_scheme',
    'unknown_user',
    ...ROLES,
    ...CREDENTIAL_CALLERS,
  ] as AuthKind[])
    out.push(base({ auth: a }));
  // Invalid path params.
  for (const p of pathParams(op)) {
    for (const v of ['abc', 'ZZZ9ZZ', '0', '99999999999999999999', '\u0000', 'x'.repeat(5000)]) {
      out.push(base({ path: fillPath(op, { ...validParams, [p.name]: v }) }));
    }
  }
  // Query: every parameter hostile at once, and duplicated.
  const qs = queryParams(op);
  if (qs.length > 0) {
    out.push(
      base({ path: `${path}?${new URLSearchParams(qs.map((q) => [q.name, "' OR 1=1 --"])).toString()}` }),
    );
    out.push(
      base({
        path: `${path}?${new URLSearchParams(qs.map((q) => [q.name, '-99999999999999999999'])).toString()}`,
      }),
    );
    out.push(
      base({
        path: `${path}?${new URLSearchParams(
          qs.flatMap((q) => [
            [q.name, '1'],
            [q.name, 'x'],
          ]),
        ).toString()}`,
      }),
    );
  }
  if (hasBody(op)) {
    // The rest of the malformed bodies and content types come up in the random runs.
    for (const raw of MALFORMED_BODIES.slice(0, 2)) out.push(base({ body: { raw } }));
    out.push(base({ body: { raw: MALFORMED_BODIES[MALFORMED_BODIES.length - 1] ?? '{' } }));
    for (const ct of ['text/plain', null, 'application/vnd.travel+json']) out.push(base({ contentType: ct }));
    out.push(base({ body: { raw: `{"pad":"${'x'.repeat(bodyLimitBytes)}"}` } }));
    for (const json of [null, [], 'str']) out.push(base({ body: { json } }));
    const obj =
      body?.json && typeof body.json === 'object' && !Array.isArray(body.json)
        ? (body.json as Record<string, unknown>)
        : {};
    out.push(base({ body: { json: withOwnKey(obj, '__proto__', { isAdmin: true, role: 'super_admin' }) } }));
    out.push(base({ body: { json: withOwnKey(obj, 'constructor', { prototype: { isAdmin: true } }) } }));
    out.push(base({ body: { raw: `${'['.repeat(5000)}${']'.repeat(5000)}` } }));
    out.push(base({ body: { json: Array.from({ length: 50_000 }, (_, i) => i) } }));
    out.push(base({ body: undefined }));
  }
  // Idempotency: the same key twice with different bodies, and an invalid key.
  if (wantsKey(op)) {
    const k = { 'idempotency-key': `fz-reuse-${op.operationId}` };
    out.push(base({ headers: k }));
    out.push(base({ headers: k, body: { json: { zz_other: 1 } } }));
    out.push(base({ headers: { 'idempotency-key': 'ü ü' } }));
  }
  return out;
}
