/** Ground transfers: the shared reservation namespace (`reservation.ts`) plus the quote of an offer. */
import type { components } from '@travel/contract';
import type { ClientContext } from './context.ts';
import * as reservation from './reservation.ts';

/** A transfer booking as `GET /api/v1/transport/bookings/{booking_id}` returns it. */
export type TransferBooking = reservation.ReservationBooking<'transport'>;
/** An event of the offer-by-offer stream. */
export type TransportStreamEvent = components['schemas']['TransportStreamEvent'];
/** An event of the provider-by-provider stream. */
export type TransportProviderStreamEvent = components['schemas']['TransportProviderStreamEvent'];
/** One offer. */
export type TransferOffer = components['schemas']['TransferOffer'];

/**
 * The `transfers` namespace.
 *
 * @example
 * const search = await travel.transfers.search({ pickup_location: 'DXB', dropoff_location: 'Burj Al Arab',
 *   pickup_datetime: '2026-12-20T10:00:00Z' });
 */
export function transfersResource(ctx: ClientContext) {
  return {
    ...reservation.reservationResource(ctx, 'transport'),
    /** Availability and price of a quote from the search results. */
    quote: reservation.priceCheck(ctx, '/api/v1/transport/quote'),
  };
}

/** A started transfer search. */
export type TransferSearch = reservation.ReservationSearch<'transport'>;
/** Transfer booking statuses that mean "not settled yet" / "did not happen". */
export const TRANSFER_BOOKING_RULES = reservation.RESERVATION_BOOKING_RULES;
