import type { OrderItinerary } from '../ports/flight.ts';
import type { OpTravelItinerary } from './mapper.ts';

/**
 * Schedule changes on Mystifly (issue 30): the airline's change is in the booking's PNR, so TripDetails'
 * reservation items carry the new `DepartureDateTime` / `ArrivalDateTime` and `FlightNumber`. OnePoint
 * has nothing to accept through the API.
 */
interface ReservationItem {
  DepartureAirportLocationCode: string;
  ArrivalAirportLocationCode: string;
  DepartureDateTime?: string;
  ArrivalDateTime?: string;
  FlightNumber: string;
  MarketingAirlineCode: string;
  OperatingAirlineCode?: string;
  ResBookDesigCode?: string;
  JourneyDuration?: number | string;
  AirEquipmentType?: string;
}

export function orderItinerary(t: OpTravelItinerary): OrderItinerary {
  const items = t.ItineraryInfo.ReservationItems as unknown as ReservationItem[];
  if (items.some((i) => !i.DepartureDateTime || !i.ArrivalDateTime)) return { segments: [], changes: [] };
  const segments = items.map((i, n) => ({
    segment_id: `s${n + 1}`,
    marketing_carrier: i.MarketingAirlineCode,
    operating_carrier: i.OperatingAirlineCode || i.MarketingAirlineCode,
    flight_number: i.FlightNumber,
    origin: i.DepartureAirportLocationCode,
    destination: i.ArrivalAirportLocationCode,
    departure_at: String(i.DepartureDateTime).slice(0, 19),
    arrival_at: String(i.ArrivalDateTime).slice(0, 19),
    duration_minutes: Number(i.JourneyDuration ?? 0),
    cabin: 'Economy' as const,
    booking_class: i.ResBookDesigCode ?? '',
    aircraft: i.AirEquipmentType ?? null,
  }));
  return { segments, changes: [] };
}
