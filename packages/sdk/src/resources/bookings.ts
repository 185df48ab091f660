/** Flight bookings: create (idempotent, 502-aware), read, cancel, and the pricing calls around an offer. */

import { type IdempotentCallOptions, resolveIdempotencyKey } from '../core/idempotency.ts';
import { FLIGHT_BOOKING_RULES } from '../core/pending.ts';
import { unwrap } from '../core/result.ts';
import type { BookingCallOptions } from './booking-outcome.ts';
import { bookWithOutcome } from './booking-outcome.ts';
import type { ClientContext, RequestOptions } from './context.ts';
import type { BodyOf, ResponseOf } from './types.ts';

/** A flight booking as `GET /api/v1/bookings/{booking_id}` returns it. */
export type Booking = ResponseOf<'/api/v1/bookings/{booking_id}', 'get'>;
/** An airline schedule change of a booking (`bookings.scheduleChanges`). */
export type ScheduleChange = ResponseOf<
  '/api/v1/bookings/{booking_id}/schedule-changes/{change_id}/accept',
  'post'
>;
/** The body of `bookings.create()`. */
export type CreateBookingRequest = BodyOf<'/api/v1/bookings/createPnr', 'post'>;

/** A numeric booking id or the 6-character PNR. */
export type BookingRef = number | string;

const path = (bookingId: BookingRef) => ({ path: { booking_id: String(bookingId) } });

/**
 * The `bookings` namespace.
 *
 * @example
 * const result = await travel.bookings.create({ offer_id, currency: 'GBP', passengers, contact });
 * if (result.outcome === 'confirmed') console.log(result.booking?.pnr, result.idempotencyKey);
 */
