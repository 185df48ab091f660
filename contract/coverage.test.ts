/**
 * The contract covers the spec: every endpoint of endpoints.txt, nothing else except documented
 * additions, and the cross-cutting rules (security, roles, idempotency, errors, SSE) on every operation.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ANCILLARY_STATUSES } from '../packages/server/src/domains/flight-booking/ancillary/state-machine.ts';
import { PAYMENT_STATES as SERVER_PAYMENT_STATES } from '../packages/server/src/domains/flight-booking/payment/state-machine.ts';
import { BOOKING_STATUSES as SERVER_BOOKING_STATUSES } from '../packages/server/src/domains/flight-booking/state-machine.ts';
import { RESERVATION_STATUSES } from '../packages/server/src/domains/reservation/state-machine.ts';
import { CURRENCIES } from '../packages/server/src/suppliers/ports/errors.ts';
import { buildDocument } from './build.ts';

// biome-ignore lint/suspicious/noExplicitAny: the tests walk the untyped JSON document.
type Json = Record<string, any>;

const doc = buildDocument() as Json;
const METHODS = ['get', 'post', 'patch', 'put', 'delete'];

interface Op {
  key: string;
  method: string;
  path: string;
  op: Json;
}
const ops: Op[] = Object.entries(doc.paths as Json).flatMap(([path, item]) =>
  Object.entries(item as Json)
    .filter(([m]) => METHODS.includes(m))
    .map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, method, path, op: op as Json })),
);
const byKey = new Map(ops.map((o) => [o.key, o]));

/** A copy of the spec's endpoint list, kept in the repo; checked against the shared spec when it is present. */
const endpointsFile = new URL('./endpoints.txt', import.meta.url);
const sharedEndpointsFile = new URL('../../shared/spec/endpoints.txt', import.meta.url);
const EXPECTED_COUNT = 173;
const readLines = (u: URL): string[] =>
  readFileSync(u, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
const endpoints: string[] = readLines(endpointsFile);

/** Operations the spec marks `idem`. */
const IDEM = [
  'POST /api/v1/bookings/createPnr',
  'POST /api/v1/bookings/{booking_id}/authorize',
  'POST /api/v1/bookings/{booking_id}/payment/capture',
  'POST /api/v1/bookings/{booking_id}/payment/void',
  'POST /api/v1/bookings/{booking_id}/payment/refund',
  'POST /api/v1/bookings/{booking_id}/ticket',
  'POST /api/v1/hotel/book',
  'POST /api/v1/transport/book',
];

/** Guard `none` in the spec, plus our public additions. */
const PUBLIC = new Set([
  'POST /api/v1/auth/register',
  'GET /join',
  'GET /api/v1/auth/verify-email',
  'POST /api/v1/auth/login',
  'GET /api/v1/airlines/search',
  'GET /api/v1/airports/search',
  'GET /health/',
  'GET /health/health',
  'GET /api/v1/health/',
  'GET /api/v1/health/health',
  'GET /metrics/cache',
  'GET /metrics/combined',
  'GET /metrics/redis',
  'GET /config',
  'GET /',
  'POST /admin/cache/clear',
  'POST /admin/maintenance/run',
  // additions
  'GET /health/live',
  'GET /health/ready',
  'GET /openapi.json',
  'GET /docs',
  'GET /metrics',
  'POST /api/v1/auth/refresh',
  'POST /api/v1/auth/logout',
]);

const SSE = [
  'GET /api/v1/flight/getFare/stream/{search_id}',
  'GET /api/v1/flight/getFare/stream-by-gds/{search_id}',
  'GET /api/v1/hotel/search/stream/{search_id}',
  'GET /api/v1/hotel/search/stream-by-provider/{search_id}',
  'GET /api/v1/transport/search/stream/{search_id}',
  'GET /api/v1/transport/search/stream-by-provider/{search_id}',
  'GET /api/v1/events/stream',
];

function resolve(node: Json): Json {
  if (typeof node?.$ref === 'string') {
    const name = node.$ref.replace('#/components/schemas/', '');
    return doc.components.schemas[name];
  }
  return node;
}
const params = (o: Op): Json[] => (o.op.parameters ?? []) as Json[];
const idemHeader = (o: Op) => params(o).find((p) => p.in === 'header' && p.name === 'Idempotency-Key');

describe('operations', () => {
  it('contract/endpoints.txt has the 173 operations of the spec (and is its copy where the spec lies beside the repo)', () => {
    expect(endpoints).toHaveLength(EXPECTED_COUNT);
    expect(new Set(endpoints).size).toBe(EXPECTED_COUNT);
    // The repository is self-contained: its copy is the list the tests use. A checkout that has the shared
    // spec beside it also proves the copy is current; one without it runs the same test on the copy alone.
    if (existsSync(sharedEndpointsFile)) expect(endpoints).toEqual(readLines(sharedEndpointsFile));
  });

  it('every endpoints.txt line is an operation (method and path exactly)', () => {
    const missing = endpoints.filter((e) => !byKey.has(e));
    expect(missing).toEqual([]);
  });

  it('every operation not in endpoints.txt is a documented addition (x-addition: true)', () => {
    const listed = new Set(endpoints);
    const undocumented = ops
      .filter((o) => !listed.has(o.key) && o.op['x-addition'] !== true)
      .map((o) => o.key);
    expect(undocumented).toEqual([]);
    const falseAdditions = ops
      .filter((o) => listed.has(o.key) && o.op['x-addition'] !== undefined)
      .map((o) => o.key);
    expect(falseAdditions).toEqual([]);
    expect(
      ops
        .filter((o) => o.op['x-addition'])
        .map((o) => o.key)
        .sort(),
    ).toEqual(
      [
        'GET /docs',
        'GET /health/live',
        'GET /health/ready',
        'GET /join',
        'GET /api/v1/flight/offers/{offer_id}',
        'GET /api/v1/hotel/bookings/{booking_id}/cancellation-quote',
        'POST /api/v1/company/api-keys',
        'GET /api/v1/company/api-keys',
        'GET /api/v1/company/api-keys/current',
        'DELETE /api/v1/company/api-keys/{key_id}',
        'GET /api/v1/admin/companies/{company_id}/api-keys',
        'DELETE /api/v1/admin/companies/{company_id}/api-keys/{key_id}',
        'GET /metrics',
        'GET /openapi.json',
        // Issue 32: a booking's story, for the platform and for the company's staff.
        'GET /api/v1/admin/bookings/{booking_id}/timeline',
        'GET /api/v1/company/bookings/{booking_id}/timeline',
        // Issue 30: the event feed and webhooks.
        'GET /api/v1/events',
        'GET /api/v1/events/stream',
        'POST /api/v1/company/webhook-endpoints',
        'GET /api/v1/company/webhook-endpoints',
        'PATCH /api/v1/company/webhook-endpoints/{endpoint_id}',
        'POST /api/v1/company/webhook-endpoints/{endpoint_id}/roll-secret',
        'GET /api/v1/company/webhook-endpoints/{endpoint_id}/deliveries',
        'POST /api/v1/company/webhook-endpoints/{endpoint_id}/deliveries/{delivery_id}/resend',
        // Issue 30: airline schedule changes of a flight booking.
        'GET /api/v1/bookings/{booking_id}/schedule-changes',
        'POST /api/v1/bookings/{booking_id}/schedule-changes/refresh',
        'POST /api/v1/bookings/{booking_id}/schedule-changes/{change_id}/accept',
        'POST /api/v1/auth/logout',
        'POST /api/v1/auth/refresh',
        'POST /api/v1/auth/impersonation/end',
      ].sort(),
    );
  });

  it('operationIds are unique camelCase', () => {
    const ids = ops.map((o) => o.op.operationId as string);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z][a-zA-Z0-9]*$/);
  });

  it('every operation has a summary and exactly one declared tag', () => {
    const declared = new Set((doc.tags as Json[]).map((t) => t.name));
    for (const o of ops) {
      expect(o.op.summary, o.key).toBeTruthy();
      expect(o.op.tags, o.key).toHaveLength(1);
      expect(declared.has(o.op.tags[0]), `${o.key} tag ${o.op.tags[0]}`).toBe(true);
    }
  });

  it('every response has content with a schema, and a 2xx', () => {
    for (const o of ops) {
      const responses = o.op.responses as Json;
      expect(
        Object.keys(responses).some((s) => s.startsWith('2')),
        o.key,
      ).toBe(true);
      for (const [status, r] of Object.entries(responses)) {
        // 304 Not Modified has no body by definition (RFC 9110 §15.4.5).
        if (status === '304') {
          expect((r as Json).content, `${o.key} 304`).toBeUndefined();
          continue;
        }
        const content = (r as Json).content as Json | undefined;
        expect(content, `${o.key} ${status}`).toBeDefined();
        for (const [type, media] of Object.entries(content ?? {})) {
          expect((media as Json).schema, `${o.key} ${status} ${type}`).toBeDefined();
        }
      }
    }
  });

  it('every path parameter is declared and required', () => {
    for (const o of ops) {
      const names = [...o.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      const declared = params(o).filter((p) => p.in === 'path');
      expect(declared.map((p) => p.name).sort(), o.key).toEqual(names.sort());
      for (const p of declared) expect(p.required, `${o.key} ${p.name}`).toBe(true);
    }
  });
});

