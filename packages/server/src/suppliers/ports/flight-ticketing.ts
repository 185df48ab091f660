import type { Currency } from './errors.ts';

// The flight port's ticketing types: tickets and their coupons, ticket actions, servicing requests
// (`FlightSupplier` in flight.ts; re-exported there).

export type CouponStatus = 'OPEN' | 'USED' | 'EXCHANGED' | 'REFUNDED' | 'VOID';

export interface TicketCoupon {
  coupon_number: number;
  segment_id: string;
  origin: string;
  destination: string;
  flight: string;
  status: CouponStatus;
}

export interface TicketDocument {
  ticket_number: string;
  passenger_id: string;
  passenger_name: string;
  /** Empty string for low-cost content. */
  issuing_iata_number: string;
  fare_calculation: string;
  endorsements: string;
  form_of_payment: string;
  issued_at: string;
  allow_void: boolean;
  allow_refund: boolean;
  allow_reissue: boolean;
  coupons: TicketCoupon[];
}

export interface TicketIssueResult {
  /** False when issuance is asynchronous and still in process (Mystifly TktInProcess). */
  issued: boolean;
  raw_status: string;
  tickets: TicketDocument[];
}

export interface TicketStatus {
  issued: boolean;
  /** The supplier's raw status code, e.g. Mystifly "1" (Placed) or "6" (Ticketed). */
  raw_status: string;
  raw_status_text: string;
}

export type TicketAction = 'void' | 'refund' | 'reissue';

/** Result of a ticket action; a determination ("window expired") is a result, never a thrown error. */
export interface TicketActionResult {
  action: TicketAction;
  confirmed: boolean;
  permitted: boolean;
  /** Machine-readable determination: ok, void_window_expired, non_refundable, request_raised, … */
  determination: string;
  message: string;
  /** Money back to the customer and what the supplier keeps, where known. */
  refund?: { currency: Currency; amount_minor: number };
  fee?: { currency: Currency; amount_minor: number };
  /** For consolidators: the servicing request raised (quote or real). */
  servicing_request_id?: string;
  /** Coupon status after a confirmed action. */
  coupon_status?: CouponStatus;
}

export type ServicingState =
  | 'Requested'
  | 'InProcess'
  | 'Completed'
  | 'Deleted'
  | 'Rejected'
  | 'QuoteChanged';

export interface ServicingRequest {
  request_id: string;
  type: TicketAction;
  state: ServicingState;
  created_at: string;
  updated_at: string;
  quote?: { currency: Currency; amount_minor: number };
}
