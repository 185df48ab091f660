/** A transport_bookings row as the contract's `TransportBooking`. */
import { parseJson } from '../tables.ts';
import { reservationFields } from '../view.ts';

export function transportBookingView(r: Record<string, unknown>) {
  const vehicle = parseJson<Record<string, unknown>>(r.vehicle);
  return {
    booking_id: Number(r.id),
    status: r.status as string,
    provider: r.provider as string,
    quote_id: r.quote_id as string,
    supplier_booking_ref: (r.supplier_booking_ref as string | null) ?? null,
    confirmation_number: (r.confirmation_number as string | null) ?? null,
    transfer_type: r.transfer_type as string,
    vehicle: { category: String(vehicle.category), description: String(vehicle.description) },
    pickup: parseJson<{ location: string; datetime: string }>(r.pickup),
    dropoff: parseJson<{ location: string }>(r.dropoff),
    passengers: parseJson<Record<string, unknown>[]>(r.passengers),
    contact: parseJson<Record<string, unknown>>(r.contact),
    flight_number: (r.flight_number as string | null) ?? null,
    hotel_name: (r.hotel_name as string | null) ?? null,
    ...reservationFields(r),
  };
}
