/**
 * Supplier ports: the only shapes the rest of the server sees of a supplier. Each adapter in
 * `suppliers/<name>/` maps its supplier's own protocol onto these. Money is always integer minor units
 * with its currency. The `FlightOffer`, `HotelOffer` and `TransferOffer` shapes are mirrored 1:1 by the
 * schemas of the same name in `openapi.json`.
 */

/** The allowed currencies and their ISO 4217 exponents live in the contract's one table. */
import type { Currency } from '@travel/contract';

export { CURRENCIES, type Currency } from '../../../../contract/currencies.ts';

export type FlightSupplierName = 'amadeus' | 'duffel' | 'mystifly';
export type HotelSupplierName = 'hotelbeds' | 'duffel_stays';
export type TransferSupplierName = 'hotelbeds_transfers' | 'amadeus_transfers';
export type PaymentProviderName = 'stripe';
export type SupplierName =
  | FlightSupplierName
  | HotelSupplierName
  | TransferSupplierName
  | PaymentProviderName;

/** Passed to every supplier call: cancellation and the per-call deadline. */
export interface CallOptions {
  signal?: AbortSignal;
  /** Idempotency key to forward where the supplier supports one (Duffel, Stripe). */
  idempotencyKey?: string;
}

/**
 * Every failure a supplier call can end in. `kind` is what the service branches on:
 * - `unknown_outcome`: the supplier may have acted (timeout or 5xx on a create); never report as failed.
 * - `unavailable`: no effect, retry may help (5xx before acting, connection refused, circuit open).
 * - `timeout`: the call exceeded its deadline; on a read it is harmless, on a create use `unknown_outcome`.
 */
export type SupplierErrorKind =
  | 'rejected'
  | 'declined'
  | 'price_changed'
  | 'offer_expired'
  | 'sold_out'
  | 'not_found'
  | 'invalid_request'
  | 'unsupported'
  | 'unavailable'
  | 'timeout'
  | 'unknown_outcome'
  | 'auth_failed';

