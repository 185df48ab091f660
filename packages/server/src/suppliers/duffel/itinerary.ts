import type { Order } from '@duffel/api/types';
import type { FlightSegment, OrderItinerary } from '../ports/flight.ts';
import type { DuffelFlightAdapter } from './adapter.ts';
import { cabinOf, flightOf } from './mapper.ts';

/**
 * Schedule changes on Duffel (issue 30): the airline's change shows in the order's `slices` and is
 * recorded as an airline-initiated change (`airline_initiated_changes`, `aic_…`), which the seller accepts
 * with `POST /air/airline_initiated_changes/{id}/actions/accept` (the client's `airlineInitiatedChanges`).
 */

/** The order's segments now, numbered "s1", "s2", … across its slices as the offer's were. */
export function orderItinerary(order: Order): OrderItinerary {
  const segments = order.slices
    .flatMap((slice) => slice.segments)
    .map(
      (g, i): FlightSegment => ({
        segment_id: `s${i + 1}`,
        ...flightOf(g),
        cabin: cabinOf(g.passengers[0]?.cabin_class),
        // Order segments carry no fare basis: the booking keeps its own booking class.
        booking_class: '',
      }),
    );
  const changes = (order.airline_initiated_changes ?? []).map((c) => ({
    change_id: c.id,
    action_taken: c.action_taken,
  }));
  return { segments, changes };
}

/**
 * Accepts the change, and every earlier one still open on the order (the agency accepts the schedule as
 * it is now); a change already accepted (a retry whose first answer was lost) is not accepted again.
 */
export async function acceptChange(
  adapter: DuffelFlightAdapter,
  orderRef: string,
  changeId: string,
  opts?: Parameters<DuffelFlightAdapter['run']>[0],
): Promise<void> {
  const listed = (await adapter.run(opts, (d) => d.airlineInitiatedChanges.list(orderRef))).data;
  const target = listed.find((c) => c.id === changeId);
  const open = target
    ? listed.filter((c) => c.action_taken === null && c.created_at <= target.created_at)
    : [{ id: changeId }];
  for (const c of open) await adapter.run(opts, (d) => d.airlineInitiatedChanges.accept(c.id), true);
}
