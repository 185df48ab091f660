import { HttpResponse, http } from 'msw';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  AuthenticationError,
  BookingPendingError,
  ConflictError,
  createApiError,
  type ErrorCode,
  NotFoundError,
  NotSupportedError,
  OfferExpiredError,
  PaymentDeclinedError,
  PermissionError,
  PriceChangedError,
  RateLimitError,
  ServerError,
  SupplierError,
  TravelApiError,
  ValidationError,
} from '../src/index.ts';
import { apiError, BASE, testClient, useMsw } from './helpers.ts';

const server = useMsw();
const body = (code: string, extra: Record<string, unknown> = {}) => ({
  detail: 'x',
  code,
  request_id: 'r1',
  ...extra,
});

describe('error mapping: code first, status second', () => {
  const cases: [number, string, new (...args: never[]) => TravelApiError][] = [
    [400, 'payment_declined', PaymentDeclinedError],
    [400, 'price_changed', PriceChangedError],
    [400, 'offer_expired', OfferExpiredError],
    [404, 'offer_not_found', OfferExpiredError],
    [400, 'sold_out', OfferExpiredError],
    [400, 'supplier_rejected', SupplierError],
    [502, 'booking_pending', BookingPendingError],
    [501, 'not_supported_by_provider', NotSupportedError],
    [409, 'idempotency_in_progress', ConflictError],
    [422, 'idempotency_key_reused', ValidationError],
    [410, 'search_expired', NotFoundError],
    [401, 'token_expired', AuthenticationError],
    [403, 'tenant_mismatch', PermissionError],
    [404, 'booking_not_found', NotFoundError],
    [429, 'rate_limited', RateLimitError],
    [500, 'internal_error', ServerError],
    [503, 'maintenance', ServerError],
    [400, 'something_new', TravelApiError],
  ];
  it.each(cases)('%i %s', (status, code, Class) => {
    const error = createApiError({ status, body: body(code), idempotencyKey: 'k' });
    expect(error).toBeInstanceOf(Class);
    expect(error).toBeInstanceOf(TravelApiError);
    expect(error).toMatchObject({ status, code, requestId: 'r1', idempotencyKey: 'k', detail: 'x' });
    expect(error.name).toBe(Class.name);
  });

  it("maps only the contract's codes: supplier_timeout, declared by no operation, is left to the status", () => {
    const late = createApiError({ status: 504, body: body('supplier_timeout') });
    expect(late).toBeInstanceOf(ServerError);
    expect(late).not.toBeInstanceOf(SupplierError);
    const down = createApiError({ status: 503, body: body('supplier_unavailable') });
    expect(down).toBeInstanceOf(SupplierError);
    expect((down as SupplierError).retryable).toBe(true);
    // The SDK's code table is typed `satisfies Partial<Record<ErrorCode, …>>`: this is why the entry had to go.
    expectTypeOf<'supplier_timeout'>().not.toExtend<ErrorCode>();
    expectTypeOf<'supplier_unavailable'>().toExtend<ErrorCode>();
  });

  it('carries the travel details', () => {
    expect(
      (
        createApiError({
          status: 502,
          body: body('booking_pending', { booking_id: 42 }),
        }) as BookingPendingError
      ).bookingId,
    ).toBe(42);
    const price = createApiError({
      status: 400,
      body: body('price_changed', { previous_total_minor: 100, new_total_minor: 120 }),
    });
    expect(price).toMatchObject({ oldTotal: 100, newTotal: 120 });
    const supplier = createApiError({
      status: 503,
      body: body('supplier_unavailable', { supplier: 'amadeus' }),
    });
    expect(supplier).toMatchObject({ supplier: 'amadeus', retryable: true });
    const limited = createApiError({
      status: 429,
      body: body('rate_limited'),
      headers: new Headers({ 'Retry-After': '7' }),
    });
    expect((limited as RateLimitError).retryAfter).toBe(7);
  });

  it('keeps the 422 detail list as issues', () => {
    const detail = [{ loc: ['body', 'email'], msg: 'Field required', type: 'missing' }];
    const error = createApiError({ status: 422, body: { detail } });
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual(detail);
    expect(error.code).toBe('validation_error');
  });

  it('names the field(s) in the message of a 422, not only in issues', () => {
    const detail = [
      { loc: ['query', 'query'], msg: 'String should have at least 2 characters', type: 'string_too_short' },
      { loc: ['body', 'passengers', 0, 'document'], msg: 'Field required', type: 'missing' },
    ];
    const error = createApiError({ status: 422, body: { detail, request_id: 'req_1' } });
    expect(error.message).toContain('query.query: String should have at least 2 characters');
    expect(error.message).toContain('body.passengers.0.document: Field required');
    const many = createApiError({
      status: 422,
      body: { detail: [1, 2, 3, 4, 5].map((i) => ({ loc: ['body', `f${i}`], msg: 'bad', type: 'x' })) },
    });
    expect(many.message).toContain('body.f3: bad; and 2 more');
  });

  it('maps errors of real calls, with the request id from the body or the header', async () => {
    server.use(
      http.get(`${BASE}/api/v1/bookings/:id`, () => apiError(404, 'booking_not_found')),
      http.get(
        `${BASE}/api/v1/auth/me`,
        () => new HttpResponse('nope', { status: 401, headers: { 'X-Request-Id': 'hdr-1' } }),
      ),
    );
    const { client } = testClient();
    await expect(client.bookings.get('ABC123')).rejects.toMatchObject({
      name: 'NotFoundError',
      code: 'booking_not_found',
      requestId: 'req-booking_not_found',
    });
    await expect(client.auth.me()).rejects.toMatchObject({
      name: 'AuthenticationError',
      status: 401,
      requestId: 'hdr-1',
      detail: 'nope',
    });
  });
});