export class SupplierError extends Error {
  readonly supplier: SupplierName;
  readonly kind: SupplierErrorKind;
  /** The supplier's own error code or message, for logs and admin error views (never a credential). */
  readonly supplierCode: string | undefined;
  /** Extra facts, e.g. `{ old_total_minor, new_total_minor }` on price_changed, `decline_code` on declined. */
  readonly details: Record<string, unknown>;
  constructor(
    supplier: SupplierName,
    kind: SupplierErrorKind,
    message: string,
    opts: { supplierCode?: string; details?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(message, { cause: opts.cause });
    this.name = 'SupplierError';
    this.supplier = supplier;
    this.kind = kind;
    this.supplierCode = opts.supplierCode;
    this.details = opts.details ?? {};
  }
  get retryable(): boolean {
    return this.kind === 'unavailable' || this.kind === 'timeout';
  }
}

// ---------------------------------------------------------------------------------------------------
// Flights
// ---------------------------------------------------------------------------------------------------

export type CabinClass = 'Economy' | 'Premium' | 'Business' | 'First';
export type JourneyType = 'OneWay' | 'Return' | 'MultiCity';
export type PassengerType = 'ADT' | 'CHD' | 'INF';

export interface FlightSearchLeg {
  origin: string;
  destination: string;
  /** YYYY-MM-DD */
  departureDate: string;
}

export interface FlightSearchQuery {
  legs: FlightSearchLeg[];
  journeyType: JourneyType;
  adults: number;
  children: number;
  infants: number;
  childAges: number[];
  cabinClass: CabinClass;
  currency: Currency;
  /** Restrict to one marketing carrier (IATA 2-letter). */
  airline?: string;
  refundableOnly?: boolean;
  maxResults: number;
}

export interface FlightSegment {
  /** Stable within the offer: "s1", "s2", … in flight order across all slices. */
  segment_id: string;
  marketing_carrier: string;
  operating_carrier: string;
  flight_number: string;
  origin: string;
  destination: string;
  /** Local date-time at the airport, ISO 8601 without offset: 2026-12-20T09:35:00 */
  departure_at: string;
  arrival_at: string;
  duration_minutes: number;
  cabin: CabinClass;
  booking_class: string;
  aircraft: string | null;
}

export interface FlightSlice {
  origin: string;
  destination: string;
  departure_date: string;
  duration_minutes: number;
  stops: number;
  segments: FlightSegment[];
}

export interface FlightPrice {
  currency: Currency;
  base_minor: number;
  taxes_minor: number;
  /** Our markup (rules engine); adapters always return 0, the search engine fills it. */
  markup_minor: number;
  total_minor: number;
}

export interface BaggageAllowance {
  cabin_bags: number;
  checked_bags: number;
  checked_bag_weight_kg: number | null;
}

/**
 * A normalized offer as an adapter returns it. `supplier_ref` is opaque to everyone but the adapter
 * that produced it: it carries what that supplier needs to price or book the offer later (an Amadeus
 * flight-offer object, a Duffel offer id, a Mystifly FareSourceCode). The server stores it with the offer.
 */
export interface SupplierFlightOffer {
  supplier: FlightSupplierName;
  supplier_ref: unknown;
  slices: FlightSlice[];
  validating_carrier: string;
  cabin: CabinClass;
  fare_brand: string | null;
  refundable: boolean;
  changeable: boolean;
  baggage: BaggageAllowance;
  price: FlightPrice;
  passengers: { adults: number; children: number; infants: number };
  /** Low-cost-carrier content: no IATA ticket, empty fare calculation. */
  lcc: boolean;
  /** RFC 3339; after this the supplier no longer honours the offer. */
  expires_at: string;
  /** What booking the offer needs per passenger type (documents, date of birth, …): see requirements.ts. */
  booking_requirements: BookingRequirements;
}

/** What createPnr needs for each passenger of one type (openapi `PassengerRequirements`). */
export interface PassengerRequirements {
  passenger_type: PassengerType;
  identity_document: boolean;
  /** Document types the supplier takes (empty when none is required). */
  document_types: ('passport' | 'id_card' | 'visa')[];
  date_of_birth: boolean;
  nationality: boolean;
  /** The passenger's own phone (otherwise the booking contact's is used). */
  phone: boolean;
}

export interface BookingRequirements {
  /** One entry per passenger type on the offer. */
  passengers: PassengerRequirements[];
}

/** The public offer (openapi `FlightOffer`): the supplier offer plus our id, minus the opaque ref. */
export interface FlightOffer extends Omit<SupplierFlightOffer, 'supplier_ref'> {
  offer_id: string;
  search_id: string;
  /** The supplier's own total (base + taxes, its currency) behind `price` (search/exchange.ts). */
  supplier_price?: { currency: Currency; amount_minor: number };
  /** Units of the shown currency per 1 unit of the supplier's (1 when nothing was converted). */
  fx_rate?: number;
}

export interface FareRule {
  category: string;
  title: string;
  text: string;
}

export interface PricedFlightOffer {
  offer: SupplierFlightOffer;
  /** True when the supplier's price differs from the one the offer carried. */
  price_changed: boolean;
  previous_total_minor: number;
  fare_rules?: FareRule[];
  /** Chargeable bags the supplier sells for this offer (bags catalogue). */
  bag_options?: BagOption[];
}

export interface BagOption {
  bag_option_id: string;
  /** Segment ids the bag covers; empty means every segment. */
  segment_ids: string[];
  passenger_type: PassengerType | null;
  weight_kg: number | null;
  quantity_max: number;
  price: { currency: Currency; amount_minor: number };
}

export interface BagSelection {
  bag_option_id?: string;
  traveler_id?: string;
  segment_id?: string;
  quantity: number;
}

export interface PassengerInput {
  /** 1-based traveler index as a string ("1", "2", …) unless the caller gave its own id. */
  passenger_id: string;
  type: PassengerType;
  title?: string;
  first_name: string;
  last_name: string;
  gender: 'M' | 'F' | 'O';
  date_of_birth: string;
  nationality?: string;
  email?: string;
  phone?: string;
  document?: {
    type: 'passport' | 'id_card' | 'visa';
    number: string;
    expiry: string;
    issuing_country: string;
  };
}

export interface ContactInput {
  email: string;
  phone: string;
}

/** Supplier order states as we normalize them. */
export type SupplierOrderStatus = 'confirmed' | 'on_hold' | 'pending' | 'rejected' | 'cancelled' | 'ticketed';

export interface SupplierFlightOrder {
  supplier: FlightSupplierName;
  /** The supplier's order id (Amadeus flight-order id, Duffel ord_…, Mystifly UniqueID). */
  order_ref: string;
  /** Airline record locator, 6 characters. */
  pnr: string;
  status: SupplierOrderStatus;
  /** Ticketing deadline for held orders, RFC 3339. */
  ticketing_deadline: string | null;
  total: { currency: Currency; amount_minor: number };
  /** The supplier's raw order, for `GET /bookings/{id}/order`. */
  raw: unknown;
}

export interface CreateFlightOrderInput {
  offer: SupplierFlightOffer;
  passengers: PassengerInput[];
  contact: ContactInput;
  /** Hold (no payment yet) where the supplier supports it, else instant. */
  hold: boolean;
  remarks?: string[];
  bags?: BagSelection[];
  /** Our booking id, sent as the supplier's client reference where it has one (used by reconciliation). */
  client_reference: string;
}

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

export interface FlightSupplierCapabilities {
  upsell: boolean;
  /** Ticketing completes later; ticket status is polled (Mystifly). */
  asyncTicketing: boolean;
  /** Exposes a raw ticket order status (else ticket/status is 501). */
  ticketStatus: boolean;
  /** Post-ticketing requests (void/refund/reissue) are raised as servicing requests. */
  servicing: boolean;
  notes: boolean;
  holdOrders: boolean;
  seats: boolean;
  ancillaries: boolean;
  foid: boolean;
  commission: boolean;
}

/**
 * One flight supplier. Optional operations are declared by `capabilities`; an adapter whose supplier
 * cannot do something throws `SupplierError(kind: 'unsupported')`, which the service maps to 400 or 501
 * as the spec says for that operation.
 */
export interface FlightSupplier {
  readonly name: FlightSupplierName;
  readonly capabilities: FlightSupplierCapabilities;
  search(query: FlightSearchQuery, opts?: CallOptions): Promise<SupplierFlightOffer[]>;
  price(
    offer: SupplierFlightOffer,
    include: { bags?: boolean; fareRules?: boolean },
    opts?: CallOptions,
  ): Promise<PricedFlightOffer>;
  upsell(offer: SupplierFlightOffer, opts?: CallOptions): Promise<SupplierFlightOffer[]>;
  repriceWithBags(
    offer: SupplierFlightOffer,
    selections: BagSelection[],
    opts?: CallOptions,
  ): Promise<PricedFlightOffer>;
  fareRules(offer: SupplierFlightOffer, opts?: CallOptions): Promise<FareRule[]>;

