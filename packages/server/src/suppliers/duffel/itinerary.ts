import type { Order } from '@duffel/api/types';
import type { CabinClass, FlightSegment, OrderItinerary } from '../ports/flight.ts';
import type { DuffelFlightAdapter } from './adapter.ts';
import { minutes } from './mapper.ts';

/**
 * Schedule changes on Duffel (issue 30): the airline's change shows in the order's `slices` and is
 * recorded as an airline-initiated change (`airline_initiated_changes`, `aic_…`), which the seller accepts
 * with `POST /air/airline_initiated_changes/{id}/actions/accept` (the client's `airlineInitiatedChanges`).
 */

const CABINS: Record<string, CabinClass> = {
  economy: 'Economy',
  premium_economy: 'Premium',
  business: 'Business',
  first: 'First',
};

/** The order's segments now, numbered "s1", "s2", … across its slices as the offer's were. */
export function orderItinerary(order: Order): OrderItinerary {
  const segments = order.slices
    .flatMap((slice) => slice.segments)
    .map(
      (g, i): FlightSegment => ({
        segment_id: `s${i + 1}`,
        marketing_carrier: g.marketing_carrier.iata_code ?? '',
        operating_carrier: g.operating_carrier.iata_code ?? g.marketing_carrier.iata_code ?? '',
        flight_number: g.marketing_carrier_flight_number,
        origin: g.origin.iata_code ?? '',
        destination: g.destination.iata_code ?? '',
        departure_at: g.departing_at.slice(0, 19),
        arrival_at: g.arriving_at.slice(0, 19),
        duration_minutes: minutes(g.duration),
        cabin: CABINS[g.passengers[0]?.cabin_class ?? 'economy'] ?? 'Economy',
        booking_class: '',
        aircraft: g.aircraft?.name ?? null,
      }),
    );
  const changes = (order.airline_initiated_changes ?? []).map((c) => ({
    change_id: c.id,
    action_taken: c.action_taken,
  }));
  return { segments, changes };
}

/** Accepts the change unless it was already accepted (a retry whose first answer was lost). */
export async function acceptChange(
  adapter: DuffelFlightAdapter,
  orderRef: string,
  changeId: string,
  opts?: Parameters<DuffelFlightAdapter['run']>[0],
): Promise<void> {
  const listed = await adapter.run(opts, (d) => d.airlineInitiatedChanges.list(orderRef));
  const change = listed.data.find((c) => c.id === changeId);
  if (change?.action_taken === 'accepted') return;
  await adapter.run(opts, (d) => d.airlineInitiatedChanges.accept(changeId), true);
}
