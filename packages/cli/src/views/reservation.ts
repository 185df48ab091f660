/** The human views of hotel and transfer bookings (show, book, cancel, list). */
import type { HotelBooking, TransferBooking } from '@travel/sdk';
import { localDate, localDateTime } from '../documents/model.ts';
import { money } from '../ui/table.ts';

export function hotelBookingLines(b: HotelBooking): string[] {
  const refs = [
    b.supplier_booking_ref && `ref ${b.supplier_booking_ref}`,
    b.hotel_confirmation && `hotel conf ${b.hotel_confirmation}`,
  ]
    .filter(Boolean)
    .join('  ');
  return [
    `hotel ${b.booking_id}  ${b.status}${refs ? `  ${refs}` : ''}`,
    `${b.hotel.name}, ${[b.hotel.city, b.hotel.country].filter(Boolean).join(', ')}`,
    `${localDate(b.check_in)} -> ${localDate(b.check_out)} (${b.nights} night${b.nights === 1 ? '' : 's'})  ${b.room.room_name || b.room.room_type}, ${b.room.board_name || b.room.board}`,
    `total ${money(b.total.amount_minor, b.total.currency)}  provider ${b.provider}`,
    ...b.guests.map(
      (g) => `  room ${g.room}  ${g.first_name} ${g.last_name}${g.type === 'CH' ? ' (child)' : ''}`,
    ),
    ...(b.cancellation_fee
      ? [`cancellation fee ${money(b.cancellation_fee.amount_minor, b.cancellation_fee.currency)}`]
      : []),
    ...(b.client_ref ? [`reference ${b.client_ref}`] : []),
  ];
}

export function transferBookingLines(b: TransferBooking): string[] {
  const refs = [
    b.confirmation_number && `conf ${b.confirmation_number}`,
    b.supplier_booking_ref && `ref ${b.supplier_booking_ref}`,
  ]
    .filter(Boolean)
    .join('  ');
  return [
    `transfer ${b.booking_id}  ${b.status}${refs ? `  ${refs}` : ''}`,
    `${b.pickup.location} -> ${b.dropoff.location}  pick-up ${localDateTime(b.pickup.datetime)} (local)`,
    `${b.transfer_type}  ${[b.vehicle.category, b.vehicle.description].filter(Boolean).join(': ')}${b.flight_number ? `  flight ${b.flight_number}` : ''}`,
    `total ${money(b.total.amount_minor, b.total.currency)}  provider ${b.provider}`,
    ...b.passengers.map((p) => `  ${p.first_name} ${p.last_name}`),
    ...(b.cancellation_fee
      ? [`cancellation fee ${money(b.cancellation_fee.amount_minor, b.cancellation_fee.currency)}`]
      : []),
  ];
}

/** The answer of a cancel call (hotel or transfer). */
export function cancellationLines(
  noun: 'hotel' | 'transfer',
  r: {
    booking_id: number;
    status: string;
    cancelled: boolean;
    cancellation_fee?: { amount_minor: number; currency: string } | null;
    refund?: { amount_minor: number; currency: string } | null;
  },
): string[] {
  return [
    `${noun} ${r.booking_id} ${r.cancelled ? 'cancelled' : `not cancelled (${r.status})`}`,
    ...(r.cancellation_fee
      ? [`fee kept ${money(r.cancellation_fee.amount_minor, r.cancellation_fee.currency)}`]
      : []),
    ...(r.refund ? [`refund ${money(r.refund.amount_minor, r.refund.currency)}`] : []),
    `status ${r.status}`,
  ];
}
