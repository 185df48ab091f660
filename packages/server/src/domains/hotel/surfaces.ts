import type { HotelDeps } from './deps.ts';
import { HOTEL_KIND } from './shared/kind.ts';
import { surfaceHandlers } from './shared/surfaces.ts';
import { type HotelBookingStatus, nextHotelStatus } from './state-machine.ts';
import { hotelBookingView } from './view.ts';

/** The shared booking surfaces bound to hotel bookings and their state machine. */
export const hotelSurfaces = (deps: HotelDeps) =>
  surfaceHandlers({
    db: deps.db,
    clock: deps.clock,
    kind: HOTEL_KIND,
    view: hotelBookingView,
    override: (from, to) => nextHotelStatus(from as HotelBookingStatus, 'override', to as HotelBookingStatus),
  });
