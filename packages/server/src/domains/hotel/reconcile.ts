/**
 * The jobs that settle hotel bookings without a request: the reconciliation of pending bookings (asks the
 * provider by our client reference; see shared/reservation.ts) and the check of cancellations whose
 * answer was lost (asks the provider for the booking; see shared/reservation-cancel.ts).
 */
import type { JobHandler } from '../../jobs/runner.ts';
import { hotelReservations } from './book.ts';
import { hotelCancellations } from './cancel.ts';
import type { HotelDeps } from './deps.ts';
import { cancelQueue, HOTEL_KIND, reconcileQueue } from './shared/kind.ts';
import { reconcileReservation } from './shared/reservation.ts';
import { cancelCheck } from './shared/reservation-cancel.ts';

export const reconcileHotelBooking = (deps: HotelDeps): JobHandler =>
  reconcileReservation(deps, hotelReservations(deps));

/** Register with the kernel's job runner: `new JobRunner({ handlers: { ...hotelJobHandlers(deps) } })`. */
export const hotelJobHandlers = (deps: HotelDeps): Record<string, JobHandler> => ({
  [reconcileQueue(HOTEL_KIND)]: reconcileHotelBooking(deps),
  [cancelQueue(HOTEL_KIND)]: cancelCheck(deps, hotelCancellations(deps)),
});
