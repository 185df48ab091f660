/**
 * Helpers shared by the flight conformance suite and the per-supplier test files: the base query, a
 * passenger, error-kind capture, client references and waiting out asynchronous ticketing.
 */
import { expect } from 'vitest';
import { SupplierError } from '../../src/suppliers/ports/errors.ts';
import type {
  FlightSearchQuery,
  FlightSupplier,
  PassengerInput,
  TicketIssueResult,
  TicketStatus,
} from '../../src/suppliers/ports/flight.ts';

export const baseFlightQuery: FlightSearchQuery = {
  legs: [{ origin: 'LHR', destination: 'DXB', departureDate: '2026-12-20' }],
  journeyType: 'OneWay',
  adults: 1,
  children: 0,
  infants: 0,
  childAges: [],
  cabinClass: 'Economy',
  currency: 'GBP',
  maxResults: 5,
};

export function conformancePassenger(lastName: string, id = '1'): PassengerInput {
  return {
    passenger_id: id,
    type: 'ADT',
    title: 'MR',
    first_name: 'Adam',
    last_name: lastName,
    gender: 'M',
    date_of_birth: '1985-04-12',
    nationality: 'GB',
    email: 'adam@example.com',
    phone: '+447700900123',
    document: { type: 'passport', number: 'X1234567', expiry: '2031-01-01', issuing_country: 'GB' },
  };
}

export async function kindOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'resolved';
  } catch (e) {
    if (e instanceof SupplierError) return e.kind;
    throw e;
  }
}

let refCounter = 0;
export const clientRef = (prefix: string): string => `${prefix}-${Date.now().toString(36)}-${++refCounter}`;

/** Status polls an asynchronous supplier gets before the suite calls its ticketing stuck. */
export const MAX_TICKET_POLLS = 10;

/**
 * Issues tickets as the capabilities say: a synchronous supplier answers issued with its documents; an
 * asynchronous one answers in process with none, and `ticketStatus` is then polled until issued.
 * Returns the issue answer and the statuses read while polling.
 */
export async function issueAndAwait(
  a: FlightSupplier,
  orderRef: string,
  payment: Parameters<FlightSupplier['issueTicket']>[1],
): Promise<{ issued: TicketIssueResult; polled: TicketStatus[] }> {
  const issued = await a.issueTicket(orderRef, payment);
  expect(issued.raw_status).toBeTruthy();
  if (!a.capabilities.asyncTicketing) {
    expect(issued.issued).toBe(true);
    expect(issued.tickets.length).toBeGreaterThan(0);
    return { issued, polled: [] };
  }
  // Polling is the only way to learn the outcome, so an asynchronous supplier must expose a status.
  expect(a.capabilities.ticketStatus).toBe(true);
  expect(issued.issued).toBe(false);
  expect(issued.tickets).toEqual([]);
  const polled: TicketStatus[] = [];
  while (polled.length < MAX_TICKET_POLLS && !polled.at(-1)?.issued) {
    polled.push(await a.ticketStatus(orderRef));
  }
  expect(polled.at(-1)?.issued).toBe(true);
  return { issued, polled };
}
