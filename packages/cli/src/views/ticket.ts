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

/**
 * A supplier's raw ticketing status in words: `TktInProcess` → `ticketing in process`, `VOIDED` → `voided`
 * (the raw code stays in --json).
 */
export function statusWords(text: string | undefined): string {
  if (!text) return 'no status given';
  return text
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .toLowerCase()
    .replace(/\btkt\b/g, 'ticketing')
    .trim();
}

/** Asynchronous issuance (Mystifly): the tickets are not there yet; say so, and what to run next. */
export function pendingTicketLines(bookingId: number | string, statusText: string | undefined): string[] {
  return [
    `booking ${bookingId}: the supplier issues these tickets asynchronously and has not finished yet (${statusWords(statusText)}).`,
    'Tickets usually follow within a minute or two; nothing more to do but check.',
    `next: travel ticket status ${bookingId}   (once issued: travel ticket document ${bookingId})`,
  ];
}

/** `ticket status` for people: issued or not, in words, with the next step. */
export function ticketStatusLines(s: {
  booking_id: number;
  issued: boolean;
  raw_status_text: string;
}): string[] {
  if (!s.issued) return pendingTicketLines(s.booking_id, s.raw_status_text);
  return [
    `booking ${s.booking_id}: tickets issued (${statusWords(s.raw_status_text)})`,
    `receipt: travel ticket document ${s.booking_id} [--pdf FILE]`,
  ];
}

export function ticketIssueLines(r: TicketIssueResult & { raw_status_text?: string }): string[] {
  if (!r.issued) {
    return [
      ...pendingTicketLines(r.booking_id, r.raw_status_text ?? r.raw_status),
      `status ${r.status}`,
      ...(r.payment ? [paymentLine(r.payment)] : []),
    ];
  }
  const lines = [`booking ${r.booking_id}: tickets issued  status ${r.status}`];
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