describe('security and roles', () => {
  /**
   * Where API keys work (issue 16): what a company user may call, except their own account, key
   * management and staff changes (issue 28: a key never creates, promotes or re-activates a principal).
   */
  const takesApiKey = (o: Op): boolean => {
    if (PUBLIC.has(o.key) || o.op.tags[0] === 'auth') return false;
    if (o.path.startsWith('/api/v1/company/api-keys'))
      return o.key === 'GET /api/v1/company/api-keys/current';
    if (o.path.startsWith('/api/v1/company/staff/')) return false;
    // Issue 30: a webhook endpoint's secret is a credential: managed in a person's session only.
    if (o.path.startsWith('/api/v1/company/webhook-endpoints')) return false;
    const roles = o.op['x-roles'] as string[] | undefined;
    return !roles || roles.includes('company_admin') || roles.includes('company_staff');
  };
  const KEY_SECURITY = [{ bearerAuth: [] }, { apiKeyAuth: [] }, { apiKeyBearerAuth: [] }];

  it('guard none has security []; company-reachable operations also take API keys; the rest bearerAuth', () => {
    for (const o of ops) {
      if (PUBLIC.has(o.key)) expect(o.op.security, o.key).toEqual([]);
      else if (takesApiKey(o)) expect(o.op.security, o.key).toEqual(KEY_SECURITY);
      else expect(o.op.security, o.key).toEqual([{ bearerAuth: [] }]);
    }
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
    });
  });

  it('createPnr accepts two declared bearer schemes (spec rule 8): an access token and an API key', () => {
    expect(byKey.get('POST /api/v1/bookings/createPnr')?.op.security).toEqual(KEY_SECURITY);
    expect(doc.components.securitySchemes.apiKeyAuth).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'X-API-Key',
    });
    expect(doc.components.securitySchemes.apiKeyBearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual([
      'apiKeyAuth',
      'apiKeyBearerAuth',
      'bearerAuth',
    ]);
  });

  it('API key codes: 401 everywhere authenticated, 429 where keys work, 403 api_key_not_allowed where they do not', () => {
    for (const o of ops.filter((x) => !PUBLIC.has(x.key))) {
      const codes401 = o.op.responses['401']['x-error-codes'] as string[];
      expect(codes401, o.key).toEqual(
        expect.arrayContaining(['invalid_api_key', 'api_key_revoked', 'api_key_expired']),
      );
      const codes403 = o.op.responses['403']['x-error-codes'] as string[];
      if (takesApiKey(o)) {
        expect(codes403, o.key).not.toContain('api_key_not_allowed');
        expect(o.op.responses['429']?.['x-error-codes'], o.key).toContain('rate_limited');
      } else expect(codes403, o.key).toContain('api_key_not_allowed');
      expect(o.op['x-credential-policy'], o.key).toBe(
        takesApiKey(o) ? 'api_key' : o.op['x-credential-policy'] === 'own_session' ? 'own_session' : 'person',
      );
      if (o.op['x-credential-policy'] === 'own_session')
        expect(codes403, o.key).toContain('impersonation_not_allowed');
    }
  });

  it('admin, company and customer operations carry x-roles and the right tenancy', () => {
    for (const o of ops) {
      const roles = o.op['x-roles'] as string[] | undefined;
      if (o.path.startsWith('/api/v1/admin/')) expect(roles, o.key).toEqual(['super_admin']);
      else if (o.path.startsWith('/api/v1/company/')) {
        expect(roles?.includes('company_admin'), o.key).toBe(true);
        expect(o.op['x-tenant'], o.key).toBe(true);
      } else if (o.path.startsWith('/api/v1/customer/')) {
        expect(roles, o.key).toEqual(['customer']);
        expect(o.op['x-tenant'], o.key).toBe(true);
      } else expect(roles, o.key).toBeUndefined();
    }
  });

  it('staff, markup rules, profile/settings PATCH and wallet need company_admin', () => {
    for (const o of ops.filter((x) => x.path.startsWith('/api/v1/company/'))) {
      const adminOnly =
        /\/company\/(staff|markup-rules|wallet)/.test(o.path) ||
        (o.path.startsWith('/api/v1/company/api-keys') && !o.path.endsWith('/current')) ||
        o.path.startsWith('/api/v1/company/webhook-endpoints') ||
        (o.method === 'patch' && o.path.includes('/profile'));
      expect(o.op['x-roles'], o.key).toEqual(
        adminOnly ? ['company_admin'] : ['company_admin', 'company_staff'],
      );
    }
  });

  it('authenticated operations answer 401 and 403; role and tenant ones list why', () => {
    for (const o of ops.filter((x) => !PUBLIC.has(x.key))) {
      expect(o.op.responses['401'], o.key).toBeDefined();
      expect(o.op.responses['403'], o.key).toBeDefined();
      if (o.op['x-roles'])
        expect(o.op.responses['403']['x-error-codes'], o.key).toContain('insufficient_role');
      if (o.op['x-tenant'])
        expect(o.op.responses['403']['x-error-codes'], o.key).toContain('tenant_mismatch');
    }
  });
});

