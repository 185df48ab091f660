/**
 * The contract's enums (the `enum` of BookingStatus, PaymentState, Role and the supplier schemas), as
 * runtime lists and types. `schemas/common.ts` builds the components from them; the server, the SDK and the
 * CLI import them from `@travel/contract` instead of copying the values.
 *
 * Pure data, no imports: bundled as is into the SDK.
 */

export const BOOKING_STATUSES = [
  'initiated',
  'pending_pnr',
  'pnr_failed',
  'on_hold',
  'confirmed',
  'payment_pending',
  'payment_failed',
  'paid',
  'ticketed',
  'cancelled',
  'refunded',
  'expired',
] as const;

export const SERVICE_BOOKING_STATUSES = [
  'pending',
  'confirmed',
  'on_request',
  'cancelled',
  'rejected',
  'failed',
] as const;

/** The ancillary (TSM) states, the contract's `AncillaryStatus`; the server's state machine moves them. */
export const ANCILLARY_STATUSES = ['held', 'issued', 'voided', 'removed', 'refunded', 'failed'] as const;

export const ROLES = ['super_admin', 'company_admin', 'company_staff', 'customer'] as const;
export const FLIGHT_SUPPLIERS = ['amadeus', 'duffel', 'mystifly'] as const;
export const HOTEL_SUPPLIERS = ['hotelbeds', 'duffel_stays'] as const;
export const TRANSFER_SUPPLIERS = ['hotelbeds_transfers', 'amadeus_transfers'] as const;
export const PAYMENT_STATES = [
  'PENDING',
  'AUTHORIZED',
  'CAPTURED',
  'SETTLED',
  'VOIDED',
  'REFUNDED',
  'FAILED',
] as const;

export type BookingStatus = (typeof BOOKING_STATUSES)[number];
export type ServiceBookingStatus = (typeof SERVICE_BOOKING_STATUSES)[number];
export type Role = (typeof ROLES)[number];
export type AncillaryStatus = (typeof ANCILLARY_STATUSES)[number];
export type FlightSupplier = (typeof FLIGHT_SUPPLIERS)[number];
export type HotelSupplier = (typeof HOTEL_SUPPLIERS)[number];
export type TransferSupplier = (typeof TRANSFER_SUPPLIERS)[number];
export type PaymentState = (typeof PAYMENT_STATES)[number];

/** Every event the outbox records (contracts.md §8): the server's `events/record.ts` and the contract's `EventType`. */
export const EVENT_TYPES = [
  'booking.created',
  'booking.confirmed',
  'booking.failed',
  'booking.cancelled',
  'booking.status_overridden',
  'booking.pending_settled',
  'schedule_change.detected',
  'schedule_change.accepted',
  'ticket.issued',
  'ticket.voided',
  'ticket.refunded',
  'servicing.updated',
  'payment.authorized',
  'payment.captured',
  'payment.voided',
  'payment.refunded',
  'payment.declined',
  'hotel_booking.created',
  'hotel_booking.confirmed',
  'hotel_booking.failed',
  'hotel_booking.cancelled',
  'hotel_booking.pending_settled',
  'hotel_booking.status_overridden',
  'transport_booking.created',
  'transport_booking.confirmed',
  'transport_booking.failed',
  'transport_booking.cancelled',
  'transport_booking.pending_settled',
  'transport_booking.status_overridden',
] as const;
