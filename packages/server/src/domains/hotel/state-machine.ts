/**
 * The hotel booking state machine: the reservation table shared with ground transfers
 * (`shared/state-machine.ts`), under the hotel names.
 */
import {
  nextReservationStatus,
  RESERVATION_STATUSES,
  type ReservationEvent,
  type ReservationStatus,
} from './shared/state-machine.ts';

export const HOTEL_BOOKING_STATUSES = RESERVATION_STATUSES;
export type HotelBookingStatus = ReservationStatus;
export type HotelBookingEvent = ReservationEvent;

/** Where `event` moves a hotel booking in `from`; 400 `invalid_booking_state` when it may not. */
export const nextHotelStatus = (
  from: HotelBookingStatus,
  event: HotelBookingEvent,
  given?: HotelBookingStatus,
): HotelBookingStatus => nextReservationStatus('hotel booking', from, event, given);
