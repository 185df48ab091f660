/** Ancillaries: SSR requests, catalogue, purchase and EMD issuance (idempotent), cancel. */
import { type IdempotentCallOptions, resolveIdempotencyKey } from '../core/idempotency.ts';
import { unwrap } from '../core/result.ts';
import type { BookingRef } from './bookings.ts';
import type { ClientContext, RequestOptions } from './context.ts';
import type { BodyOf, QueryOf } from './types.ts';

const path = (bookingId: BookingRef) => ({ booking_id: String(bookingId) });

/**
 * The `ancillaries` namespace.
 *
 * @example
 * const catalogue = await travel.ancillaries.catalogue(42, { service_group: 'BG' });
 */
export function ancillariesResource(ctx: ClientContext) {
  // Purchase and EMD issuance are optional-idempotency operations in the contract: the key goes in `headers`.
  const key = (options?: IdempotentCallOptions) => ({ 'Idempotency-Key': resolveIdempotencyKey(options) });
  return {
    request: (
      bookingId: BookingRef,
      query: QueryOf<'/api/v1/bookings/{booking_id}/ancillaries', 'post'>,
      options?: RequestOptions,
    ) =>
      unwrap(
        ctx.raw.POST('/api/v1/bookings/{booking_id}/ancillaries', {
          params: { path: path(bookingId), query },
          body: {},
          ...ctx.init(options),
        }),
      ),
    catalogue: (
      bookingId: BookingRef,
      query: QueryOf<'/api/v1/bookings/{booking_id}/ancillaries/catalogue', 'get'> = {},
      options?: RequestOptions,
    ) =>
      unwrap(
        ctx.raw.GET('/api/v1/bookings/{booking_id}/ancillaries/catalogue', {
          params: { path: path(bookingId), query },
          ...ctx.init(options),
        }),
      ),
    purchase: (
      bookingId: BookingRef,
      body: BodyOf<'/api/v1/bookings/{booking_id}/ancillaries/purchase', 'post'>,
      options?: IdempotentCallOptions,
    ) =>
      unwrap(
        ctx.raw.POST('/api/v1/bookings/{booking_id}/ancillaries/purchase', {
          params: { path: path(bookingId) },
          body,
          ...ctx.init(options, key(options)),
        }),
      ),
    issueEmd: (
      bookingId: BookingRef,
      body: BodyOf<'/api/v1/bookings/{booking_id}/ancillaries/emd', 'post'> = {},
      options?: IdempotentCallOptions,
    ) =>
      unwrap(
        ctx.raw.POST('/api/v1/bookings/{booking_id}/ancillaries/emd', {
          params: { path: path(bookingId) },
          body,
          ...ctx.init(options, key(options)),
        }),
      ),
    cancel: (
      bookingId: BookingRef,
      body: BodyOf<'/api/v1/bookings/{booking_id}/ancillaries/cancel', 'post'> = {},
      options?: RequestOptions,
    ) =>
      unwrap(
        ctx.raw.POST('/api/v1/bookings/{booking_id}/ancillaries/cancel', {
          params: { path: path(bookingId) },
          body,
          ...ctx.init(options),
        }),
      ),
  };
}
