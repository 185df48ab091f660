import { TRANSPORT_KIND } from '../hotel/shared/kind.ts';
import { surfaceHandlers } from '../hotel/shared/surfaces.ts';
import type { TransportDeps } from './deps.ts';
import { nextTransportStatus, type TransportBookingStatus } from './state-machine.ts';
import { transportBookingView } from './view.ts';

/** The shared booking surfaces bound to transport bookings and their state machine. */
export const transportSurfaces = (deps: TransportDeps) =>
  surfaceHandlers({
    db: deps.db,
    clock: deps.clock,
    kind: TRANSPORT_KIND,
    view: transportBookingView,
    override: (from, to) =>
      nextTransportStatus(from as TransportBookingStatus, 'override', to as TransportBookingStatus),
  });