describe('idempotency', () => {
  it('every idem operation requires the Idempotency-Key header', () => {
    for (const key of IDEM) {
      const o = byKey.get(key);
      expect(o, key).toBeDefined();
      if (!o) continue;
      expect(o.op['x-idempotency'], key).toBe('required');
      const h = idemHeader(o);
      expect(h?.required, key).toBe(true);
      expect(h?.schema).toEqual({ type: 'string', minLength: 1, maxLength: 255 });
    }
  });

  it('every other POST and PATCH has x-idempotency optional and an optional header', () => {
    for (const o of ops.filter(
      (x) => (x.method === 'post' || x.method === 'patch') && !IDEM.includes(x.key),
    )) {
      expect(o.op['x-idempotency'], o.key).toBe('optional');
      const h = idemHeader(o);
      expect(h, o.key).toBeDefined();
      expect(h?.required ?? false, o.key).toBe(false);
    }
  });

  it('GET and DELETE carry no x-idempotency', () => {
    for (const o of ops.filter((x) => x.method === 'get' || x.method === 'delete')) {
      expect(o.op['x-idempotency'], o.key).toBeUndefined();
    }
  });

  it('every POST/PATCH answers 409 idempotency_in_progress and 422 idempotency_key_reused', () => {
    for (const o of ops.filter((x) => x.method === 'post' || x.method === 'patch')) {
      expect(o.op.responses['409']?.['x-error-codes'], o.key).toContain('idempotency_in_progress');
      expect(o.op.responses['422']?.['x-error-codes'], o.key).toContain('idempotency_key_reused');
    }
  });
});

