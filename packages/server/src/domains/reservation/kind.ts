/**
 * What differs between hotel and transport bookings for the shared queries: the table, the audit entity,
 * where traveller names and the contact email live (for free-text search), and the not-found code.
 */

import { SERVICE_BOOKING_STATUSES } from '@travel/contract';
import { type RawBuilder, sql } from 'kysely';
import type { ErrorCode } from '../../kernel/errors.ts';

export interface BookingKind {
  table: 'hotel_bookings' | 'transport_bookings';
  /** audit_log.entity_type and the job queue prefix */
  entity: 'hotel_booking' | 'transport_booking';
  what: string;
  /** How an invalid_booking_state refusal names it, e.g. "hotel booking". */
  noun: string;
  notFoundCode: ErrorCode;
  /** jsonb column holding guests / passengers */
  people: 'guests' | 'passengers';
  email: RawBuilder<string>;
  /** What `search=` matches: verbatim the expression of the trigram index of migration 0181. */
  searchText: RawBuilder<string>;
  statuses: readonly string[];
}

export const HOTEL_KIND: BookingKind = {
  table: 'hotel_bookings',
  entity: 'hotel_booking',
  what: 'Hotel booking',
  noun: 'hotel booking',
  notFoundCode: 'hotel_booking_not_found',
  people: 'guests',
  email: sql<string>`contact_email`,
  searchText: sql<string>`lower(coalesce(supplier_booking_ref, '') || ' ' || "guests"::text || ' ' || coalesce(contact_email, ''))`,
  statuses: SERVICE_BOOKING_STATUSES,
};

export const TRANSPORT_KIND: BookingKind = {
  table: 'transport_bookings',
  entity: 'transport_booking',
  what: 'Transport booking',
  noun: 'transport booking',
  notFoundCode: 'transport_booking_not_found',
  people: 'passengers',
  email: sql<string>`contact->>'email'`,
  searchText: sql<string>`lower(coalesce(supplier_booking_ref, '') || ' ' || "passengers"::text || ' ' || coalesce((contact->>'email'), ''))`,
  statuses: SERVICE_BOOKING_STATUSES,
};

/** The durable job queue that settles pending bookings of this kind. */
export const reconcileQueue = (k: BookingKind): string => `${k.entity}.reconcile`;
export const reconcileKey = (k: BookingKind, id: number): string => `${k.entity}:reconcile:${id}`;
/** The durable job queue that settles cancellations whose provider answer was lost. */
export const cancelQueue = (k: BookingKind): string => `${k.entity}.cancel_check`;
export const cancelKey = (k: BookingKind, id: number): string => `${k.entity}:cancel:${id}`;
