/** Per-instance OnePoint state: sessions, bookings, tickets and post-ticketing requests (PTRs). */

import { Faults } from '../../shared/kit.ts';
import type { Itinerary } from './data.ts';

/** Raw booking status codes (README): 1 and 6 are documented by Mystifly, the rest are our assumption. */
export const STATUS = {
  placed: '1',
  tktInProcess: '3',
  cancelled: '4',
  ticketed: '6',
  voided: '7',
  refunded: '8',
} as const;
export const STATUS_TEXT: Record<string, string> = {
  '1': 'Placed',
  '3': 'TktInProcess',
  '4': 'Cancelled',
  '6': 'Ticketed',
  '7': 'Voided',
  '8': 'Refunded',
};

export type PtrType = 'VoidQuote' | 'RefundQuote' | 'ReIssueQuote' | 'Void' | 'Refund';
export type PtrStatus = 'Requested' | 'InProcess' | 'Completed' | 'Rejected' | 'Deleted' | 'QuoteChanged';

export interface Ptr {
  id: string;
  type: PtrType;
  status: PtrStatus;
  createdAt: number;
  updatedAt: number;
  polls: number;
  refundMinor: number;
  feeMinor: number;
  /** Where a request ends once the supplier has worked it. */
  outcome: 'Completed' | 'Rejected' | 'QuoteChanged';
  remarks: string;
  /** Quote PTRs: set once a request was raised on them (they then never expire to Deleted). */
  used: boolean;
}

export interface Traveler {
  type: 'ADT' | 'CHD' | 'INF';
  title: string;
  first: string;
  last: string;
  gender: string;
  dob: string;
  passport: string;
}

export interface Booking {
  uniqueId: string;
  conversationId: string;
  pnr: string;
  status: string;
  itinerary: Itinerary;
  travelers: Traveler[];
  email: string;
  phone: string;
  createdAt: number;
  tktTimeLimit: number;
  ticketing: { pollsLeft: number; readyAt: number } | undefined;
  ticketedAt: number | undefined;
  tickets: string[];
  notes: { text: string; at: number }[];
  ptrs: Ptr[];
  /** SCHEDULECHANGE trigger: the airline moves the flight at the first TripDetails (schedule-changes.ts). */
  scheduleChangeTriggered?: boolean;
}

export interface Session {
  id: string;
  expiresAt: number;
}

export interface MystiflyState {
  sessions: Map<string, Session>;
  bookings: Map<string, Booking>;
  faults: Faults;
  /** Every request path in order: lets tests assert what the adapter called. */
  calls: string[];
  counter: number;
}

export function newState(): MystiflyState {
  return { sessions: new Map(), bookings: new Map(), faults: new Faults(), calls: [], counter: 0 };
}

export const SESSION_TTL_MS = 20 * 60_000;
export const FSC_TTL_MS = 30 * 60_000;
export const VOID_WINDOW_MS = 24 * 3_600_000;
const PTR_STEP_MS = 5 * 60_000;
const QUOTE_TTL_MS = 24 * 3_600_000;

const TICKET_PREFIX: Record<string, string> = {
  EK: '176',
  QR: '157',
  TK: '235',
  BA: '125',
  EY: '607',
  SV: '065',
  BG: '997',
  SQ: '618',
  GF: '072',
};

function issueTickets(b: Booking, now: number): void {
  b.status = STATUS.ticketed;
  b.ticketedAt = now;
  b.ticketing = undefined;
  const prefix = TICKET_PREFIX[b.itinerary.carrier.code];
  b.tickets = b.travelers.map((_, i) => {
    // Low-cost carriers issue no IATA ticket: the airline confirmation stands in for it.
    if (!prefix) return `${b.pnr}${i + 1}`;
    const serial = String((Number.parseInt(b.uniqueId.slice(2), 10) * 7 + i) % 10_000_000_000).padStart(
      10,
      '0',
    );
    return `${prefix}${serial}`;
  });
}

/** Moves asynchronous work on: called on every read of a booking (a "poll"). */
export function progress(b: Booking, now: number, poll: boolean): void {
  if (b.status === STATUS.tktInProcess && b.ticketing) {
    if (poll) b.ticketing.pollsLeft -= 1;
    if (b.ticketing.pollsLeft <= 0 || now >= b.ticketing.readyAt) issueTickets(b, now);
  }
  for (const p of b.ptrs) {
    if (p.type.endsWith('Quote')) {
      if (p.status === 'Completed' && !p.used && now - p.createdAt > QUOTE_TTL_MS) {
        p.status = 'Deleted';
        p.updatedAt = now;
      }
      continue;
    }
    if (poll) p.polls += 1;
    const age = now - p.createdAt;
    if (p.status === 'Requested' && (p.polls >= 1 || age >= PTR_STEP_MS)) {
      p.status = 'InProcess';
      p.updatedAt = now;
      if (!poll) continue;
    }
    if (p.status === 'InProcess' && (p.polls >= 2 || age >= 6 * PTR_STEP_MS)) {
      p.status = p.outcome;
      p.updatedAt = now;
      if (p.outcome === 'Completed') b.status = p.type === 'Void' ? STATUS.voided : STATUS.refunded;
    }
  }
}

/** Issues the tickets at once: OrderTicket with `ticketingPolls: 0`. */
export function ticketNow(b: Booking, now: number): void {
  issueTickets(b, now);
}
