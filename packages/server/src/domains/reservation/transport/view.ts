/** A transport_bookings row as the contract's `TransportBooking`. */
import { type components, TRANSFER_SUPPLIERS } from '@travel/contract';
import { type Members, member, oneOf, stringOr } from '../../../internal/narrow.ts';
import { parseJson } from '../tables.ts';
import { reservationFields, rowStatus } from '../view.ts';

type TransportBooking = components['schemas']['TransportBooking'];

const TRANSFER_TYPES: Members<components['schemas']['TransferType']> = {
  PRIVATE: true,
  SHARED: true,
  TAXI: true,
  HOURLY: true,
};

/** The jsonb columns (pickup, dropoff, passengers, contact) are read back as the contract's types the booking wrote. */
export function transportBookingView(r: Record<string, unknown>): TransportBooking {
  const vehicle = parseJson<Record<string, unknown>>(r.vehicle);
  return {
    booking_id: Number(r.id),
    status: rowStatus(r),
    provider: oneOf(TRANSFER_SUPPLIERS, r.provider, 'transport_bookings.provider'),
    quote_id: String(r.quote_id),
    supplier_booking_ref: stringOr(r.supplier_booking_ref, null),
    confirmation_number: stringOr(r.confirmation_number, null),
    transfer_type: member(TRANSFER_TYPES, r.transfer_type, 'transport_bookings.transfer_type'),
    vehicle: { category: String(vehicle.category), description: String(vehicle.description) },
    pickup: parseJson<TransportBooking['pickup']>(r.pickup),
    dropoff: parseJson<TransportBooking['dropoff']>(r.dropoff),
    passengers: parseJson<TransportBooking['passengers']>(r.passengers),
    contact: parseJson<TransportBooking['contact']>(r.contact),
    flight_number: stringOr(r.flight_number, null),
    hotel_name: stringOr(r.hotel_name, null),
    ...reservationFields(r),
  };
}
