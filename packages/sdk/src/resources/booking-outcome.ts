/**
 * Shared by flight, hotel and transfer booking: send with an idempotency key, and turn a 502 pending
 * confirmation into a wait for its settlement (the event stream, else polling) instead of an exception
 * (or, worse, a retry that could book twice).
 */
import { BookingPendingError } from '../core/errors.ts';
import { type IdempotentCallOptions, resolveIdempotencyKey } from '../core/idempotency.ts';
import {
  type PendingPollOptions,
  type PendingResult,
  type SettleRules,
  settleOutcome,
} from '../core/pending.ts';
import { type FetchResult, toApiError } from '../core/result.ts';
import { responseMeta } from '../core/transport.ts';
import type { ClientContext } from './context.ts';
import { waitUntilSettled } from './settle-stream.ts';

/** What `bookings.create()`, `hotels.book()` and `transfers.book()` resolve with. */
export type BookingResult<TBooking> = PendingResult<TBooking> & {
  idempotencyKey: string;
  requestId: string | undefined;
};

/** Options of a booking call: your own idempotency key, an abort signal, the polling budget. */
export interface BookingCallOptions extends IdempotentCallOptions {
  pending?: PendingPollOptions;
}

/**
 * Runs one booking call to a plain outcome.
 *
 * @example
 * const result = await bookWithOutcome(ctx, (key) => ctx.raw.POST('/api/v1/hotel/book', init(key)), getHotel, rules, 'hotel_booking');
 */
export async function bookWithOutcome<TBooking extends { status?: unknown }>(
  ctx: ClientContext,
  send: (idempotencyKey: string) => Promise<FetchResult<TBooking>>,
  get: (bookingId: number, signal?: AbortSignal) => Promise<TBooking>,
  rules: SettleRules,
  /** The booking's resource type in the event feed (`booking`, `hotel_booking`, `transport_booking`). */
  resourceType: string,
  options: BookingCallOptions = {},
): Promise<BookingResult<TBooking>> {
  const idempotencyKey = resolveIdempotencyKey(options);
  const result = await send(idempotencyKey);
  const requestId = responseMeta(result.response).requestId;
  if (result.response.ok) {
    const booking = result.data as TBooking;
    const bookingId = Number((booking as { booking_id?: unknown }).booking_id);
    return {
      outcome: settleOutcome(booking.status, rules),
      booking_id: bookingId,
      booking,
      idempotencyKey,
      requestId,
    };
  }
  const error = toApiError(result);
  const bookingId = error instanceof BookingPendingError ? error.bookingId : undefined;
  if (result.response.status !== 502 || bookingId === undefined) throw error;
  const pollOptions = {
    ...ctx.pending,
    ...options.pending,
    ...(options.signal ? { signal: options.signal } : {}),
  };
  const settled = await waitUntilSettled(ctx, get, bookingId, resourceType, rules, pollOptions);
  return { ...settled, idempotencyKey, requestId: error.requestId ?? requestId };
}
