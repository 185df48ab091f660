/**
 * The flight port, by capability: what every flight supplier does, and optional capability objects. The
 * ticketing types live in flight-ticketing.ts, the seat and ancillary types in flight-ancillaries.ts;
 * both are re-exported here, so a supplier or domain imports the port from this file alone.
 */
import type { CallOptions, Currency, FlightSupplierName } from './errors.ts';
import type {
  AncillaryItem,
  AncillaryPurchaseProduct,
  IssuedEmd,
  OrderServices,
  PurchasedAncillary,
  SeatMap,
  SeatRequest,
  SeatRequestResult,
} from './flight-ancillaries.ts';
import type {
  ServicingRequest,
  TicketAction,
  TicketActionResult,
  TicketDocument,
  TicketIssueResult,
  TicketStatus,
} from './flight-ticketing.ts';

export type * from './flight-ancillaries.ts';
export type * from './flight-ticketing.ts';

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

/**
 * A booked order's flights as the airline flies them now (schedule changes, issue 30), and the changes the
 * supplier itself records with an id (Duffel's airline-initiated changes). A GDS or consolidator shows
 * only the itinerary: `changes` is empty and there is nothing to accept at the supplier.
 */
export interface OrderItinerary {
  /** Every segment in flight order ("s1", "s2", … as on the offer). */
  segments: FlightSegment[];
  /** The supplier's recorded changes, oldest first: its id and whether an action was taken on it. */
  changes: { change_id: string; action_taken: string | null }[];
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
  /** The order's flights as they are now (schedule-change detection). */
  orderItinerary?(orderRef: string, opts?: CallOptions): Promise<OrderItinerary>;
  /** Accepts a change the supplier recorded (`OrderItinerary.changes`); a change already accepted is fine. */
  acceptScheduleChange?(orderRef: string, changeId: string, opts?: CallOptions): Promise<void>;
  /** Void an issued EMD or remove an unissued service element. */
  cancelAncillary(
    orderRef: string,
    item: { tsm_reference: string; emd_number: string | null },
    opts?: CallOptions,
  ): Promise<{ outcome: 'voided' | 'removed' }>;
}
