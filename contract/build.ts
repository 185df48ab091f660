/**
 * Builds `openapi.json` (OpenAPI 3.1) from the TypeScript sources in `contract/`.
 * `node contract/build.ts` (or `pnpm openapi`) writes it, and the package's generated types (`generate.ts`);
 * `buildDocument()` returns it for tests.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ERROR_CODES_OUTPUT, renderErrorCodes, renderSchemaTypes, SCHEMA_OUTPUT } from './generate.ts';
import { RESPONSE_HEADERS } from './headers.ts';
import type { Json } from './lib.ts';
import type { BuiltOp } from './op.ts';
import { adminOps } from './paths/admin.ts';
import { ancillariesOps } from './paths/ancillaries.ts';
import { apiKeyOps, apiKeySchemas } from './paths/api-keys.ts';
import { authOps } from './paths/auth.ts';
import { bookingsOps } from './paths/bookings.ts';
import { companyOps } from './paths/company.ts';
import { customerOps } from './paths/customer.ts';
import { eventOps, feedSchemas } from './paths/events.ts';
import { flightSearchOps, referenceOps } from './paths/flight-search.ts';
import { hotelOps, transportOps } from './paths/hotel.ts';
import { paymentsOps } from './paths/payments.ts';
import { platformOps } from './paths/platform.ts';
import { scheduleChangeOps, scheduleChangeSchemas } from './paths/schedule-changes.ts';
import { ticketingOps } from './paths/ticketing.ts';
import { webhookOps, webhookSchemas } from './paths/webhooks.ts';
import { schemas as accountSchemas } from './schemas/accounts.ts';
import { schemas as bookingSchemas } from './schemas/booking.ts';
import { schemas as commonSchemas } from './schemas/common.ts';
import { schemas as eventSchemas } from './schemas/events.ts';
import { schemas as flightSchemas } from './schemas/flight.ts';
import { schemas as hotelSchemas } from './schemas/hotel.ts';
import { schemas as opsSchemas } from './schemas/ops.ts';
import { API_VERSION } from './version.ts';

export const OUTPUT = fileURLToPath(new URL('../openapi.json', import.meta.url));

const TAGS: { name: string; description: string }[] = [
  { name: 'auth', description: 'Registration, login, tokens and the caller’s profile.' },
  { name: 'flight-search', description: 'Asynchronous flight search: start, stream, stream by GDS, batch.' },
  { name: 'reference', description: 'Airline and airport suggestions.' },
  { name: 'hotel', description: 'Hotel search, rate check, booking and the caller’s hotel bookings.' },
  {
    name: 'transport',
    description: 'Ground-transfer search, quote, booking and the caller’s transfer bookings.',
  },
  { name: 'bookings', description: 'Offer pricing, fare rules and flight bookings (PNR).' },
  {
    name: 'payments',
    description: 'Authorize, capture, void, refund and payment history of a flight booking.',
  },
  { name: 'ticketing', description: 'Ticket issuance, documents, ticket actions and servicing requests.' },
  {
    name: 'ancillaries',
    description: 'Seats, baggage, special service requests and paid ancillaries (EMD).',
  },
  { name: 'admin', description: 'Platform administration (super_admin).' },
  { name: 'company', description: 'Agency (company) surface, scoped to the caller’s company.' },
  { name: 'customer', description: 'Traveller (customer) surface, scoped to the caller.' },
  { name: 'platform', description: 'Health, metrics, configuration, root and maintenance.' },
];

const DESCRIPTION = `A multi-supplier travel service: flights, hotels and ground transfers; booking, payment, ticketing and after-sale servicing; admin, agency and traveller surfaces.

Conventions:
- Money: integers in minor units on fields ending in \`_minor\`, always with a currency (one of the 15 in \`Currency\`). Fields the spec names without \`_minor\` (credit_limit, markup amount, min_fare, max_fare, min_price, max_price, base_price) are decimal major units.
- Dates \`YYYY-MM-DD\`; timestamps RFC 3339 UTC.
- Every POST needs \`Content-Type: application/json\` (send \`{}\` when there is no body): otherwise 415.
- Errors: \`ErrorResponse\` \`{detail, code, request_id}\`; 422 is \`HTTPValidationError\`. Programs branch on \`code\`; each error response lists its codes in \`x-error-codes\`, and the document's top-level \`x-error-codes\` lists those any request can get before an operation is matched (\`not_found\`, \`method_not_allowed\`, \`malformed_request\`, \`request_timeout\`, \`not_implemented\`).
- Another tenant’s resource answers exactly like a missing one (404).
- \`Idempotency-Key\`: required where \`x-idempotency: required\`, honoured on every other POST/PATCH (\`x-idempotency: optional\`). Same key → original result; same key + different body → 422 \`idempotency_key_reused\`; same key while running → 409 \`idempotency_in_progress\`.
- 429 carries \`Retry-After\`.
- HTTP: \`HEAD\` is answered wherever \`GET\` is (same headers, no body); \`OPTIONS\` on any path answers 204 with \`Allow\` (and the CORS preflight for an allowed origin, \`CORS_ORIGINS\`); any other method a path does not list answers 405 \`method_not_allowed\` with \`Allow\`. Request headers over 16 KiB answer 431 \`request_header_fields_too_large\`; a request that is not valid HTTP/1.1 answers 400 \`malformed_request\` and the connection is closed. A body over the limit answers 413 and the rest of it is read and dropped (up to 4 MiB) or the connection is closed (\`Connection: close\`).
- Every response carries \`X-Content-Type-Options: nosniff\` and, unless stated otherwise, \`Cache-Control: no-store\` (responses carry the caller’s data or tokens).
- Searches are asynchronous; expired searches answer 410, unknown ones 404.

Authentication (each operation lists the schemes it accepts in \`security\`; any one of them suffices). One credential per request: \`Authorization\` or \`X-API-Key\`. The same value in both counts as one (a generated client that answers every scheme with one token sends it in both, and is served as if it had sent it once); two different values answer 401 \`not_authenticated\`, since the server never picks one of two callers.
- People (agency staff, admins, travellers): \`POST /api/v1/auth/login\` gives a short-lived access token (\`bearerAuth\`, \`Authorization: Bearer <access_token>\`) and a rotating refresh token; \`POST /api/v1/auth/refresh\` swaps the refresh token for a new pair before or after the access token expires (401 \`token_expired\`). The SDK and the CLI refresh by themselves. Use this in browser apps and terminals: a person is behind every call.
- Machines (an integrator's server, CI pipelines): an API key created by a company admin (\`POST /api/v1/company/api-keys\`, shown once, \`tk_test_…\` in sandbox, \`tk_live_…\` in live mode), sent as \`X-API-Key: tk_…\` (\`apiKeyAuth\`) or \`Authorization: Bearer tk_…\` (\`apiKeyBearerAuth\`). Nothing to refresh; keep it in a secret store, never in a browser. A key acts for its company with its role (\`company_staff\` unless created \`company_admin\`) on every operation that lists \`apiKeyAuth\` (company surfaces, searches, bookings, payments, ticketing). Platform administration, traveller operations, the caller's own account, key management and staff management refuse a valid key with 403 \`api_key_not_allowed\`: a key never creates, promotes or re-activates a principal, nor creates another credential (\`x-credential-policy\` on each operation: \`api_key\`, \`person\`, or \`own_session\`, which also refuses an impersonation token with 403 \`impersonation_not_allowed\`). A revoked or expired key answers 401 \`api_key_revoked\` / \`api_key_expired\` on the next request, in every server process; an unknown one 401 \`invalid_api_key\`. Each key has its own rate limit (429 with Retry-After); every booking, payment or ticketing call made with a key is audited with the key id.

Response headers: every answer carries \`X-Request-Id\` and \`API-Version\`; an answer replayed for a repeated \`Idempotency-Key\` carries \`Idempotent-Replayed: true\`; the rate-limited operations (searches and their streams, \`x-rate-limited\`) carry \`RateLimit-Limit\`, \`RateLimit-Remaining\`, \`RateLimit-Reset\` and \`RateLimit-Policy\` on success and on 429 (which also has \`Retry-After\`). Each response declares the ones it carries (\`components.headers\`).

Versioning: the major version is in the path (\`/api/v1\`) and in \`info.version\`, which every answer names in \`API-Version\`. Backward-compatible changes keep the version and are listed in CHANGELOG.md: new operations, new optional request fields, new response fields and headers, new enum values and error codes (clients ignore unknown fields and treat unknown codes by their status). Anything else (removing or renaming, a new required field, a changed type or meaning) is a new major under a new path prefix, served beside the old one. A deprecated operation or field is marked \`deprecated: true\` (an operation with \`x-deprecated-at\` and \`x-sunset\`), and a deprecated operation's answers carry \`Deprecation\` and \`Sunset\` headers (RFC 9745, RFC 8594); it stays at least 6 months after that marking (12 for a major version). Policy in docs/api-versioning.md; changes in CHANGELOG.md.

Extensions: \`x-roles\` (roles allowed), \`x-tenant\` (scoped to the caller’s company), \`x-idempotency\`, \`x-sse\` (text/event-stream), \`x-rate-limited\`, \`x-error-codes\`, \`x-addition\` (not in the spec; documented addition), \`x-credential-policy\` (which credentials may call: \`api_key\` keys and people, \`person\` people only, \`own_session\` people in their own session, not impersonated).`;

/**
 * Codes any request can get before (or without) an operation: no such path (404), a method the path does
 * not list (405), a request that is not HTTP/1.1 (400) or arrives too slowly (408), an operation of the
 * contract the server does not implement (501). Listed once, at the document's top level.
 */
