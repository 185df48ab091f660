/**
 * The ground-transfer booking state machine: the reservation table shared with hotels
 * (`../hotel/shared/state-machine.ts`), under the transport names.
 */
import {
  nextReservationStatus,
  type ReservationEvent,
  type ReservationStatus,
} from '../hotel/shared/state-machine.ts';

export type TransportBookingStatus = ReservationStatus;
export type TransportBookingEvent = ReservationEvent;

/** Where `event` moves a transport booking in `from`; 400 `invalid_booking_state` when it may not. */
export const nextTransportStatus = (
  from: TransportBookingStatus,
  event: TransportBookingEvent,
  given?: TransportBookingStatus,
): TransportBookingStatus => nextReservationStatus('transport booking', from, event, given);
