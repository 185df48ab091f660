/** The ground transfer port. */
import type { CallOptions, Currency, TransferSupplierName } from './errors.ts';
import type { CancellationPolicy } from './hotel.ts';

export interface TransferSearchQuery {
  /** IATA airport code, or "lat,lon", or a free-text address / hotel name. */
  pickup_location: string;
  dropoff_location: string;
  /** Local date-time, ISO 8601 without offset. */
  pickup_datetime: string;
  return_datetime?: string;
  passengers: number;
  luggage: number;
  transfer_type?: 'PRIVATE' | 'SHARED' | 'TAXI' | 'HOURLY';
  currency: Currency;
}

export interface TransferOffer {
  supplier: TransferSupplierName;
  quote_id: string;
  transfer_type: 'PRIVATE' | 'SHARED' | 'TAXI' | 'HOURLY';
  vehicle: { category: string; description: string; max_passengers: number; max_luggage: number };
  provider_name: string;
  pickup: { location: string; datetime: string };
  dropoff: { location: string };
  duration_minutes: number | null;
  distance_km: number | null;
  price: { currency: Currency; total_minor: number };
  cancellation_policies: CancellationPolicy[];
  expires_at: string;
}

export interface SupplierTransferBooking {
  supplier: TransferSupplierName;
  booking_ref: string;
  /** Amadeus confirmNbr, Hotelbeds booking reference. */
  confirmation_number: string;
  status: 'confirmed' | 'pending' | 'cancelled' | 'rejected';
  total: { currency: Currency; amount_minor: number };
  /** Once cancelled, the fee the provider kept, where it says (settles a cancel whose answer was lost). */
  cancellation_fee?: { currency: Currency; amount_minor: number };
  raw: unknown;
}

export interface TransferPassengerInput {
  first_name: string;
  last_name: string;
  title?: string;
  email?: string;
  phone?: string;
}

export interface TransferSupplier {
  readonly name: TransferSupplierName;
  search(query: TransferSearchQuery, opts?: CallOptions): Promise<TransferOffer[]>;
  quote(
    quoteId: string,
    opts?: CallOptions,
  ): Promise<{ available: boolean; offer: TransferOffer; price_changed: boolean }>;
  book(
    input: {
      quote_id: string;
      passengers: TransferPassengerInput[];
      contact: { email: string; phone: string; name?: string };
      flight_number?: string;
      hotel_name?: string;
      special_requests?: string;
      client_reference: string;
    },
    opts?: CallOptions,
  ): Promise<SupplierTransferBooking>;
  getBooking(bookingRef: string, opts?: CallOptions): Promise<SupplierTransferBooking>;
  findBookingByClientReference(
    clientReference: string,
    opts?: CallOptions,
  ): Promise<SupplierTransferBooking | null>;
  cancel(
    bookingRef: string,
    confirmationNumber: string,
    opts?: CallOptions,
  ): Promise<{ cancelled: boolean; fee: { currency: Currency; amount_minor: number } }>;
}
