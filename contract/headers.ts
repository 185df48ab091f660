/**
 * The response headers the server sends, declared once under `components.headers` and referenced from
 * each response that carries them (issue 33: a generated client can type what it reads).
 */
import { type Json, str } from './lib.ts';
import { API_VERSION } from './version.ts';

const intHeader = (description: string): Json => ({
  description,
  schema: { type: 'integer', minimum: 0, maximum: 2147483647 },
});

export const RESPONSE_HEADERS: Record<string, Json> = {
  'X-Request-Id': {
    description:
      'This request’s id (the `X-Request-Id` the client sent when it is 1-128 printable characters, else one the server made). Every log line of the request carries it; quote it when reporting a problem. Also `request_id` in every error body.',
    schema: str({ maxLength: 128, examples: ['req_RMSq1Aa1D0AKh'] }),
  },
  'API-Version': {
    description: `The version of this contract that served the answer (\`info.version\`, now ${API_VERSION}). See “Versioning” in the description: within a major version, changes are additive.`,
    schema: str({ pattern: '^[0-9]+\\.[0-9]+\\.[0-9]+$', examples: [API_VERSION] }),
  },
  'Idempotent-Replayed': {
    description:
      '`true` when this answer is the stored answer of an earlier request with the same `Idempotency-Key` (Stripe’s convention): the effect was not repeated. Absent on a first answer.',
    schema: str({ enum: ['true'] }),
  },
  'RateLimit-Limit': intHeader(
    'Requests allowed per window for this caller and class (`search` or `stream`).',
  ),
  'RateLimit-Remaining': intHeader(
    'Requests left in the current window (an upper bound when several server processes share the limit).',
  ),
  'RateLimit-Reset': intHeader('Seconds until the current window ends and the budget is whole again.'),
  'RateLimit-Policy': {
    description:
      'The limit and its window in seconds, `<limit>;w=<seconds>` (IETF RateLimit header fields draft).',
    schema: str({ examples: ['30;w=60'] }),
  },
};

const REPLAYABLE_ERRORS = new Set(['400', '402', '404', '410', '502']);

const use = (names: string[]): Json =>
  Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]));

/** Adds the headers that apply to a response of an operation, keeping the ones it already declares. */
export function withResponseHeaders(
  status: string,
  response: Json,
  o: { idempotent: boolean; rateLimited: boolean },
): Json {
  // Error answers carry X-Request-Id and API-Version too (and `request_id` in the body), declared on the
  // success answers only: on every response they would add a third to the generated types.
  const success = status.startsWith('2') || status.startsWith('3');
  const names = success ? ['X-Request-Id', 'API-Version'] : [];
  // A stored answer is replayed: success, and a handler's own refusal or 502 (the kernel's 401/403/409/
  // 413/415/422/429 come before the key is read).
  if (o.idempotent && (success || REPLAYABLE_ERRORS.has(status))) names.push('Idempotent-Replayed');
  if (o.rateLimited && (status.startsWith('2') || status === '429'))
    names.push('RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy');
  if (names.length === 0) return response;
  return { ...response, headers: { ...((response.headers as Json | undefined) ?? {}), ...use(names) } };
}
