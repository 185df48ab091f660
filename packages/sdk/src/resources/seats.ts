/** Seat maps and selection; paid-seat issuance carries an Idempotency-Key (it creates EMDs). */
import { type IdempotentCallOptions, resolveIdempotencyKey } from '../core/idempotency.ts';
import { unwrap } from '../core/result.ts';
import type { BookingRef } from './bookings.ts';
import type { ClientContext, RequestOptions } from './context.ts';
import type { BodyOf, QueryOf } from './types.ts';

const path = (bookingId: BookingRef) => ({ booking_id: String(bookingId) });

/**
 * The `seats` namespace.
 *
 * @example
 * const map = await travel.seats.map(42);
 * await travel.seats.select(42, { segment_id: 'S1', seat_number: '12A', passenger_id: 'P1' });
 */
export function seatsResource(ctx: ClientContext) {
  return {
    map: (bookingId: BookingRef, options?: RequestOptions) =>
      unwrap(
        ctx.raw.GET('/api/v1/bookings/{booking_id}/seats', {
          params: { path: path(bookingId) },
          ...ctx.init(options),
        }),
      ),
    select: (
      bookingId: BookingRef,
      query: QueryOf<'/api/v1/bookings/{booking_id}/seats', 'post'>,
      options?: RequestOptions,
    ) =>
      unwrap(
        ctx.raw.POST('/api/v1/bookings/{booking_id}/seats', {
          params: { path: path(bookingId), query },
          body: {},
          ...ctx.init(options),
        }),
      ),
    /** Partial success is normal: the response says what was requested and what was stored. */
    batch: (
      bookingId: BookingRef,
      body: BodyOf<'/api/v1/bookings/{booking_id}/seats/batch', 'post'>,
      options?: RequestOptions,
    ) =>
      unwrap(
        ctx.raw.POST('/api/v1/bookings/{booking_id}/seats/batch', {
          params: { path: path(bookingId) },
          body,
          ...ctx.init(options),
        }),
      ),
    issue: (
      bookingId: BookingRef,
      query: QueryOf<'/api/v1/bookings/{booking_id}/seats/issue', 'post'> = {},
      options?: IdempotentCallOptions,
    ) =>
      unwrap(
        ctx.raw.POST('/api/v1/bookings/{booking_id}/seats/issue', {
          params: { path: path(bookingId), query },
          body: {},
          ...ctx.init(options, { 'Idempotency-Key': resolveIdempotencyKey(options) }),
        }),
      ),
  };
}
