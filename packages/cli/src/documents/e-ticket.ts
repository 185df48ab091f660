/**
 * The e-ticket receipt and itinerary of a ticketed flight booking: who flies on which ticket, every flight
 * in the airports' local times, coupon numbers and their status, the fare paid and the baggage allowance.
 */
import type { Booking, components, ResponseOf, ScheduleChange } from '@travel/sdk';
import type { Ctx } from '../context.ts';
import type { AllFields } from '../passengers.ts';
import { money } from '../ui/table.ts';
import { acceptedChangeNotes } from '../views/schedule-change.ts';
import { type DocumentModel, labelled, localDate, localDateTime } from './model.ts';

type TicketDocuments = ResponseOf<'/api/v1/bookings/{booking_id}/ticket/document', 'get'>;
type Baggage = ResponseOf<'/api/v1/bookings/{booking_id}/baggage', 'get'>;
type Airport = components['schemas']['AirportSuggestion'];
type PaymentHistory = components['schemas']['PaymentHistory'];
type Company = components['schemas']['Company'];

export interface ETicketInput {
  documents: TicketDocuments;
  booking: Booking;
  baggage: Baggage | null;
  /** Airport name and time zone by IATA code (missing codes are shown bare). */
  airports: Map<string, Pick<Airport, 'name' | 'city' | 'timezone'>>;
  /** The booking's payments (the real form of payment); null when they cannot be read. */
  payments?: PaymentHistory | null;
  /** The booking's airline schedule changes (accepted ones are noted); null when they cannot be read. */
  scheduleChanges?: ScheduleChange[] | null;
  /** The issuing agency (the caller's company profile); null for a caller without one. */
  agency?: Pick<Company, 'company_name' | 'contact_email' | 'contact_phone' | 'iata_number'> | null;
}

/** Everything the receipt shows, read with the caller's credential (airports and baggage are best effort). */
export async function loadETicket(ctx: Ctx, ref: string): Promise<ETicketInput> {
  const client = ctx.client();
  const [documents, booking] = await Promise.all([client.tickets.document(ref), client.bookings.get(ref)]);
  const [baggage, payments, agency, changes] = await Promise.all([
    client.bookings.bags.allowances(ref).catch(() => null),
    client.payments.history(ref).catch(() => null),
    client.company.profile.get().catch(() => null),
    Promise.resolve()
      .then(() => client.bookings.scheduleChanges.list(ref))
      .then((r) => r.data)
      .catch(() => null),
  ]);
  const codes = [...new Set(booking.flights.flatMap((f) => [f.origin, f.destination]))];
  const airports = new Map<string, Pick<Airport, 'name' | 'city' | 'timezone'>>();
  await Promise.all(
    codes.map(async (code) => {
      const found = await client.reference.airports({ query: code, limit: 5 }).catch(() => null);
      const hit = found?.items.find((a) => a.iata_code === code);
      if (hit) airports.set(code, hit);
    }),
  );
  return { documents, booking, baggage, airports, payments, agency, scheduleChanges: changes };
}

/**
 * How the fare was paid: the card payment the platform captured (the contract gives the provider and its
 * reference; no card brand or last digits), else what the airline recorded (CASH for an agency deposit).
 */
export function formOfPayment(
  history: PaymentHistory | null | undefined,
  airline: string | undefined,
): string | undefined {
  const charged = history?.payments.filter((p) => p.captured_minor > 0) ?? [];
  if (charged.length === 0) return airline;
  return charged
    .map(
      (p) =>
        `Payment card via ${p.provider === 'stripe' ? 'Stripe' : p.provider}${p.provider_payment_ref ? ` (${p.provider_payment_ref})` : ''}: ${money(p.captured_minor, p.currency)} charged${p.refunded_minor > 0 ? `, ${money(p.refunded_minor, p.currency)} refunded` : ''}`,
    )
    .join('; ');
}

/** The airline's fare calculation line when it is one (not the bare total a supplier sometimes sends). */
const realFareCalculation = (text: string | null | undefined) =>
  text && /[A-Z]{3}/.test(text) ? text : undefined;

function bags(a: { cabin_bags: number; checked_bags: number; checked_bag_weight_kg: number | null }): string {
  const cabin = `${a.cabin_bags} cabin bag${a.cabin_bags === 1 ? '' : 's'}`;
  const checked =
    a.checked_bags === 0
      ? 'no checked bag'
      : `${a.checked_bags} checked bag${a.checked_bags === 1 ? '' : 's'}${a.checked_bag_weight_kg ? ` (${a.checked_bag_weight_kg} kg each)` : ''}`;
  return `${cabin}, ${checked}`;
}

