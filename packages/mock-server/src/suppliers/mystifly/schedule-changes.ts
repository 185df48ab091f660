import { shiftLocal, TRIGGERED_SHIFT_MINUTES } from '../../shared/schedule.ts';
import type { Booking, MystiflyState } from './state.ts';

/**
 * Schedule changes, as a consolidator shows them: the airline's change is in the PNR, so the next
 * `GET /api/v1/TripDetails/{MFRef}` carries the reservation items' new `DepartureDateTime` /
 * `ArrivalDateTime` (and `FlightNumber`). Nothing is accepted through the API.
 */

export interface MystiflyScheduleChange {
  minutes: number;
  /** Which leg (origin-destination) moves (default 0, the outbound). */
  legIndex?: number;
  /** The moved leg's first segment flies under this flight number. */
  flightNumber?: string;
}

/** The SCHEDULECHANGE trigger's change (shared/schedule.ts). */
const TRIGGERED_CHANGE: MystiflyScheduleChange = { minutes: TRIGGERED_SHIFT_MINUTES };

function apply(b: Booking, change: MystiflyScheduleChange): void {
  // The itinerary's segments may be shared with the search that priced it: the booking gets its own copy.
  const legs = structuredClone(b.itinerary.legs);
  const leg = legs[change.legIndex ?? 0];
  if (!leg) throw new Error(`booking ${b.uniqueId} has no leg ${change.legIndex ?? 0}`);
  for (const [n, seg] of leg.entries()) {
    seg.dep = shiftLocal(seg.dep, change.minutes);
    seg.arr = shiftLocal(seg.arr, change.minutes);
    if (n === 0 && change.flightNumber) seg.flightNumber = change.flightNumber;
  }
  b.itinerary = { ...b.itinerary, legs };
}

/** Knob: the airline changes a booking's schedule now; the next TripDetails shows it. */
export function changeMystiflySchedule(
  state: MystiflyState,
  uniqueId: string,
  change: MystiflyScheduleChange,
): void {
  const b = state.bookings.get(uniqueId);
  if (!b) throw new Error(`no Mystifly booking ${uniqueId}`);
  apply(b, change);
}

/** A SCHEDULECHANGE booking's airline moves its flight once, seen at the first read after the booking. */
export function settleTriggeredChange(b: Booking): void {
  if (!b.scheduleChangeTriggered) return;
  b.scheduleChangeTriggered = false;
  apply(b, TRIGGERED_CHANGE);
}
