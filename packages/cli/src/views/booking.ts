/** The human view of a flight booking. */
import type { Booking } from '@travel/sdk';
import type { AllFields } from '../passengers.ts';
import { money } from '../ui/table.ts';

export function bookingLines(booking: Booking): string[] {
  const lines = [
    `PNR ${booking.pnr ?? '(none yet)'}  booking ${booking.booking_id}  ${booking.status}`,
    `total ${money(booking.pricing.total_minor, booking.pricing.currency)}  payment mode ${booking.payment_mode}  supplier ${booking.supplier}`,
  ];
  for (const seg of booking.flights) {
    lines.push(
      `  ${seg.marketing_carrier}${seg.flight_number}  ${seg.origin} ${seg.departure_at} -> ${seg.destination} ${seg.arrival_at}  ${seg.cabin}`,
    );
  }
  for (const p of booking.passengers as AllFields<(typeof booking.passengers)[number]>[])
    lines.push(`  ${p.type} ${p.first_name} ${p.last_name}`);
  if (booking.ticketing_deadline) lines.push(`ticketing deadline ${booking.ticketing_deadline}`);
  if (booking.client_ref) lines.push(`reference ${booking.client_ref}`);
  return lines;
}