describe('errors', () => {
  it('every error response has ErrorResponse (or 422 HTTPValidationError) and lists x-error-codes', () => {
    for (const o of ops) {
      for (const [status, r] of Object.entries(o.op.responses as Json)) {
        const code = Number(status);
        if (code < 400 || code === 408) continue;
        if (code === 503 && o.op.tags[0] === 'platform') continue; // health: the Health body
        const schema = (r as Json).content['application/json'].schema as Json;
        if (code === 422)
          expect(schema.$ref, `${o.key} 422`).toBe('#/components/schemas/HTTPValidationError');
        else if (code === 502)
          // A hotel, transport or flight cancel whose provider answer was lost is pending too: its own body.
          expect(schema.$ref, `${o.key} 502`).toBe(
            /^cancel(Hotel|Transport)?Booking$/.test(o.op.operationId)
              ? '#/components/schemas/PendingCancellationError'
              : '#/components/schemas/PendingBookingError',
          );
        else if (code === 400 && schema.$ref === '#/components/schemas/OfferError')
          // Operations on an offer: ErrorResponse plus offer_currency (with currency_mismatch).
          expect((r as Json)['x-error-codes']).toContain('currency_mismatch');
        else expect(schema.$ref, `${o.key} ${status}`).toBe('#/components/schemas/ErrorResponse');
        const codes = (r as Json)['x-error-codes'] as string[];
        expect(codes?.length, `${o.key} ${status} x-error-codes`).toBeGreaterThan(0);
        for (const c of codes) expect(c).toMatch(/^[a-z][a-z0-9_]*$/);
      }
    }
  });

  it('422 and 431 on every operation; 415 and 413 on every POST and PATCH, 413 on DELETE; 500 everywhere', () => {
    for (const o of ops) {
      // The kernel checks every query parameter sent (a NUL anywhere is 422), and the transport refuses
      // oversized headers (431) before routing: any operation can answer both.
      expect(o.op.responses['422']?.['x-error-codes'], o.key).toContain('validation_error');
      expect(o.op.responses['431']?.['x-error-codes'], o.key).toEqual(['request_header_fields_too_large']);
      if (o.method === 'post' || o.method === 'patch') {
        expect(o.op.responses['415'], o.key).toBeDefined();
        expect(o.op.responses['413'], o.key).toBeDefined();
      }
      if (o.method === 'delete') expect(o.op.responses['413'], o.key).toBeDefined();
      expect(o.op.responses['500'], o.key).toBeDefined();
    }
  });

  it('searches, streams and login answer 429 with Retry-After', () => {
    const limited = [
      'POST /api/v1/auth/login',
      'POST /api/v1/flight/getFare',
      'POST /api/v1/hotel/search',
      'POST /api/v1/transport/search',
      'GET /api/v1/airlines/search',
      'GET /api/v1/airports/search',
      ...SSE,
    ];
    for (const key of limited) {
      const r = byKey.get(key)?.op.responses['429'];
      expect(r, key).toBeDefined();
      expect(r.headers['Retry-After'], key).toBeDefined();
      expect(r['x-error-codes'], key).toEqual(['rate_limited']);
    }
  });

  it('createPnr lists its codes; its 502 body carries booking_id and status', () => {
    const r = byKey.get('POST /api/v1/bookings/createPnr')?.op.responses as Json;
    expect(r['400']['x-error-codes']).toEqual(
      expect.arrayContaining(['supplier_rejected', 'offer_expired', 'price_changed', 'invalid_passenger']),
    );
    expect(r['409']['x-error-codes']).toEqual(['duplicate_supplier_reference', 'idempotency_in_progress']);
    expect(r['502']['x-error-codes']).toEqual(['booking_pending']);
    const pending = doc.components.schemas.PendingBookingError as Json;
    const extra = pending.allOf[1] as Json;
    expect(extra.required).toEqual(['booking_id', 'status']);
    expect(extra.properties.status.enum).toContain('pending_pnr');
  });

  it('payment operations list the payment codes; upsell lists upsell_unsupported', () => {
    const codes = (key: string) => byKey.get(key)?.op.responses['400']['x-error-codes'] as string[];
    expect(codes('POST /api/v1/bookings/{booking_id}/authorize')).toContain('payment_declined');
    expect(codes('POST /api/v1/bookings/{booking_id}/payment/capture')).toEqual(
      expect.arrayContaining(['invalid_payment_state', 'amount_exceeds_capturable']),
    );
    expect(codes('POST /api/v1/bookings/{booking_id}/payment/void')).toContain('invalid_payment_state');
    expect(codes('POST /api/v1/bookings/{booking_id}/payment/refund')).toEqual(
      expect.arrayContaining(['invalid_payment_state', 'amount_exceeds_refundable']),
    );
    expect(codes('POST /api/v1/bookings/upsell')).toContain('upsell_unsupported');
  });

  it('statuses the spec lists are present', () => {
    const has = (key: string, ...statuses: string[]) => {
      for (const s of statuses) expect(byKey.get(key)?.op.responses[s], `${key} ${s}`).toBeDefined();
    };
    has('POST /api/v1/flight/getFare', '202', '400', '422', '429', '500');
    has('GET /api/v1/flight/getFare/stream/{search_id}', '200', '404', '410', '422', '429');
    has('GET /api/v1/flight/getFare/stream-by-gds/{search_id}', '200', '404', '410', '422', '429');
    has('GET /api/v1/flight/getFare/batch/{search_id}', '200', '404', '408', '410', '422');
    has('POST /api/v1/hotel/search', '202', '400', '422', '429');
    has('POST /api/v1/bookings/createPnr', '200', '400', '409', '422', '500', '502');
    has('POST /api/v1/bookings/{booking_id}/notes', '200', '400', '422', '501');
    has('GET /api/v1/bookings/{booking_id}/ticket/status', '200', '404', '501');
    has('GET /api/v1/bookings/{booking_id}/ticket/document', '200', '404', '501');
    has('POST /api/v1/bookings/{booking_id}/ticket/{action}', '200', '404', '501');
    has('GET /api/v1/bookings/{booking_id}/servicing', '200', '404', '501');
    has('POST /api/v1/bookings/upsell', '200', '400', '404', '422');
  });
});

