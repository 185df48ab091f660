/** Hotels: the shared reservation namespace (`reservation.ts`) plus the rate check that must precede `book`. */

import type { components, paths } from '@travel/contract';
import { unwrap } from '../core/result.ts';
import type { ClientContext, RequestOptions } from './context.ts';
import * as reservation from './reservation.ts';

/** A hotel booking as `GET /api/v1/hotel/bookings/{booking_id}` returns it. */
export type HotelBooking = reservation.ReservationBooking<'hotel'>;
/** An event of the offer-by-offer stream. */
export type HotelStreamEvent = components['schemas']['HotelStreamEvent'];
/** An event of the provider-by-provider stream. */
export type HotelProviderStreamEvent = components['schemas']['HotelProviderStreamEvent'];
/** `GET /api/v1/hotel/bookings/{booking_id}/cancellation-quote`. */
export type HotelCancellationQuote =
  paths['/api/v1/hotel/bookings/{booking_id}/cancellation-quote']['get']['responses'][200]['content']['application/json'];
/** One offer. */
export type HotelOffer = components['schemas']['HotelOffer'];

/**
 * The `hotels` namespace.
 *
 * @example
 * const search = await travel.hotels.search({ destination: 'DXB', check_in: '2026-12-20', check_out: '2026-12-23',
 *   company_code: 'ACME', user_code: 'U1' });
 * const offers = await search.offers();
 */
export function hotelsResource(ctx: ClientContext) {
  return {
    ...reservation.reservationResource(ctx, 'hotel'),
    /** Must precede `book`: availability and the current price of the rate. */
    checkRate: reservation.priceCheck(ctx, '/api/v1/hotel/check-rate'),
    /** What cancelling would cost now: the provider's own simulation, in the booking's currency; changes nothing. */
    cancellationQuote: (bookingId: number, options?: RequestOptions): Promise<HotelCancellationQuote> =>
      unwrap(
        ctx.raw.GET('/api/v1/hotel/bookings/{booking_id}/cancellation-quote', {
          params: { path: { booking_id: bookingId } },
          ...ctx.init(options),
        }),
      ),
  };
}

/** A started hotel search. */
export type HotelSearch = reservation.ReservationSearch<'hotel'>;
/** Hotel booking statuses that mean "not settled yet" / "did not happen". */
export const HOTEL_BOOKING_RULES = reservation.RESERVATION_BOOKING_RULES;