export function bookingsResource(ctx: ClientContext) {
  const get = (bookingId: BookingRef, options?: RequestOptions) =>
    unwrap(ctx.raw.GET('/api/v1/bookings/{booking_id}', { params: path(bookingId), ...ctx.init(options) }));
  return {
    /**
     * POST /api/v1/bookings/createPnr with an Idempotency-Key (yours or a fresh UUID, reused on retries).
     * A 502 pending confirmation is never retried: its settlement is awaited on the event stream (polled where
     * the stream is not available); the result says `confirmed`, `failed` or `pending`.
     */
    create: (body: CreateBookingRequest, options?: BookingCallOptions) =>
      bookWithOutcome<Booking>(
        ctx,
        (key) =>
          ctx.raw.POST('/api/v1/bookings/createPnr', {
            body,
            params: { header: { 'Idempotency-Key': key } },
            ...ctx.init(options),
          }),
        (id, signal) => get(id, signal ? { signal } : undefined),
        FLIGHT_BOOKING_RULES,
        'booking',
        options,
      ),
    get,
    cancel: (bookingId: BookingRef, options?: RequestOptions) =>
      unwrap(
        ctx.raw.POST('/api/v1/bookings/{booking_id}/cancel', {
          params: path(bookingId),
          body: {},
          ...ctx.init(options),
        }),
      ),
    revalidate: (
      body: BodyOf<'/api/v1/bookings/revalidation', 'post'>,
      options?: RequestOptions & { verbose?: boolean },
    ) =>
      unwrap(
        ctx.raw.POST('/api/v1/bookings/revalidation', {
          body,
          params: { query: options?.verbose ? { verbose: options.verbose } : {} },
          ...ctx.init(options),
        }),
      ),
    upsell: (body: BodyOf<'/api/v1/bookings/upsell', 'post'>, options?: RequestOptions) =>
      unwrap(ctx.raw.POST('/api/v1/bookings/upsell', { body, ...ctx.init(options) })),
    bags: {
      catalogue: (body: BodyOf<'/api/v1/bookings/bags/catalogue', 'post'>, options?: RequestOptions) =>
        unwrap(ctx.raw.POST('/api/v1/bookings/bags/catalogue', { body, ...ctx.init(options) })),
      reprice: (body: BodyOf<'/api/v1/bookings/bags/reprice', 'post'>, options?: RequestOptions) =>
        unwrap(ctx.raw.POST('/api/v1/bookings/bags/reprice', { body, ...ctx.init(options) })),
      allowances: (bookingId: BookingRef, options?: RequestOptions) =>
        unwrap(
          ctx.raw.GET('/api/v1/bookings/{booking_id}/baggage', {
            params: path(bookingId),
            ...ctx.init(options),
          }),
        ),
    },
    fareRules: (body: BodyOf<'/api/v1/bookings/fareRules', 'post'>, options?: RequestOptions) =>
      unwrap(ctx.raw.POST('/api/v1/bookings/fareRules', { body, ...ctx.init(options) })),
    rules: (bookingId: BookingRef, options?: RequestOptions) =>
      unwrap(
        ctx.raw.GET('/api/v1/bookings/{booking_id}/rules', { params: path(bookingId), ...ctx.init(options) }),
      ),
    order: (bookingId: BookingRef, options?: RequestOptions) =>
      unwrap(
        ctx.raw.GET('/api/v1/bookings/{booking_id}/order', { params: path(bookingId), ...ctx.init(options) }),
      ),
    /** The live order by record locator; `reference` must be the booking's own PNR (a confirmation). */
    orderByReference: (bookingId: BookingRef, reference?: string, options?: RequestOptions) =>
      unwrap(
        ctx.raw.GET('/api/v1/bookings/{booking_id}/order/by-reference', {
          params: { ...path(bookingId), query: reference ? { reference } : {} },
          ...ctx.init(options),
        }),
      ),
    foid: (
      bookingId: BookingRef,
      body: BodyOf<'/api/v1/bookings/{booking_id}/foid', 'patch'>,
      options?: RequestOptions,
    ) =>
      unwrap(
        ctx.raw.PATCH('/api/v1/bookings/{booking_id}/foid', {
          params: path(bookingId),
          body,
          ...ctx.init(options),
        }),
      ),
    commission: (
      bookingId: BookingRef,
      body: BodyOf<'/api/v1/bookings/{booking_id}/commission', 'patch'>,
      options?: RequestOptions,
    ) =>
      unwrap(
        ctx.raw.PATCH('/api/v1/bookings/{booking_id}/commission', {
          params: path(bookingId),
          body,
          ...ctx.init(options),
        }),
      ),
    /**
     * The airline's schedule changes of a booking (`schedule_change.detected`), and accepting one: the
     * booking's `flights` then show the new times.
     *
     * @example
     * const { data } = await travel.bookings.scheduleChanges.list(1042);
     * const pending = data.find((c) => c.status === 'pending');
     * if (pending) await travel.bookings.scheduleChanges.accept(1042, pending.id);
     */
    scheduleChanges: {
      list: (bookingId: BookingRef, options?: RequestOptions) =>
        unwrap(
          ctx.raw.GET('/api/v1/bookings/{booking_id}/schedule-changes', {
            params: path(bookingId),
            ...ctx.init(options),
          }),
        ),
      /** Re-reads the airline's schedule now (records a change it finds), then lists as `list` does. */
      refresh: (bookingId: BookingRef, options?: RequestOptions) =>
        unwrap(
          ctx.raw.POST('/api/v1/bookings/{booking_id}/schedule-changes/refresh', {
            params: path(bookingId),
            body: {},
            ...ctx.init(options),
          }),
        ),
      /** Sends an Idempotency-Key (yours or a fresh UUID), so a retry never asks the supplier twice. */
      accept: (bookingId: BookingRef, changeId: string, options?: IdempotentCallOptions) =>
        unwrap(
          ctx.raw.POST('/api/v1/bookings/{booking_id}/schedule-changes/{change_id}/accept', {
            params: { path: { booking_id: String(bookingId), change_id: changeId } },
            body: {},
            ...ctx.init(options, { 'Idempotency-Key': resolveIdempotencyKey(options) }),
          }),
        ),
    },
    notes: (bookingId: BookingRef, notes: string[], options?: RequestOptions) =>
      unwrap(
        ctx.raw.POST('/api/v1/bookings/{booking_id}/notes', {
          params: path(bookingId),
          body: { notes } as BodyOf<'/api/v1/bookings/{booking_id}/notes', 'post'>,
          ...ctx.init(options),
        }),
      ),
  };
}
