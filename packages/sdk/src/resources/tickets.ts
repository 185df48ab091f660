/** Ticketing: issue (idempotent), status, document, quote/confirm void-refund-reissue, servicing list. */
import { type IdempotentCallOptions, resolveIdempotencyKey } from '../core/idempotency.ts';
import { unwrap, unwrapWithMeta } from '../core/result.ts';
import type { BookingRef } from './bookings.ts';
import type { ClientContext, RequestOptions } from './context.ts';
import type { BodyOf } from './types.ts';

/** What a ticket action does; `reissue` only ever quotes. */
export type TicketAction = 'void' | 'refund' | 'reissue';

const path = (bookingId: BookingRef) => ({ booking_id: String(bookingId) });

/**
 * The `tickets` namespace.
 *
 * @example
 * const quote = await travel.tickets.action(42, 'refund'); // quote only
 * const done = await travel.tickets.action(42, 'refund', { confirm: true }); // raises it, with an Idempotency-Key
 */
export function ticketsResource(ctx: ClientContext) {
  return {
    issue: (
      bookingId: BookingRef,
      body: BodyOf<'/api/v1/bookings/{booking_id}/ticket', 'post'> = {},
      options?: IdempotentCallOptions,
    ) =>
      unwrapWithMeta(
        ctx.raw.POST('/api/v1/bookings/{booking_id}/ticket', {
          params: { path: path(bookingId), header: { 'Idempotency-Key': resolveIdempotencyKey(options) } },
          body,
          ...ctx.init(options),
        }),
      ),
    status: (bookingId: BookingRef, options?: RequestOptions) =>
      unwrap(
        ctx.raw.GET('/api/v1/bookings/{booking_id}/ticket/status', {
          params: { path: path(bookingId) },
          ...ctx.init(options),
        }),
      ),
    document: (bookingId: BookingRef, options?: RequestOptions) =>
      unwrap(
        ctx.raw.GET('/api/v1/bookings/{booking_id}/ticket/document', {
          params: { path: path(bookingId) },
          ...ctx.init(options),
        }),
      ),
    /** Quotes by default; `confirm: true` raises the real request and then carries an Idempotency-Key. */
    action: (
      bookingId: BookingRef,
      action: TicketAction,
      query: { confirm?: boolean; note?: string } = {},
      options?: IdempotentCallOptions,
    ) =>
      unwrap(
        ctx.raw.POST('/api/v1/bookings/{booking_id}/ticket/{action}', {
          params: { path: { ...path(bookingId), action }, query },
          body: {},
          // Only a confirmed action changes anything; a quote needs no key.
          ...ctx.init(options, query.confirm ? { 'Idempotency-Key': resolveIdempotencyKey(options) } : {}),
        }),
      ),
    servicing: (bookingId: BookingRef, options?: RequestOptions) =>
      unwrap(
        ctx.raw.GET('/api/v1/bookings/{booking_id}/servicing', {
          params: { path: path(bookingId) },
          ...ctx.init(options),
        }),
      ),
  };
}
