/** Ground transfers: the shared reservation namespace (`reservation.ts`) plus the quote of an offer. */
import type { components } from '../generated/schema.ts';
import type { ClientContext } from './context.ts';
import {
  priceCheck,
  RESERVATION_BOOKING_RULES,
  type ReservationBooking,
  type ReservationSearch,
  reservationResource,
} from './reservation.ts';

/** A transfer booking as `GET /api/v1/transport/bookings/{booking_id}` returns it. */
export type TransferBooking = ReservationBooking<'transport'>;
/** Transfer booking statuses that mean "not settled yet" / "did not happen". */
export const TRANSFER_BOOKING_RULES = RESERVATION_BOOKING_RULES;
/** An event of the offer-by-offer stream. */
export type TransportStreamEvent = components['schemas']['TransportStreamEvent'];
/** An event of the provider-by-provider stream. */
export type TransportProviderStreamEvent = components['schemas']['TransportProviderStreamEvent'];
/** One offer. */
export type TransferOffer = components['schemas']['TransferOffer'];
/** A started transfer search. */
export type TransferSearch = ReservationSearch<'transport'>;

/**
 * The `transfers` namespace.
 *
 * @example
 * const search = await travel.transfers.search({ pickup_location: 'DXB', dropoff_location: 'Burj Al Arab',
 *   pickup_datetime: '2026-12-20T10:00:00Z' });
 */
export function transfersResource(ctx: ClientContext) {
  return {
    ...reservationResource(ctx, 'transport'),
    /** Availability and price of a quote from the search results. */
    quote: priceCheck(ctx, '/api/v1/transport/quote'),
  };
}
