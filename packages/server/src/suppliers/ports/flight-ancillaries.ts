import type { Currency } from './errors.ts';
import type { CabinClass } from './flight.ts';

// The flight port's seat and ancillary types: seat maps and requests, service catalogue and purchases,
// EMDs, what an order holds (`FlightSupplier` in flight.ts; re-exported there).

export interface SeatMapSeat {
  seat_number: string;
  available: boolean;
  chargeable: boolean;
  price?: { currency: Currency; amount_minor: number };
  characteristics: string[];
}

export interface SeatMap {
  segment_id: string;
  cabin: CabinClass;
  rows: { row: number; seats: SeatMapSeat[] }[];
}

export interface SeatRequest {
  segment_id: string;
  seat_number: string;
  passenger_id: string;
}

export interface SeatRequestResult extends SeatRequest {
  accepted: boolean;
  /** pending until paid seats are priced and issued; confirmed for free seats. */
  status: 'pending' | 'confirmed' | 'refused';
  reason?: string;
  price?: { currency: Currency; amount_minor: number };
}

export interface AncillaryItem {
  code: string;
  rfic: string;
  rfisc: string;
  description: string;
  service_group: 'BG' | 'ST' | 'ML' | 'OT';
  booking_method: string;
  provider: string;
  segment_ids: string[];
  price: { currency: Currency; amount_minor: number };
}

export interface AncillaryPurchaseProduct {
  customer_ref_ids: string[];
  code: string;
  rfic: string;
  rfisc: string;
  booking_method: string;
  provider: string;
  /** Space-separated segment ids, as the spec has it. */
  segment_ref_ids: string;
}

export interface PurchasedAncillary {
  tsm_reference: string;
  code: string;
  passenger_ids: string[];
  segment_ids: string[];
  price: { currency: Currency; amount_minor: number };
}

export interface IssuedEmd {
  tsm_reference: string;
  emd_number: string;
}

/**
 * What an order holds now: its seats and its service elements, each with its EMD. Read to settle a seat
 * issuance, service purchase or EMD issuance whose answer was lost (payment/money-ops.ts).
 */
export interface OrderServices {
  seats: (SeatRequestResult & { tsm_reference: string | null; emd_number: string | null })[];
  services: (PurchasedAncillary & { status: 'active' | 'voided' | 'removed'; emd_number: string | null })[];
}