describe('streams', () => {
  it('SSE operations answer text/event-stream and accept Last-Event-ID', () => {
    for (const key of SSE) {
      const o = byKey.get(key);
      expect(o, key).toBeDefined();
      if (!o) continue;
      expect(o.op['x-sse'], key).toBe(true);
      expect(o.op.responses['200'].content['text/event-stream'].schema.$ref, key).toMatch(/StreamEventData$/);
      const h = params(o).find((p) => p.in === 'header' && p.name === 'Last-Event-ID');
      expect(h?.required ?? false, key).toBe(false);
      expect(h, key).toBeDefined();
    }
    expect(ops.filter((o) => o.op['x-sse']).length).toBe(SSE.length);
  });

  it('every stream declares its event names and ends with done', () => {
    const events = (schema: string) =>
      Object.keys(doc.components.schemas[schema].discriminator.mapping).sort();
    expect(events('FlightStreamEvent')).toEqual(['done', 'heartbeat', 'offer', 'supplier_done']);
    expect(events('FlightGdsStreamEvent')).toEqual(['done', 'gds_results', 'heartbeat']);
    expect(events('HotelStreamEvent')).toEqual(['done', 'heartbeat', 'hotel_offer', 'status_update']);
    expect(events('HotelProviderStreamEvent')).toEqual(['done', 'heartbeat', 'provider_results']);
    expect(events('TransportStreamEvent')).toEqual(['done', 'heartbeat', 'transport_offer']);
    expect(events('TransportProviderStreamEvent')).toEqual(['done', 'heartbeat', 'provider_results']);
    const done = doc.components.schemas.SearchDoneEvent as Json;
    expect(done.required).toContain('id');
    expect(resolve(done.properties.data).properties.status.enum).toEqual(['completed', 'partial', 'failed']);
  });
});

