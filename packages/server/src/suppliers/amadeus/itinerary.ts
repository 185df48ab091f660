import type { OrderItinerary, SupplierFlightOrder } from '../ports/flight.ts';
import { offerFromAmadeus } from './mapper.ts';

/**
 * Schedule changes on Amadeus (issue 30): the Self-Service API publishes no change notice and nothing to
 * accept; the airline's change is in the PNR, so the order's flight offer (`GET
 * /v1/booking/flight-orders/{id}`) carries the new `departure.at` / `arrival.at` and flight `number`.
 */
export function orderItinerary(order: SupplierFlightOrder): OrderItinerary {
  const raw = order.raw as { flightOffers?: unknown[] } | null;
  const offer = raw?.flightOffers?.[0];
  if (!offer || typeof offer !== 'object') return { segments: [], changes: [] };
  const mapped = offerFromAmadeus(offer as Record<string, unknown>, '');
  return { segments: mapped.slices.flatMap((s) => s.segments), changes: [] };
}
