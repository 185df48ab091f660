/** Human views of ticketing and payment answers. */
import type { components } from '@travel/sdk';
import { money } from '../ui/table.ts';

type TicketIssueResult = components['schemas']['TicketIssueResult'];
type Payment = components['schemas']['Payment'];

export function paymentLine(p: Payment): string {
  return [
    `payment ${p.payment_id} ${p.state}`,
    `amount ${money(p.amount_minor, p.currency)}`,
    `captured ${money(p.captured_minor, p.currency)}`,
    `refunded ${money(p.refunded_minor, p.currency)}`,
  ].join('  ');
}

export function ticketIssueLines(r: TicketIssueResult): string[] {
  const lines = [
    `booking ${r.booking_id}: ${r.issued ? 'tickets issued' : `not issued yet (${r.raw_status})`}  status ${r.status}`,
  ];
  for (const t of r.tickets) {
    const route = t.coupons.map((c) => `${c.origin}-${c.destination}`).join(' ');
    lines.push(`  ${t.ticket_number}  ${t.passenger_name}  ${route}`);
  }
  if (r.payment) lines.push(paymentLine(r.payment));
  if (r.issued) lines.push(`receipt: travel ticket document ${r.booking_id} [--pdf FILE]`);
  return lines;
}

/** What a capture, void or refund answered: the payment now, and its last transaction. */
export function paymentActionLines(kind: string, p: Payment): string[] {
  const last = p.transactions.at(-1);
  return [
    `${kind} done on booking ${p.booking_id}`,
    paymentLine(p),
    ...(last
      ? [
          `last transaction ${last.transaction_id}: ${last.type} ${money(last.amount_minor, last.currency)} ${last.status}`,
        ]
      : []),
  ];
}
