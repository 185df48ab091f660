/** Payments on a flight booking. Every call that moves money carries an Idempotency-Key and returns it. */
import { type IdempotentCallOptions, resolveIdempotencyKey } from '../core/idempotency.ts';
import { unwrap, unwrapWithMeta } from '../core/result.ts';
import type { BookingRef } from './bookings.ts';
import type { ClientContext, RequestOptions } from './context.ts';
import type { BodyOf, QueryOf } from './types.ts';

const path = (bookingId: BookingRef) => ({ booking_id: String(bookingId) });

/**
 * The `payments` namespace. Money calls resolve with `{ data, idempotencyKey, requestId }`.
 *
 * @example
 * const { data, idempotencyKey } = await travel.payments.authorize(42, { token: 'tok_sandbox_ok', currency: 'GBP', amount_minor: 12500 });
 */
export function paymentsResource(ctx: ClientContext) {
  const header = (options?: IdempotentCallOptions) => ({ 'Idempotency-Key': resolveIdempotencyKey(options) });
  return {
    authorize: (
      bookingId: BookingRef,
      body: BodyOf<'/api/v1/bookings/{booking_id}/authorize', 'post'>,
      options?: IdempotentCallOptions,
    ) =>
      unwrapWithMeta(
        ctx.raw.POST('/api/v1/bookings/{booking_id}/authorize', {
          params: { path: path(bookingId), header: header(options) },
          body,
          ...ctx.init(options),
        }),
      ),
    capture: (
      bookingId: BookingRef,
      query: QueryOf<'/api/v1/bookings/{booking_id}/payment/capture', 'post'> = {},
      options?: IdempotentCallOptions,
    ) =>
      unwrapWithMeta(
        ctx.raw.POST('/api/v1/bookings/{booking_id}/payment/capture', {
          params: { path: path(bookingId), query, header: header(options) },
          body: {},
          ...ctx.init(options),
        }),
      ),
    void: (
      bookingId: BookingRef,
      query: QueryOf<'/api/v1/bookings/{booking_id}/payment/void', 'post'> = {},
      options?: IdempotentCallOptions,
    ) =>
      unwrapWithMeta(
        ctx.raw.POST('/api/v1/bookings/{booking_id}/payment/void', {
          params: { path: path(bookingId), query, header: header(options) },
          body: {},
          ...ctx.init(options),
        }),
      ),
    refund: (
      bookingId: BookingRef,
      query: QueryOf<'/api/v1/bookings/{booking_id}/payment/refund', 'post'> = {},
      options?: IdempotentCallOptions,
    ) =>
      unwrapWithMeta(
        ctx.raw.POST('/api/v1/bookings/{booking_id}/payment/refund', {
          params: { path: path(bookingId), query, header: header(options) },
          body: {},
          ...ctx.init(options),
        }),
      ),
    history: (bookingId: BookingRef, options?: RequestOptions) =>
      unwrap(
        ctx.raw.GET('/api/v1/bookings/{booking_id}/payment/history', {
          params: { path: path(bookingId) },
          ...ctx.init(options),
        }),
      ),
  };
}
