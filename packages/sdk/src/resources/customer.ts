/** The traveller (customer) surface: own bookings, payments, profile, saved travelers. */
import { unwrap } from '../core/result.ts';
import type { ClientContext, RequestOptions } from './context.ts';
import { listPages } from './lists.ts';
import { customerReservations } from './reservation.ts';
import type { BodyOf, QueryOf } from './types.ts';

/**
 * The `customer` namespace.
 *
 * @example
 * for await (const booking of travel.customer.bookings.list()) console.log(booking);
 */
export function customerResource(ctx: ClientContext) {
  const { raw } = ctx;
  return {
    bookings: {
      list: (query: QueryOf<'/api/v1/customer/bookings', 'get'> = {}, options?: RequestOptions) =>
        listPages(
          (page) =>
            unwrap(
              raw.GET('/api/v1/customer/bookings', {
                params: { query: { ...query, page } },
                ...ctx.init(options),
              }),
            ),
          query.page,
        ),
      get: (bookingId: number, options?: RequestOptions) =>
        unwrap(
          raw.GET('/api/v1/customer/bookings/{booking_id}', {
            params: { path: { booking_id: bookingId } },
            ...ctx.init(options),
          }),
        ),
      cancel: (
        bookingId: number,
        body: BodyOf<'/api/v1/customer/bookings/{booking_id}/cancel', 'post'> = {},
        options?: RequestOptions,
      ) =>
        unwrap(
          raw.POST('/api/v1/customer/bookings/{booking_id}/cancel', {
            params: { path: { booking_id: bookingId } },
            body,
            ...ctx.init(options),
          }),
        ),
    },
    hotelBookings: customerReservations(ctx, 'hotel'),
    transportBookings: customerReservations(ctx, 'transport'),
    payments: {
      receipt: (paymentId: number, options?: RequestOptions) =>
        unwrap(
          raw.GET('/api/v1/customer/payments/receipts/{payment_id}', {
            params: { path: { payment_id: paymentId } },
            ...ctx.init(options),
          }),
        ),
      list: (query: QueryOf<'/api/v1/customer/payments', 'get'> = {}, options?: RequestOptions) =>
        listPages(
          (page) =>
            unwrap(
              raw.GET('/api/v1/customer/payments', {
                params: { query: { ...query, page } },
                ...ctx.init(options),
              }),
            ),
          query.page,
        ),
    },
    profile: {
      get: (options?: RequestOptions) =>
        unwrap(raw.GET('/api/v1/customer/profile', { ...ctx.init(options) })),
      update: (body: BodyOf<'/api/v1/customer/profile', 'patch'>, options?: RequestOptions) =>
        unwrap(raw.PATCH('/api/v1/customer/profile', { body, ...ctx.init(options) })),
      preferences: (options?: RequestOptions) =>
        unwrap(raw.GET('/api/v1/customer/profile/preferences', { ...ctx.init(options) })),
      updatePreferences: (
        body: BodyOf<'/api/v1/customer/profile/preferences', 'patch'>,
        options?: RequestOptions,
      ) => unwrap(raw.PATCH('/api/v1/customer/profile/preferences', { body, ...ctx.init(options) })),
    },
    travelers: {
      list: (options?: RequestOptions) =>
        unwrap(raw.GET('/api/v1/customer/travelers', { ...ctx.init(options) })),
      create: (body: BodyOf<'/api/v1/customer/travelers', 'post'>, options?: RequestOptions) =>
        unwrap(raw.POST('/api/v1/customer/travelers', { body, ...ctx.init(options) })),
      update: (
        travelerId: number,
        body: BodyOf<'/api/v1/customer/travelers/{traveler_id}', 'patch'>,
        options?: RequestOptions,
      ) =>
        unwrap(
          raw.PATCH('/api/v1/customer/travelers/{traveler_id}', {
            params: { path: { traveler_id: travelerId } },
            body,
            ...ctx.init(options),
          }),
        ),
      remove: (travelerId: number, options?: RequestOptions) =>
        unwrap(
          raw.DELETE('/api/v1/customer/travelers/{traveler_id}', {
            params: { path: { traveler_id: travelerId } },
            ...ctx.init(options),
          }),
        ),
    },
  };
}