const PROTOCOL_ERROR_CODES = [
  'not_found',
  'method_not_allowed',
  'malformed_request',
  'request_timeout',
  'not_implemented',
];

function collectSchemas(): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const group of [
    commonSchemas,
    flightSchemas,
    hotelSchemas,
    bookingSchemas,
    accountSchemas,
    opsSchemas,
    eventSchemas,
    apiKeySchemas,
    feedSchemas,
    webhookSchemas,
    scheduleChangeSchemas,
  ]) {
    for (const [name, schema] of Object.entries(group)) {
      if (name in out) throw new Error(`duplicate schema ${name}`);
      out[name] = schema;
    }
  }
  return out;
}

function collectPaths(): Record<string, Record<string, Json>> {
  const all: BuiltOp[] = [
    ...authOps,
    ...flightSearchOps,
    ...referenceOps,
    ...hotelOps,
    ...transportOps,
    ...bookingsOps,
    ...paymentsOps,
    ...ticketingOps,
    ...ancillariesOps,
    ...adminOps,
    ...companyOps,
    ...apiKeyOps,
    ...eventOps,
    ...webhookOps,
    ...customerOps,
    ...platformOps,
    ...scheduleChangeOps,
  ];
  const paths: Record<string, Record<string, Json>> = {};
  const ids = new Set<string>();
  for (const { path, method, operation } of all) {
    const item = paths[path] ?? {};
    if (item[method]) throw new Error(`duplicate operation ${method.toUpperCase()} ${path}`);
    const id = operation.operationId as string;
    if (ids.has(id)) throw new Error(`duplicate operationId ${id}`);
    ids.add(id);
    item[method] = operation;
    paths[path] = item;
  }
  return paths;
}

