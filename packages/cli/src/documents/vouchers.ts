/** Hotel and transfer vouchers: what the guest shows at the desk or to the driver. */
import type { HotelBooking, TransferBooking } from '@travel/sdk';
import { money } from '../ui/table.ts';
import { type DocumentModel, labelled, localDate, localDateTime } from './model.ts';

type Policy = HotelBooking['cancellation_policies'][number];

/** The policy as sentences: free until the first step, then each step's fee from its date. */
export function policyLines(
  policies: readonly Policy[],
  total: HotelBooking['total'],
  bookedAt?: string,
): string[] {
  if (policies.length === 0)
    return ['Non-refundable, or no policy given by the hotel: ask before cancelling.'];
  const steps = [...policies].sort((a, b) => Date.parse(a.from) - Date.parse(b.from));
  const lines: string[] = [];
  const first = steps[0];
  // A first step that began when the booking was made leaves no free period to mention.
  const freePeriod = first && (!bookedAt || Date.parse(first.from) > Date.parse(bookedAt) + 60_000);
  if (first && first.fee.amount_minor > 0 && freePeriod)
    lines.push(`Free cancellation before ${localDateTime(first.from)}`);
  for (const p of steps) {
    const all = p.fee.amount_minor >= total.amount_minor;
    lines.push(
      `From ${localDateTime(p.from)}: fee ${money(p.fee.amount_minor, p.fee.currency)}${all ? ' (the full price)' : ''}`,
    );
  }
  return lines;
}

/**
 * The fee the booking's own policy sets at `at` (the last step begun by then, never more than the total),
 * the same rule the server applies when it settles a cancellation whose answer was lost.
 */
export function policyFeeAt(policies: readonly Policy[], at: Date, total: HotelBooking['total']) {
  let fee = { currency: total.currency, amount_minor: 0 };
  for (const p of policies)
    if (Date.parse(p.from) <= at.getTime() && p.fee.amount_minor >= fee.amount_minor) fee = p.fee;
  const amount = Math.min(fee.amount_minor, total.amount_minor);
  return {
    fee: { currency: fee.currency, amount_minor: amount },
    refund: { currency: total.currency, amount_minor: total.amount_minor - amount },
  };
}

export function hotelVoucher(b: HotelBooking): DocumentModel {
  return {
    title: 'Hotel voucher',
    subtitle: labelled([
      ['Booking', `hotel ${b.booking_id}`],
      ['Supplier reference', b.supplier_booking_ref],
      ['Hotel confirmation', b.hotel_confirmation],
      ['Status', b.status],
      ['Your reference', b.client_ref],
    ]),
    sections: [
      {
        heading: 'Hotel',
        lines: [
          b.hotel.name,
          b.hotel.address,
          [b.hotel.city, b.hotel.country].filter(Boolean).join(', '),
        ].filter(Boolean),
      },
      {
        heading: 'Stay',
        pairs: labelled([
          ['Check-in', localDate(b.check_in)],
          ['Check-out', localDate(b.check_out)],
          ['Nights', String(b.nights)],
          ['Room', b.room.room_name || b.room.room_type],
          ['Board', b.room.board_name || b.room.board],
          ['Special requests', b.special_requests],
        ]),
      },
      {
        heading: 'Guests',
        table: {
          headers: ['room', 'guest', 'type'],
          rows: b.guests.map((g) => [
            String(g.room),
            `${g.first_name} ${g.last_name}`,
            g.type === 'CH' ? `child${g.age !== undefined ? ` (${g.age})` : ''}` : 'adult',
          ]),
        },
      },
      {
        heading: 'Payment',
        pairs: labelled([
          ['Total', money(b.total.amount_minor, b.total.currency)],
          [
            'Cancellation fee charged',
            b.cancellation_fee
              ? money(b.cancellation_fee.amount_minor, b.cancellation_fee.currency)
              : undefined,
          ],
        ]),
      },
      { heading: 'Cancellation policy', lines: policyLines(b.cancellation_policies, b.total, b.created_at) },
      {
        heading: 'Contact',
        pairs: labelled([
          ['Email', b.contact_email],
          ['Phone', b.contact_phone],
        ]),
      },
    ],
    notes: [
      'Show this voucher at check-in with an identity document in the lead guest’s name.',
      'Dates are local at the hotel.',
    ],
  };
}

export function transferVoucher(b: TransferBooking): DocumentModel {
  const lead = b.passengers[0];
  return {
    title: 'Transfer voucher',
    subtitle: labelled([
      ['Booking', `transfer ${b.booking_id}`],
      ['Confirmation number', b.confirmation_number],
      ['Supplier reference', b.supplier_booking_ref],
      ['Status', b.status],
    ]),
    sections: [
      {
        heading: 'Journey (local time at pick-up)',
        pairs: labelled([
          ['Pick-up', b.pickup.location],
          ['Pick-up time', localDateTime(b.pickup.datetime)],
          ['Drop-off', b.dropoff.location],
          ['Arriving flight', b.flight_number],
          ['Hotel', b.hotel_name],
          ['Transfer', b.transfer_type],
          ['Vehicle', [b.vehicle.category, b.vehicle.description].filter(Boolean).join(': ')],
          ['Special requests', b.special_requests],
        ]),
      },
      {
        heading: 'Passengers',
        lines: b.passengers.map(
          (p, i) => `${i + 1}. ${p.title ? `${p.title} ` : ''}${p.first_name} ${p.last_name}`,
        ),
      },
      {
        heading: 'Payment',
        pairs: labelled([
          ['Total', money(b.total.amount_minor, b.total.currency)],
          [
            'Cancellation fee charged',
            b.cancellation_fee
              ? money(b.cancellation_fee.amount_minor, b.cancellation_fee.currency)
              : undefined,
          ],
        ]),
      },
      {
        heading: 'Contact',
        pairs: labelled([
          ['Email', b.contact.email],
          ['Phone', b.contact.phone],
        ]),
      },
    ],
    notes: [
      `The driver meets ${lead ? `${lead.first_name} ${lead.last_name}` : 'the lead passenger'} at the pick-up point; show this voucher.`,
    ],
  };
}