  createOrder(input: CreateFlightOrderInput, opts?: CallOptions): Promise<SupplierFlightOrder>;
  getOrder(orderRef: string, opts?: CallOptions): Promise<SupplierFlightOrder>;
  /** Find an order by our client reference (reconciliation after an unknown outcome). Null if none. */
  findOrderByClientReference(
    clientReference: string,
    opts?: CallOptions,
  ): Promise<SupplierFlightOrder | null>;
  cancelOrder(
    orderRef: string,
    opts?: CallOptions,
  ): Promise<{
    cancelled: boolean;
    refund?: { currency: Currency; amount_minor: number };
    fee?: { currency: Currency; amount_minor: number };
  }>;
  addNotes(
    orderRef: string,
    notes: string[],
    opts?: CallOptions,
  ): Promise<{ success: boolean; reason?: string }>;
  updateFoid(
    orderRef: string,
    foid: {
      number: string;
      identification_type?: string;
      carrier_code?: string;
      traveler_ids?: string[];
      flight_offer_ids?: string[];
    },
    opts?: CallOptions,
  ): Promise<void>;
  updateCommission(
    orderRef: string,
    commission: {
      amount?: string;
      percentage?: number;
      commission_type?: string;
      vat?: boolean;
      traveler_ids?: string[];
      segment_ids?: string[];
    },
    opts?: CallOptions,
  ): Promise<void>;

