/**
 * `op({...})`: one operation of the contract. It derives from a few facts (guard, roles, tenant, idem,
 * sse, rate limiting) everything that is the same across operations: security, `x-roles`, `x-tenant`,
 * `x-idempotency` with the `Idempotency-Key` header, and the common error responses (401, 403, 413, 415,
 * 422, 429, 431, 500) with their stable codes.
 */
import { withResponseHeaders } from './headers.ts';
import {
  errorResponse,
  headerParam,
  IDEMPOTENCY_KEY_SCHEMA,
  type Json,
  jsonBody,
  ref,
  type Schema,
} from './lib.ts';

export type Method = 'get' | 'post' | 'patch' | 'delete';
export type Role = 'super_admin' | 'company_admin' | 'company_staff' | 'customer';

export interface OpDef {
  method: Method;
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  /** Guard: `none` (public), `user` (any authenticated caller) or `role` (needs `roles`). */
  auth: 'none' | 'user' | 'role';
  roles?: Role[];
  tenant?: boolean;
  /** The spec marks the operation `idem`: `Idempotency-Key` is required. */
  idem?: boolean;
  /** Server-Sent Events stream. */
  sse?: boolean;
  /** Rate limited: 429 with Retry-After. */
  rateLimited?: boolean;
  /** Not in the spec's endpoint list: a documented addition. */
  addition?: boolean;
  /**
   * Deprecated (docs/api-versioning.md): `deprecated: true`, `x-deprecated-at` and `x-sunset`; the server
   * answers it with `Deprecation` and `Sunset` headers.
   */
  deprecated?: { at: string; sunset?: string };
  /**
   * Also accepts API keys (`apiKeyAuth`: `X-API-Key`, and `apiKeyBearerAuth`: `Authorization: Bearer
   * tk_...`). Default: every authenticated operation a company user may call, except the caller's own
   * account (tag `auth`); see `acceptsApiKeys`.
   */
  apiKey?: boolean;
  /**
   * `x-credential-policy` (issue 28), the one rule of what credentials may call the operation:
   * - `api_key` (derived when the operation accepts API keys): a person's token, an impersonation token
   *   or an API key;
   * - `person`: a person's token (own or impersonated), never a key: the operation governs principals
   *   (staff, roles, keys) and a key's authority is bounded by what keys may do;
   * - `own_session`: only a person acting in their own session, never a key nor an impersonation token:
   *   the operation creates a credential or gives a principal power (invitations, promotions, API keys).
   * Default: `api_key` where keys are accepted, else `person`.
   */
  credentials?: CredentialPolicy;
  parameters?: Json[];
  /** Request body schema (JSON). */
  body?: Schema;
  bodyRequired?: boolean;
  bodyDescription?: string;
  /** Success responses by status. */
  responses: Record<string, Json>;
  /** Operation-specific error responses (400, 404, 409, 410, 501, 502 …) by status. */
  errors?: Record<string, Json>;
  /** Extra 401/403/422 codes for this operation. */
  extraCodes?: Partial<Record<401 | 403 | 422, string[]>>;
  /** Override the tag (defaults to the surface of the module). */
  tag?: string;
  /**
   * Whether the operation reads or writes the database (default true): then it answers 503
   * `database_unavailable` with Retry-After while the database is unreachable, and `storage_full` with
   * Retry-After while its disk has no room to write.
   */
  database?: boolean;
}

export type CredentialPolicy = 'api_key' | 'person' | 'own_session';

export interface BuiltOp {
  path: string;
  method: Method;
  operation: Json;
}

const AUTH_CODES = ['not_authenticated', 'invalid_token', 'token_expired'];
/** Every authenticated operation checks a presented API key before deciding whether it accepts one. */
const API_KEY_CODES = ['invalid_api_key', 'api_key_revoked', 'api_key_expired'];
const SUSPENDED_CODES = ['account_suspended', 'company_suspended'];

/**
 * Whether an operation accepts API keys (issue 16): keys belong to a company and act with a company role,
 * so they work wherever a company user may call (`user` guard, or roles including a company role), never
 * on platform administration (super_admin only), traveller (customer) operations or the caller's own
 * account (tag `auth`: profile, password, sessions).
 */
export function acceptsApiKeys(def: OpDef, tag: string): boolean {
  if (def.credentials !== undefined && def.credentials !== 'api_key') {
    if (def.apiKey) throw new Error(`${def.operationId}: apiKey with credentials ${def.credentials}`);
    return false;
  }
  if (def.apiKey !== undefined) return def.apiKey;
  if (def.auth === 'none' || (def.tag ?? tag) === 'auth') return false;
  if (def.auth === 'user') return true;
  return (def.roles ?? []).some((r) => r === 'company_admin' || r === 'company_staff');
}