/** Every `$ref` must point at a declared component. */
function checkRefs(node: unknown, schemas: Record<string, Json>): void {
  if (Array.isArray(node)) {
    for (const n of node) checkRefs(n, schemas);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/headers/')) {
      if (!(value.slice('#/components/headers/'.length) in RESPONSE_HEADERS))
        throw new Error(`unresolved $ref ${value}`);
    } else if (key === '$ref' && typeof value === 'string') {
      const name = value.replace('#/components/schemas/', '').split('/')[0] as string;
      if (!(name in schemas)) throw new Error(`unresolved $ref ${value}`);
    } else checkRefs(value, schemas);
  }
}

export function buildDocument(): Json {
  const schemas = collectSchemas();
  const paths = collectPaths();
  checkRefs(paths, schemas);
  checkRefs(schemas, schemas);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Multi-Supplier Travel Service API',
      version: API_VERSION,
      description: DESCRIPTION,
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    'x-environment': 'test',
    'x-error-codes': PROTOCOL_ERROR_CODES,
    servers: [{ url: 'http://localhost:8080', description: 'test' }],
    security: [{ bearerAuth: [] }],
    tags: TAGS,
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'Access token from POST /api/v1/auth/login: `Authorization: Bearer <access_token>`.',
        },
        apiKeyAuth: {
          type: 'apiKey',
          in: 'header',
          name: 'X-API-Key',
          description:
            'A company API key (`tk_test_…` / `tk_live_…`, from POST /api/v1/company/api-keys) for servers and CI, on the operations that list this scheme.',
        },
        apiKeyBearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'tk_test_… / tk_live_… API key',
          description:
            'The same API key sent as `Authorization: Bearer tk_…`, on the operations that list `apiKeyAuth`.',
        },
      },
      headers: RESPONSE_HEADERS,
      schemas,
    },
  };
}

export function renderDocument(): string {
  return `${JSON.stringify(buildDocument(), null, 2)}\n`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const text = renderDocument();
  writeFileSync(OUTPUT, text);
  const doc = buildDocument() as { paths: Record<string, Record<string, unknown>> };
  const count = Object.values(doc.paths).reduce((n, item) => n + Object.keys(item).length, 0);
  console.log(`wrote ${OUTPUT} (${count} operations)`);
  // The package's generated types (paths/operations/components, ErrorCode) follow the document.
  mkdirSync(dirname(SCHEMA_OUTPUT), { recursive: true });
  writeFileSync(SCHEMA_OUTPUT, await renderSchemaTypes(text));
  writeFileSync(ERROR_CODES_OUTPUT, renderErrorCodes(doc));
  console.log(`wrote ${SCHEMA_OUTPUT} and ${ERROR_CODES_OUTPUT}`);
}