describe('shapes', () => {
  const schemas = doc.components.schemas as Json;

  it('Currency is exactly the 15 currencies of the supplier ports', () => {
    expect(schemas.Currency.enum).toEqual([...CURRENCIES]);
  });

  it('FlightOffer mirrors ports.ts FlightOffer', () => {
    expect(Object.keys(schemas.FlightOffer.properties).sort()).toEqual(
      [
        'offer_id',
        'search_id',
        'supplier',
        'slices',
        'validating_carrier',
        'cabin',
        'fare_brand',
        'refundable',
        'changeable',
        'baggage',
        'price',
        'passengers',
        'lcc',
        'expires_at',
        'supplier_price',
        'fx_rate',
        'booking_requirements',
      ].sort(),
    );
    expect(Object.keys(schemas.FlightPrice.properties)).toEqual([
      'currency',
      'base_minor',
      'taxes_minor',
      'markup_minor',
      'total_minor',
    ]);
  });

  // Not a restatement: each entity's statuses live in its server state machine, and the contract must
  // publish exactly those (a status added on one side only fails here).
  it('status enums are the statuses of the server state machines', () => {
    expect(schemas.BookingStatus.enum).toEqual([...SERVER_BOOKING_STATUSES]);
    expect(schemas.PaymentState.enum).toEqual([...SERVER_PAYMENT_STATES]);
    expect(schemas.HotelBookingStatus.enum).toEqual([...RESERVATION_STATUSES]);
    expect(schemas.TransportBookingStatus.enum).toEqual([...RESERVATION_STATUSES]);
    expect(schemas.AncillaryStatus.enum).toEqual([...ANCILLARY_STATUSES]);
  });

  it('flight search body follows the spec', () => {
    const body = schemas.FlightSearchRequest as Json;
    expect(body.required.sort()).toEqual(['companyCode', 'searchAirLegs', 'userCode']);
    expect(body.properties.searchAirLegs).toMatchObject({ minItems: 1, maxItems: 6 });
    expect(body.properties.adults).toMatchObject({ type: 'integer', minimum: 1, maximum: 9, default: 1 });
    expect(body.properties.children.default).toBe(0);
    expect(body.properties.infants.default).toBe(0);
    const leg = schemas.SearchAirLeg as Json;
    expect(leg.properties.origin.pattern).toBe('^[A-Z]{3}$');
    expect(leg.properties.departureDate.format).toBe('date');
  });

  it('limits from the spec are on the parameters', () => {
    const param = (key: string, name: string) =>
      params(byKey.get(key) as Op).find((p) => p.name === name) as Json;
    expect(param('GET /api/v1/flight/getFare/batch/{search_id}', 'timeout').schema).toEqual({
      type: 'integer',
      minimum: 5,
      maximum: 120,
      default: 30,
    });
    for (const key of ['GET /api/v1/airlines/search', 'GET /api/v1/airports/search']) {
      expect(param(key, 'query')).toMatchObject({ required: true, schema: { minLength: 2, maxLength: 50 } });
      expect(param(key, 'limit').schema).toMatchObject({ minimum: 1, maximum: 50, default: 10 });
      expect(param(key, 'country').schema).toMatchObject({ maxLength: 100 });
    }
    expect(param('GET /api/v1/airports/search', 'near_lat').required).toBeUndefined();
    expect(param('GET /api/v1/airports/search', 'near_lon').required).toBeUndefined();
  });

  it('list endpoints page with page >= 1 default 1 and page_size 1..100 default 20', () => {
    for (const o of ops) {
      const page = params(o).find((p) => p.name === 'page');
      const size = params(o).find((p) => p.name === 'page_size');
      if (!page && !size) continue;
      expect(page?.schema, o.key).toEqual({ type: 'integer', minimum: 1, maximum: 100000, default: 1 });
      expect(size?.schema, o.key).toEqual({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
    }
  });

  it('declares the test environment and version 1.0.0', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe('1.0.0');
    expect(doc['x-environment']).toBe('test');
    expect(doc.servers.some((s: Json) => s.description === 'test')).toBe(true);
  });

  it('every component schema is used', () => {
    const text = JSON.stringify({ paths: doc.paths, schemas });
    // A stream's SSE message union (`FlightStreamEvent`) is named by its `data` union's description
    // (`FlightStreamEventData`, the stream response's schema), which points into its members.
    const used = (name: string) =>
      text.includes(`"#/components/schemas/${name}"`) ||
      (name.endsWith('StreamEvent') && text.includes(`"#/components/schemas/${name}Data"`));
    const unused = Object.keys(schemas).filter((name) => !used(name));
    expect(unused).toEqual([]);
  });
});
