/** The hotel port. */
import type { CallOptions, Currency, HotelSupplierName } from './errors.ts';

export interface HotelRoomRequest {
  adults: number;
  children: number;
  child_ages: number[];
}

export interface HotelSearchQuery {
  /** City name, IATA city/airport code, or "lat,lon". */
  destination: string;
  check_in: string;
  check_out: string;
  rooms: HotelRoomRequest[];
  nationality: string;
  currency: Currency;
  min_star_rating?: number;
  max_results: number;
}

export interface CancellationPolicy {
  /** RFC 3339: from this moment the fee applies. */
  from: string;
  fee: { currency: Currency; amount_minor: number };
}

export interface HotelOffer {
  supplier: HotelSupplierName;
  /** Opaque to us; re-checked before booking. */
  rate_key: string;
  /** BOOKABLE can be booked directly; RECHECK must go through check-rate first (Hotelbeds rateType). */
  rate_type: 'BOOKABLE' | 'RECHECK';
  hotel: {
    hotel_id: string;
    name: string;
    star_rating: number;
    address: string;
    city: string;
    country: string;
    latitude: number;
    longitude: number;
    distance_km: number | null;
  };
  room: { room_type: string; room_name: string; board: string; board_name: string };
  check_in: string;
  check_out: string;
  nights: number;
  rooms: number;
  /** The occupancy the rate was priced for, over all rooms; the guests of a booking must match it. */
  adults: number;
  children: number;
  price: { currency: Currency; base_minor: number; taxes_minor: number; total_minor: number };
  refundable: boolean;
  cancellation_policies: CancellationPolicy[];
}

export interface HotelRateCheck {
  available: boolean;
  offer: HotelOffer;
  price_changed: boolean;
  previous_total_minor: number;
}

export interface HotelGuestInput {
  room: number;
  type: 'AD' | 'CH';
  first_name: string;
  last_name: string;
  age?: number;
}

export interface SupplierHotelBooking {
  supplier: HotelSupplierName;
  booking_ref: string;
  status: 'confirmed' | 'pending' | 'cancelled' | 'rejected' | 'on_request';
  hotel_confirmation: string | null;
  total: { currency: Currency; amount_minor: number };
  cancellation_policies: CancellationPolicy[];
  raw: unknown;
}

export interface HotelSupplier {
  readonly name: HotelSupplierName;
  search(query: HotelSearchQuery, opts?: CallOptions): Promise<HotelOffer[]>;
  checkRate(rateKey: string, opts?: CallOptions): Promise<HotelRateCheck>;
  book(
    input: {
      rate_key: string;
      guests: HotelGuestInput[];
      holder: { first_name: string; last_name: string };
      contact_email: string;
      contact_phone: string;
      special_requests?: string;
      client_reference: string;
    },
    opts?: CallOptions,
  ): Promise<SupplierHotelBooking>;
  getBooking(bookingRef: string, opts?: CallOptions): Promise<SupplierHotelBooking>;
  findBookingByClientReference(
    clientReference: string,
    opts?: CallOptions,
  ): Promise<SupplierHotelBooking | null>;
  /** `simulate` quotes the fee without cancelling (Hotelbeds SIMULATION). */
  cancel(
    bookingRef: string,
    simulate: boolean,
    opts?: CallOptions,
  ): Promise<{
    cancelled: boolean;
    fee: { currency: Currency; amount_minor: number };
    refund: { currency: Currency; amount_minor: number };
  }>;
}
