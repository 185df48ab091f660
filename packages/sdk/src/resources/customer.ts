/** The traveller (customer) surface: own bookings, payments, profile, saved travelers. */
import { unwrap } from '../core/result.ts';
import { type ClientContext, type RequestOptions, signalOf } from './context.ts';
import { listPages } from './lists.ts';
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
                ...signalOf(options),
              }),
            ),
          query.page,
        ),
      get: (bookingId: number, options?: RequestOptions) =>
        unwrap(
          raw.GET('/api/v1/customer/bookings/{booking_id}', {
            params: { path: { booking_id: bookingId } },
            ...signalOf(options),
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
            ...signalOf(options),
          }),
        ),
    },
    hotelBookings: {
      list: (query: QueryOf<'/api/v1/customer/hotel-bookings', 'get'> = {}, options?: RequestOptions) =>
        listPages(
          (page) =>
            unwrap(
              raw.GET('/api/v1/customer/hotel-bookings', {
                params: { query: { ...query, page } },
                ...signalOf(options),
              }),
            ),
          query.page,
        ),
      get: (bookingId: number, options?: RequestOptions) =>
        unwrap(
          raw.GET('/api/v1/customer/hotel-bookings/{booking_id}', {
            params: { path: { booking_id: bookingId } },
            ...signalOf(options),
          }),
        ),
      cancel: (bookingId: number, options?: RequestOptions) =>
        unwrap(
          raw.POST('/api/v1/customer/hotel-bookings/{booking_id}/cancel', {
            params: { path: { booking_id: bookingId } },
            body: {},
            ...signalOf(options),
          }),
        ),
    },
    transportBookings: {
      list: (query: QueryOf<'/api/v1/customer/transport-bookings', 'get'> = {}, options?: RequestOptions) =>
        listPages(
          (page) =>
            unwrap(
              raw.GET('/api/v1/customer/transport-bookings', {
                params: { query: { ...query, page } },
                ...signalOf(options),
              }),
            ),
          query.page,
        ),
      get: (bookingId: number, options?: RequestOptions) =>
        unwrap(
          raw.GET('/api/v1/customer/transport-bookings/{booking_id}', {
            params: { path: { booking_id: bookingId } },
            ...signalOf(options),
          }),
        ),
      cancel: (bookingId: number, options?: RequestOptions) =>
        unwrap(
          raw.POST('/api/v1/customer/transport-bookings/{booking_id}/cancel', {
            params: { path: { booking_id: bookingId } },
            body: {},
            ...signalOf(options),
          }),
        ),
    },
    payments: {
      receipt: (paymentId: number, options?: RequestOptions) =>
        unwrap(
          raw.GET('/api/v1/customer/payments/receipts/{payment_id}', {
            params: { path: { payment_id: paymentId } },
            ...signalOf(options),
          }),
        ),
      list: (query: QueryOf<'/api/v1/customer/payments', 'get'> = {}, options?: RequestOptions) =>
        listPages(
          (page) =>
            unwrap(
              raw.GET('/api/v1/customer/payments', {
                params: { query: { ...query, page } },
                ...signalOf(options),
              }),
            ),
          query.page,
        ),
    },
    profile: {
      get: (options?: RequestOptions) =>
        unwrap(raw.GET('/api/v1/customer/profile', { ...signalOf(options) })),
      update: (body: BodyOf<'/api/v1/customer/profile', 'patch'>, options?: RequestOptions) =>
        unwrap(raw.PATCH('/api/v1/customer/profile', { body, ...signalOf(options) })),
    },
    travelers: {
      list: (options?: RequestOptions) =>
        unwrap(raw.GET('/api/v1/customer/travelers', { ...signalOf(options) })),
      create: (body: BodyOf<'/api/v1/customer/travelers', 'post'>, options?: RequestOptions) =>
        unwrap(raw.POST('/api/v1/customer/travelers', { body, ...signalOf(options) })),
      remove: (travelerId: number, options?: RequestOptions) =>
        unwrap(
          raw.DELETE('/api/v1/customer/travelers/{traveler_id}', {
            params: { path: { traveler_id: travelerId } },
            ...signalOf(options),
          }),
        ),
    },
  };
}
