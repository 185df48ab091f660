/** The parts of an OpenAPI 3.1 document the kernel reads. */
export interface OpenApiDoc {
  openapi: string;
  info?: Record<string, unknown>;
  paths: Record<string, Record<string, unknown>>;
  components?: Record<string, Record<string, unknown>>;
  security?: Record<string, string[]>[];
  [k: string]: unknown;
}

export interface ParameterSpec {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Record<string, unknown>;
}

export type Schema = Record<string, unknown>;

/** One operation, with everything the middleware chain needs, resolved once at start. */
export interface Operation {
  operationId: string;
  method: string;
  /** OpenAPI path template, e.g. `/api/v1/admin/users/{user_id}`. */
  path: string;
  parameters: ParameterSpec[];
  requestBody: { required: boolean; schema: Schema | undefined } | undefined;
  /** No bearer token needed (`security: []`). */
  public: boolean;
  /** A token is used when sent, but not required (`security: [{}, {bearerAuth: []}]`). */
  optionalAuth: boolean;
  roles: string[] | undefined;
  tenant: boolean;
  idempotency: 'required' | 'optional' | undefined;
  /** The 200 response is `text/event-stream`. */
  sse: boolean;
  addition: boolean;
  /**
   * `x-credential-policy` (issue 28): which credentials may call it. `api_key`: keys and people;
   * `person`: people (their own session or an impersonation), no key; `own_session`: a person in their
   * own session only. Read from the contract, else derived from `security` (apiKeyAuth: `api_key`).
   */
  credentialPolicy: CredentialPolicy;
  responses: Record<string, unknown>;
  raw: Record<string, unknown>;
}

export type CredentialPolicy = 'api_key' | 'person' | 'own_session';
const POLICIES: readonly string[] = ['api_key', 'person', 'own_session'];

/**
 * The operation's credential policy; its declared security must agree (a contract listing apiKeyAuth on
 * an operation whose policy refuses keys, or the reverse, does not start).
 */
function credentialPolicyOf(op: Record<string, unknown>, id: string, security: Record<string, string[]>[]) {
  const keys = security.some((s) => 'apiKeyAuth' in s || 'apiKeyBearerAuth' in s);
  const declared = op['x-credential-policy'];
  if (declared === undefined) return keys ? 'api_key' : 'person';
  if (typeof declared !== 'string' || !POLICIES.includes(declared))
    throw new Error(`${id}: unknown x-credential-policy ${String(declared)}`);
  if ((declared === 'api_key') !== keys)
    throw new Error(`${id}: x-credential-policy ${declared} disagrees with its security (apiKeyAuth)`);
  return declared as CredentialPolicy;
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** Follows a local `$ref` (`#/components/...`); anything else is returned as is. */
export function deref<T = Record<string, unknown>>(doc: OpenApiDoc, node: unknown): T {
  let cur = node as Record<string, unknown> | undefined;
  for (let i = 0; i < 20 && cur && typeof cur.$ref === 'string'; i++) {
    const ref = cur.$ref as string;
    if (!ref.startsWith('#/')) break;
    cur = ref
      .slice(2)
      .split('/')
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], doc) as
      | Record<string, unknown>
      | undefined;
  }
  return cur as T;
}

export function listOperations(doc: OpenApiDoc): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    const shared = (item.parameters as unknown[] | undefined) ?? [];
    for (const method of HTTP_METHODS) {
      const op = item[method] as Record<string, unknown> | undefined;
      if (!op) continue;
      const operationId = op.operationId as string | undefined;
      if (!operationId) throw new Error(`${method.toUpperCase()} ${path} has no operationId`);
      const params = new Map<string, ParameterSpec>();
      for (const p of [...shared, ...((op.parameters as unknown[] | undefined) ?? [])]) {
        const spec = deref<ParameterSpec>(doc, p);
        params.set(`${spec.in}:${spec.name}`, spec);
      }
      const body = deref<Record<string, unknown> | undefined>(doc, op.requestBody);
      const bodyContent = body?.content as Record<string, { schema?: Schema }> | undefined;
      const security = (op.security ?? doc.security ?? []) as Record<string, string[]>[];
      const isPublic = security.length === 0 || security.every((s) => Object.keys(s).length === 0);
      const optionalAuth = !isPublic && security.some((s) => Object.keys(s).length === 0);
      const responses = (op.responses ?? {}) as Record<string, unknown>;
      const ok = deref<Record<string, unknown> | undefined>(doc, responses['200']);
      const okContent = ok?.content as Record<string, unknown> | undefined;
      const idem = op['x-idempotency'];
      out.push({
        operationId,
        method: method.toUpperCase(),
        path,
        parameters: [...params.values()],
        requestBody: body
          ? {
              required: body.required === true,
              schema:
                bodyContent?.['application/json']?.schema ?? Object.values(bodyContent ?? {})[0]?.schema,
            }
          : undefined,
        public: isPublic,
        optionalAuth,
        roles: Array.isArray(op['x-roles']) ? (op['x-roles'] as string[]) : undefined,
        tenant: op['x-tenant'] === true,
        idempotency: idem === 'required' || idem === 'optional' ? idem : undefined,
        sse: op['x-sse'] === true || (okContent !== undefined && 'text/event-stream' in okContent),
        addition: op['x-addition'] === true,
        credentialPolicy: credentialPolicyOf(op, operationId, security),
        responses,
        raw: op,
      });
    }
  }
  return out;
}