export function eTicketDocument(input: ETicketInput): DocumentModel {
  const { documents, booking, baggage, airports, payments, agency, scheduleChanges } = input;
  const place = (code: string) => {
    const a = airports.get(code);
    return a ? `${code} ${a.name}` : code;
  };
  const passengerName = (id: string) => {
    const p = booking.passengers.find((x) => x.passenger_id === id) as
      | AllFields<(typeof booking.passengers)[number]>
      | undefined;
    return p ? `${p.last_name}/${p.first_name}${p.title ? ` ${p.title}` : ''}`.toUpperCase() : id;
  };
  const segment = (id: string) => booking.flights.find((f) => f.segment_id === id);
  const tickets = documents.tickets;
  const issued = tickets.map((t) => t.issued_at).sort()[0];
  const { pricing } = booking;
  const fare = pricing.total_minor - pricing.taxes_minor - (pricing.bags_minor ?? 0);
  const zones = [
    ...new Set(
      booking.flights
        .flatMap((f) => [f.origin, f.destination])
        .map((c) => (airports.get(c)?.timezone ? `${c} ${airports.get(c)?.timezone}` : '')),
    ),
  ].filter(Boolean);

  return {
    title: 'E-ticket receipt and itinerary',
    subtitle: labelled([
      ['Booking reference (PNR)', documents.pnr ?? booking.pnr ?? '(none)'],
      ['Booking', `flight ${booking.booking_id}`],
      ['Issued', issued ? localDate(issued) : undefined],
      ['Issuing agent (IATA)', tickets[0]?.issuing_iata_number],
      [
        'Travel agency',
        agency
          ? [agency.company_name, agency.contact_email, agency.contact_phone].filter(Boolean).join(', ')
          : undefined,
      ],
    ]),
    sections: [
      {
        heading: 'Passengers and tickets',
        table: {
          headers: ['passenger', 'ticket number', 'issued'],
          rows: tickets.map((t) => [
            t.passenger_name || passengerName(t.passenger_id),
            t.ticket_number,
            localDate(t.issued_at),
          ]),
        },
      },
      {
        heading: 'Itinerary (local times at each airport)',
        table: {
          headers: ['flight', 'from', 'departs', 'to', 'arrives', 'cabin'],
          rows: booking.flights.map((f) => [
            `${f.marketing_carrier} ${f.flight_number}${f.operating_carrier && f.operating_carrier !== f.marketing_carrier ? ` (operated by ${f.operating_carrier})` : ''}`,
            place(f.origin),
            localDateTime(f.departure_at),
            place(f.destination),
            localDateTime(f.arrival_at),
            `${f.cabin} (${f.booking_class})`,
          ]),
        },
      },
      {
        heading: 'Coupons',
        table: {
          headers: ['ticket number', 'coupon', 'flight', 'route', 'date', 'status'],
          rows: tickets.flatMap((t) =>
            t.coupons.map((c) => [
              t.ticket_number,
              String(c.coupon_number),
              c.flight,
              `${c.origin}-${c.destination}`,
              localDate(segment(c.segment_id)?.departure_at),
              c.status,
            ]),
          ),
        },
      },
      {
        heading: 'Fare',
        pairs: labelled([
          ['Fare', money(fare, pricing.currency)],
          ['Taxes and fees', money(pricing.taxes_minor, pricing.currency)],
          ['Extra bags', pricing.bags_minor ? money(pricing.bags_minor, pricing.currency) : undefined],
          ['Total', money(pricing.total_minor, pricing.currency)],
          ['Form of payment', formOfPayment(payments, tickets[0]?.form_of_payment ?? undefined)],
          [
            'Fare calculation',
            `${money(fare, pricing.currency)} fare + ${money(pricing.taxes_minor, pricing.currency)} taxes and fees${pricing.bags_minor ? ` + ${money(pricing.bags_minor, pricing.currency)} bags` : ''} = ${money(pricing.total_minor, pricing.currency)}`,
          ],
          ['Airline fare calculation', realFareCalculation(tickets[0]?.fare_calculation)],
        ]),
      },
      {
        heading: 'Baggage allowance',
        ...(baggage && baggage.allowances.length > 0
          ? {
              table: {
                headers: ['passenger', 'flight', 'allowance'],
                rows: baggage.allowances.map((a) => {
                  const s = segment(a.segment_id);
                  return [
                    passengerName(a.passenger_id),
                    s
                      ? `${s.marketing_carrier} ${s.flight_number} ${s.origin}-${s.destination}`
                      : a.segment_id,
                    bags(a),
                  ];
                }),
              },
            }
          : { lines: ['See the airline’s conditions for this fare.'] }),
      },
    ],
    notes: [
      ...acceptedChangeNotes(scheduleChanges ?? []),
      ...(tickets[0]?.endorsements ? [`Endorsements: ${tickets[0].endorsements}`] : []),
      `All times are local at the airport named.${zones.length ? ` Time zones: ${zones.join(', ')}.` : ''}`,
      'Please carry a valid passport or identity document matching the name on the ticket.',
    ],
  };
}