  issueTicket(
    orderRef: string,
    payment: { currency: Currency; amount_minor: number },
    opts?: CallOptions,
  ): Promise<TicketIssueResult>;
  ticketStatus(orderRef: string, opts?: CallOptions): Promise<TicketStatus>;
  ticketDocuments(orderRef: string, opts?: CallOptions): Promise<TicketDocument[]>;
  ticketAction(
    orderRef: string,
    action: TicketAction,
    confirm: boolean,
    note: string | undefined,
    opts?: CallOptions,
  ): Promise<TicketActionResult>;
  listServicing(orderRef: string, opts?: CallOptions): Promise<ServicingRequest[]>;

  seatMap(orderRef: string, opts?: CallOptions): Promise<SeatMap[]>;
  requestSeats(orderRef: string, seats: SeatRequest[], opts?: CallOptions): Promise<SeatRequestResult[]>;
  issueSeats(
    orderRef: string,
    issueEmdDocuments: boolean,
    opts?: CallOptions,
  ): Promise<{ priced: SeatRequestResult[]; emds: IssuedEmd[] }>;
  addSsr(
    orderRef: string,
    ssr: { code: string; free_text: string; segment_id?: string; passenger_id?: string },
    opts?: CallOptions,
  ): Promise<{ ssr_id: string; status: string }>;
  ancillaryCatalogue(
    orderRef: string,
    serviceGroup: '' | 'BG' | 'ST' | 'ML',
    opts?: CallOptions,
  ): Promise<AncillaryItem[]>;
  purchaseAncillaries(
    orderRef: string,
    products: AncillaryPurchaseProduct[],
    opts?: CallOptions,
  ): Promise<PurchasedAncillary[]>;
  issueEmds(orderRef: string, tsmReferences: string[], opts?: CallOptions): Promise<IssuedEmd[]>;
  /** The order's seats and service elements as the supplier holds them now (reconciliation). */
  orderServices?(orderRef: string, opts?: CallOptions): Promise<OrderServices>;
  /** Void an issued EMD or remove an unissued service element. */
  cancelAncillary(
    orderRef: string,
    item: { tsm_reference: string; emd_number: string | null },
    opts?: CallOptions,
  ): Promise<{ outcome: 'voided' | 'removed' }>;
}

// ---------------------------------------------------------------------------------------------------
// Hotels
// ---------------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------------
// Ground transfers
// ---------------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------------
// Payments
// ---------------------------------------------------------------------------------------------------

/** Provider states as Stripe PaymentIntents name them; the payment service maps them to ours. */
export type ProviderPaymentStatus =
  | 'requires_capture'
  | 'succeeded'
  | 'canceled'
  | 'requires_payment_method'
  | 'processing';

export interface ProviderPayment {
  provider: PaymentProviderName;
  /** pi_… */
  payment_ref: string;
  status: ProviderPaymentStatus;
  amount_minor: number;
  amount_capturable_minor: number;
  amount_received_minor: number;
  amount_refunded_minor: number;
  currency: Currency;
}

export interface PaymentProvider {
  readonly name: PaymentProviderName;
  /** Authorize only (manual capture). A decline throws SupplierError kind 'declined' with decline_code. */
  authorize(
    input: {
      token: string;
      amount_minor: number;
      currency: Currency;
      description: string;
      metadata: Record<string, string>;
    },
    opts: CallOptions & { idempotencyKey: string },
  ): Promise<ProviderPayment>;
  capture(
    paymentRef: string,
    amountMinor: number | undefined,
    opts: CallOptions & { idempotencyKey: string },
  ): Promise<ProviderPayment>;
  void(
    paymentRef: string,
    reason: string | undefined,
    opts: CallOptions & { idempotencyKey: string },
  ): Promise<ProviderPayment>;
  refund(
    paymentRef: string,
    amountMinor: number | undefined,
    reason: string | undefined,
    opts: CallOptions & { idempotencyKey: string },
  ): Promise<{ refund_ref: string; amount_minor: number; payment: ProviderPayment }>;
  get(paymentRef: string, opts?: CallOptions): Promise<ProviderPayment>;
  /**
   * The authorization created with metadata `intent_ref` = `ref` (reconciliation of an authorize whose
   * answer was lost), or null when the provider holds none.
   */
  findByReference?(ref: string, opts?: CallOptions): Promise<ProviderPayment | null>;
}