export function op(def: OpDef, tag: string): BuiltOp {
  const isWrite = def.method === 'post' || def.method === 'patch';
  const authenticated = def.auth !== 'none';
  if (def.auth === 'role' && !def.roles?.length)
    throw new Error(`${def.operationId}: role guard without roles`);

  const parameters: Json[] = [...(def.parameters ?? [])];
  if (isWrite) {
    parameters.push(
      headerParam('Idempotency-Key', IDEMPOTENCY_KEY_SCHEMA, {
        required: def.idem === true,
        description: def.idem
          ? 'Required. A unique key per intended effect (e.g. a UUID). Reusing the key returns the original result without repeating the effect; reusing it with a different body is 422 `idempotency_key_reused`; reusing it while the first request runs is 409 `idempotency_in_progress`. Keys are kept at least 24 hours.'
          : 'Optional. When given, a retry with the same key returns the original result without repeating the effect.',
      }),
    );
  }

  let requestBody: Json | undefined;
  if (def.body) {
    requestBody = jsonBody(def.body, def.bodyDescription, def.bodyRequired ?? true);
  } else if (def.method === 'post') {
    requestBody = jsonBody(
      ref('EmptyObject'),
      'No fields. Send `{}` with `Content-Type: application/json` (required on every POST).',
      false,
    );
  }

  const responses: Record<string, Json> = { ...def.responses, ...(def.errors ?? {}) };
  const add = (status: number, codes: string[]) => {
    const key = String(status);
    const existing = responses[key];
    if (existing) {
      const merged = [...((existing['x-error-codes'] as string[] | undefined) ?? []), ...codes];
      responses[key] = { ...existing, 'x-error-codes': [...new Set(merged)] };
    } else {
      responses[key] = errorResponse(status, codes);
    }
  };
  const apiKey = authenticated && acceptsApiKeys(def, tag);
  if (def.credentials === 'api_key' && !apiKey)
    throw new Error(`${def.operationId}: credentials api_key on an operation that takes no API key`);
  if (authenticated) add(401, [...AUTH_CODES, ...API_KEY_CODES, ...(def.extraCodes?.[401] ?? [])]);
  if (authenticated) {
    const codes = [...SUSPENDED_CODES];
    if (def.roles?.length) codes.unshift('insufficient_role');
    if (def.tenant) codes.push('tenant_mismatch');
    if (!apiKey) codes.push('api_key_not_allowed');
    if (def.credentials === 'own_session') codes.push('impersonation_not_allowed');
    add(403, [...codes, ...(def.extraCodes?.[403] ?? [])]);
  }
  if (isWrite) add(409, ['idempotency_in_progress']);
  if (isWrite) {
    // POST and PATCH carry a body: the kernel answers 415 and 413 on both (contracts section 2).
    add(413, ['payload_too_large']);
    add(415, ['unsupported_media_type']);
  }
  // A DELETE may carry a body too, and the kernel reads it under the same limit.
  if (def.method === 'delete') add(413, ['payload_too_large']);
  // Every operation: the kernel checks every query parameter it is sent, declared or not (a NUL, a lone
  // surrogate: `string_nul`, ...), so even an operation without parameters can answer 422.
  {
    const codes = ['validation_error'];
    if (isWrite) codes.push('idempotency_key_reused');
    add(422, [...codes, ...(def.extraCodes?.[422] ?? [])]);
  }
  // A key's own budget (RATE_LIMIT_API_KEY) applies wherever keys are accepted.
  if (def.rateLimited || apiKey) add(429, ['rate_limited']);
  // Every operation: the transport refuses request headers over the size limit before routing.
  add(431, ['request_header_fields_too_large']);
  add(500, ['internal_error']);
  if (def.database !== false) add(503, ['database_unavailable', 'storage_full']);
  // Every effectful operation: a server draining for shutdown starts no new effect (Retry-After; another
  // instance, or this one restarted, takes the same Idempotency-Key).
  if (def.method !== 'get') add(503, ['server_draining']);

  // Mirrors the server's rate classes (kernel/middleware/rate-limit.ts): declared, SSE, or a POST search.
  const rateLimited =
    !def.path.startsWith('/api/v1/auth/') &&
    (def.rateLimited === true ||
      def.sse === true ||
      (def.method === 'post' && (/search/i.test(def.operationId) || /\/search(\/|$)/.test(def.path))));
  const sorted: Record<string, Json> = {};
  for (const key of Object.keys(responses).sort())
    sorted[key] = withResponseHeaders(key, responses[key] as Json, { idempotent: isWrite, rateLimited });

  // Alternatives (any one suffices): the user's access token, or an API key in either header.
  const security: Json[] = !authenticated
    ? []
    : apiKey
      ? [{ bearerAuth: [] }, { apiKeyAuth: [] }, { apiKeyBearerAuth: [] }]
      : [{ bearerAuth: [] }];

  const operation: Json = {
    operationId: def.operationId,
    summary: def.summary,
    ...(def.description ? { description: def.description } : {}),
    tags: [def.tag ?? tag],
    security,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(requestBody ? { requestBody } : {}),
    responses: sorted,
    ...(authenticated ? { 'x-credential-policy': apiKey ? 'api_key' : (def.credentials ?? 'person') } : {}),
    ...(def.roles?.length ? { 'x-roles': def.roles } : {}),
    ...(def.tenant ? { 'x-tenant': true } : {}),
    ...(isWrite ? { 'x-idempotency': def.idem ? 'required' : 'optional' } : {}),
    ...(def.sse ? { 'x-sse': true } : {}),
    ...(def.rateLimited ? { 'x-rate-limited': true } : {}),
    ...(def.addition ? { 'x-addition': true } : {}),
    ...(def.deprecated
      ? {
          deprecated: true,
          'x-deprecated-at': def.deprecated.at,
          ...(def.deprecated.sunset ? { 'x-sunset': def.deprecated.sunset } : {}),
        }
      : {}),
  };
  return { path: def.path, method: def.method, operation };
}

/** Build a surface's operations with its tag. */
export const surface = (tag: string, defs: OpDef[]): BuiltOp[] => defs.map((d) => op(d, tag));
