/**
 * The jobs that settle transport bookings without a request: the reconciliation of pending bookings
 * (asks the provider by our client reference; see ../hotel/shared/reservation.ts) and the check of
 * cancellations whose answer was lost (see ../hotel/shared/reservation-cancel.ts).
 */
import type { JobHandler } from '../../jobs/runner.ts';
import { cancelQueue, reconcileQueue, TRANSPORT_KIND } from '../hotel/shared/kind.ts';
import { reconcileReservation } from '../hotel/shared/reservation.ts';
import { cancelCheck } from '../hotel/shared/reservation-cancel.ts';
import { transportReservations } from './book.ts';
import { transportCancellations } from './cancel.ts';
import type { TransportDeps } from './deps.ts';

export const reconcileTransportBooking = (deps: TransportDeps): JobHandler =>
  reconcileReservation(deps, transportReservations(deps));

/** Register with the kernel's job runner: `new JobRunner({ handlers: { ...transportJobHandlers(deps) } })`. */
export const transportJobHandlers = (deps: TransportDeps): Record<string, JobHandler> => ({
  [reconcileQueue(TRANSPORT_KIND)]: reconcileTransportBooking(deps),
  [cancelQueue(TRANSPORT_KIND)]: cancelCheck(deps, transportCancellations(deps)),
});
