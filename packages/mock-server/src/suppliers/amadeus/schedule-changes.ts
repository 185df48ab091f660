import { shiftLocal, TRIGGERED_SHIFT_MINUTES } from '../../shared/schedule.ts';
import type { FlightOrderRecord } from './state.ts';
import { asArray, type Wire } from './wire.ts';

/**
 * Schedule changes, as a GDS shows them: Amadeus Self-Service publishes no schedule-change notice; the
 * airline's change is simply in the PNR, so the next `GET /v1/booking/flight-orders/{id}` shows the
 * itinerary's new `departure.at` / `arrival.at` (and flight `number`). The agency takes note; there is
 * nothing to accept at the supplier.
 */

/** What the airline does: move one itinerary by `minutes`, optionally under a new flight number. */
export interface AmadeusScheduleChange {
  minutes: number;
  /** Which itinerary moves (default 0, the outbound). */
  itineraryIndex?: number;
  /** The moved itinerary's first segment flies under this flight number. */
  flightNumber?: string;
}

/** The SCHEDULECHANGE trigger's change (shared/schedule.ts). */
const TRIGGERED_CHANGE: AmadeusScheduleChange = { minutes: TRIGGERED_SHIFT_MINUTES };

/** Moves the order's itinerary in place (the stored offer is what every read returns). */
export function applyScheduleChange(order: FlightOrderRecord, change: AmadeusScheduleChange): void {
  const offer = asArray(order.data.flightOffers)[0];
  const itinerary = asArray(offer?.itineraries)[change.itineraryIndex ?? 0];
  if (!itinerary) throw new Error(`order ${order.id} has no itinerary ${change.itineraryIndex ?? 0}`);
  for (const [n, seg] of asArray(itinerary.segments).entries()) {
    const dep = seg.departure as Wire;
    const arr = seg.arrival as Wire;
    dep.at = shiftLocal(String(dep.at), change.minutes);
    arr.at = shiftLocal(String(arr.at), change.minutes);
    if (n === 0 && change.flightNumber) seg.number = change.flightNumber;
  }
}

/** A SCHEDULECHANGE order's airline moves its flight once, seen at the first read after the booking. */
export function settleTriggeredChange(order: FlightOrderRecord): void {
  if (!order.scheduleChangeTriggered) return;
  order.scheduleChangeTriggered = false;
  applyScheduleChange(order, TRIGGERED_CHANGE);
}
