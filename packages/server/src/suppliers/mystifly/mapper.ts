/** OnePoint wire shapes <-> port shapes. */
import { toMinor as moneyToMinor, roundHalfAway } from '../../internal/money.ts';
import type {
  CabinClass,
  CouponStatus,
  Currency,
  FareRule,
  FlightSearchQuery,
  FlightSegment,
  FlightSlice,
  PassengerInput,
  ServicingRequest,
  ServicingState,
  SupplierFlightOffer,
  SupplierFlightOrder,
  SupplierOrderStatus,
  TicketAction,
  TicketDocument,
} from '../ports.ts';
import { requirementsFor } from '../requirements.ts';

export interface OpMoney {
  Amount: string;
  CurrencyCode: string;
  DecimalPlaces?: number;
}

export interface OpSegment {
  DepartureAirportLocationCode: string;
  ArrivalAirportLocationCode: string;
  DepartureDateTime: string;
  ArrivalDateTime: string;
  FlightNumber: string;
  ResBookDesigCode: string;
  JourneyDuration: number;
  MarketingAirlineCode: string;
  OperatingAirline?: { Code?: string; FlightNumber?: string; Equipment?: string };
  CabinClassCode?: string;
}

export interface OpPricedItinerary {
  ValidatingAirlineCode: string;
  /** False when the fare tickets without passport data (low-cost content). */
  IsPassportMandatory?: boolean;
  AirItineraryPricingInfo: {
    FareSourceCode: string;
    FareType: string;
    IsRefundable: string;
    IsChangeable?: string;
    FareFamily?: string;
    ItinTotalFare: { BaseFare: OpMoney; TotalTax: OpMoney; TotalFare: OpMoney };
    PTC_FareBreakdowns: {
      PassengerTypeQuantity: { Code: string; Quantity: number };
      BaggageInfo?: string[];
    }[];
  };
  OriginDestinationOptions: { FlightSegments: OpSegment[] }[];
}

export interface OpTravelItinerary {
  MFRef: string;
  Status: string;
  BookingStatus: string;
  ConversationId?: string;
  FareType: string;
  IsRefundable: string;
  IsChangeable: string;
  TktTimeLimit: string | null;
  TicketIssuedOn: string | null;
  ItineraryInfo: {
    ReservationItems: {
      ItemRPH: number;
      DepartureAirportLocationCode: string;
      ArrivalAirportLocationCode: string;
      FlightNumber: string;
      MarketingAirlineCode: string;
      AirlinePNR: string;
    }[];
    CustomerInfos: {
      Customer: {
        PassengerType: string;
        PaxName: { PassengerTitle: string; PassengerFirstName: string; PassengerLastName: string };
      };
      ETickets: { ETicketNumber: string; ItemRPH: number; CouponStatus?: string }[];
    }[];
    ItineraryPricing: { TotalFare: OpMoney };
    TicketingInfo?: {
      IssuingIATA?: string;
      FareCalculation?: string;
      Endorsements?: string;
      FormOfPayment?: string;
    };
  };
}

export interface OpPtr {
  PTRId: string;
  PTRType: string;
  PTRStatus: string;
  CreatedOn: string;
  ModifiedOn: string;
  Quote?: { TotalRefundAmount?: OpMoney; TotalFeeAmount?: OpMoney };
}

const CABIN_TO_CODE: Record<CabinClass, string> = { Economy: 'Y', Premium: 'S', Business: 'C', First: 'F' };
const CODE_TO_CABIN: Record<string, CabinClass> = { Y: 'Economy', S: 'Premium', C: 'Business', F: 'First' };

export function toMinor(m: OpMoney | undefined): number {
  if (!m) return 0;
  // The supplier states its decimals; when it does not, the currency's ISO 4217 exponent applies.
  if (m.DecimalPlaces === undefined) return moneyToMinor(Number(m.Amount), m.CurrencyCode);
  return roundHalfAway(Number(m.Amount) * 10 ** m.DecimalPlaces);
}

export function searchRequest(q: FlightSearchQuery, target: string, conversationId: string) {
  const ptq = [
    { Code: 'ADT', Quantity: q.adults },
    { Code: 'CHD', Quantity: q.children },
    { Code: 'INF', Quantity: q.infants },
  ].filter((p) => p.Quantity > 0);
  return {
    OriginDestinationInformations: q.legs.map((l) => ({
      DepartureDateTime: `${l.departureDate}T00:00:00`,
      OriginLocationCode: l.origin,
      DestinationLocationCode: l.destination,
    })),
    TravelPreferences: {
      MaxStopsQuantity: 'All',
      CabinPreference: CABIN_TO_CODE[q.cabinClass],
      AirTripType: q.journeyType === 'MultiCity' ? 'OpenJaw' : q.journeyType,
      ...(q.airline ? { VendorPreferenceCodes: [q.airline] } : {}),
    },
    PricingSourceType: 'All',
    IsRefundable: q.refundableOnly ?? false,
    PassengerTypeQuantities: ptq,
    RequestOptions: q.maxResults > 50 ? 'Hundred' : 'Fifty',
    // Our assumption (README): the account may price in a requested currency.
    CurrencyCode: q.currency,
    Target: target,
    ConversationId: conversationId,
  };
}

function minutesBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}Z`) - Date.parse(`${a}Z`)) / 60_000);
}

/**
 * Elapsed time of a slice. OnePoint's times are local to each airport, so first departure to last arrival
 * would count the time-zone difference; each segment's JourneyDuration plus the waits between segments
 * (arrival and next departure are local times of the same airport) is the real elapsed time.
 */
function sliceMinutes(segments: FlightSegment[]): number {
  return segments.reduce(
    (sum, seg, i) =>
      sum +
      seg.duration_minutes +
      (i > 0 ? minutesBetween((segments[i - 1] as FlightSegment).arrival_at, seg.departure_at) : 0),
    0,
  );
}

function baggage(info: string | undefined): { checked_bags: number; checked_bag_weight_kg: number | null } {
  const kg = /^(\d+)\s*KG$/i.exec(info ?? '');
  if (kg) return { checked_bags: Number(kg[1]) > 0 ? 1 : 0, checked_bag_weight_kg: Number(kg[1]) || null };
  const pc = /^(\d+)\s*PC$/i.exec(info ?? '');
  return { checked_bags: pc ? Number(pc[1]) : 0, checked_bag_weight_kg: null };
}

export function toOffer(pi: OpPricedItinerary, expiresAt: string): SupplierFlightOffer {
  const info = pi.AirItineraryPricingInfo;
  let n = 0;
  const slices: FlightSlice[] = pi.OriginDestinationOptions.map((odo) => {
    const segments: FlightSegment[] = odo.FlightSegments.map((s) => ({
      segment_id: `s${++n}`,
      marketing_carrier: s.MarketingAirlineCode,
      operating_carrier: s.OperatingAirline?.Code ?? s.MarketingAirlineCode,
      flight_number: s.FlightNumber,
      origin: s.DepartureAirportLocationCode,
      destination: s.ArrivalAirportLocationCode,
      departure_at: s.DepartureDateTime,
      arrival_at: s.ArrivalDateTime,
      duration_minutes: s.JourneyDuration,
      cabin: CODE_TO_CABIN[s.CabinClassCode ?? 'Y'] ?? 'Economy',
      booking_class: s.ResBookDesigCode,
      aircraft: s.OperatingAirline?.Equipment ?? null,
    }));
    const first = segments[0] as FlightSegment;
    const last = segments.at(-1) as FlightSegment;
    return {
      origin: first.origin,
      destination: last.destination,
      departure_date: first.departure_at.slice(0, 10),
      duration_minutes: sliceMinutes(segments),
      stops: segments.length - 1,
      segments,
    };
  });
  const qty = (code: string) =>
    info.PTC_FareBreakdowns.find((p) => p.PassengerTypeQuantity.Code === code)?.PassengerTypeQuantity
      .Quantity ?? 0;
  const total = info.ItinTotalFare;
  const currency = total.TotalFare.CurrencyCode as Currency;
  return {
    supplier: 'mystifly',
    supplier_ref: { fare_source_code: info.FareSourceCode },
    slices,
    validating_carrier: pi.ValidatingAirlineCode,
    cabin: slices[0]?.segments[0]?.cabin ?? 'Economy',
    fare_brand: info.FareFamily ?? null,
    refundable: info.IsRefundable === 'Yes',
    changeable: info.IsChangeable === 'Yes',
    baggage: { cabin_bags: 1, ...baggage(info.PTC_FareBreakdowns[0]?.BaggageInfo?.[0]) },
    price: {
      currency,
      base_minor: toMinor(total.BaseFare),
      taxes_minor: toMinor(total.TotalTax),
      markup_minor: 0,
      total_minor: toMinor(total.TotalFare),
    },
    passengers: { adults: qty('ADT'), children: qty('CHD'), infants: qty('INF') },
    lcc: info.FareType === 'WebFare',
    expires_at: expiresAt,
    // A consolidator tickets with passport data unless the fare says otherwise (IsPassportMandatory).
    booking_requirements: requirementsFor(
      { adults: qty('ADT'), children: qty('CHD'), infants: qty('INF') },
      {
        identity_document: pi.IsPassportMandatory !== false,
        document_types: ['passport', 'id_card', 'visa'],
      },
    ),
  };
}

export function fareSourceCode(offer: SupplierFlightOffer): string {
  const ref = offer.supplier_ref as { fare_source_code?: unknown } | null;
  if (typeof ref?.fare_source_code !== 'string')
    throw new TypeError('offer carries no Mystifly FareSourceCode');
  return ref.fare_source_code;
}

function title(p: PassengerInput): string {
  if (p.title) return p.title.replace(/\.$/, '');
  if (p.type === 'ADT') return p.gender === 'F' ? 'Ms' : 'Mr';
  return p.gender === 'F' ? 'Miss' : 'Mstr';
}

export function airTraveler(p: PassengerInput) {
  return {
    PassengerType: p.type,
    Gender: p.gender === 'F' ? 'F' : 'M',
    PassengerName: {
      PassengerTitle: title(p),
      PassengerFirstName: p.first_name,
      PassengerLastName: p.last_name,
    },
    DateOfBirth: `${p.date_of_birth}T00:00:00`,
    ...(p.document
      ? {
          Passport: {
            PassportNumber: p.document.number,
            ExpiryDate: `${p.document.expiry}T00:00:00`,
            Country: p.document.issuing_country,
          },
        }
      : {}),
    ...(p.nationality ? { PassengerNationality: p.nationality } : {}),
  };
}

/** Raw status codes (see the emulator README): 1 Placed, 3 TktInProcess, 4 Cancelled, 6 Ticketed, 7 Voided, 8 Refunded. */
const ORDER_STATUS: Record<string, SupplierOrderStatus> = {
  '1': 'on_hold',
  '3': 'confirmed',
  '4': 'cancelled',
  '6': 'ticketed',
  '7': 'cancelled',
  '8': 'cancelled',
};
export const ISSUED_CODES = new Set(['6', '7', '8']);

export function toOrder(t: OpTravelItinerary): SupplierFlightOrder {
  const total = t.ItineraryInfo.ItineraryPricing.TotalFare;
  return {
    supplier: 'mystifly',
    order_ref: t.MFRef,
    pnr: t.ItineraryInfo.ReservationItems[0]?.AirlinePNR ?? '',
    status: ORDER_STATUS[t.Status] ?? 'pending',
    ticketing_deadline: t.Status === '1' ? t.TktTimeLimit : null,
    total: { currency: total.CurrencyCode as Currency, amount_minor: toMinor(total) },
    raw: t,
  };
}

export function toTickets(t: OpTravelItinerary): TicketDocument[] {
  if (!ISSUED_CODES.has(t.Status)) return [];
  const items = t.ItineraryInfo.ReservationItems;
  const tk = t.ItineraryInfo.TicketingInfo ?? {};
  const ticketed = t.Status === '6';
  return t.ItineraryInfo.CustomerInfos.flatMap((c, i) => {
    const first = c.ETickets[0];
    if (!first) return [];
    const n = c.Customer.PaxName;
    return [
      {
        ticket_number: first.ETicketNumber,
        passenger_id: String(i + 1),
        passenger_name: `${n.PassengerLastName}/${n.PassengerFirstName} ${n.PassengerTitle}`
          .trim()
          .toUpperCase(),
        issuing_iata_number: tk.IssuingIATA ?? '',
        fare_calculation: tk.FareCalculation ?? '',
        endorsements: tk.Endorsements ?? '',
        form_of_payment: tk.FormOfPayment ?? '',
        issued_at: t.TicketIssuedOn ?? '',
        allow_void: ticketed,
        allow_refund: ticketed && t.IsRefundable === 'Yes',
        allow_reissue: ticketed && t.IsChangeable === 'Yes',
        coupons: c.ETickets.map((e, k) => {
          const item = items.find((it) => it.ItemRPH === e.ItemRPH);
          return {
            coupon_number: k + 1,
            segment_id: `s${e.ItemRPH}`,
            origin: item?.DepartureAirportLocationCode ?? '',
            destination: item?.ArrivalAirportLocationCode ?? '',
            flight: item ? `${item.MarketingAirlineCode}${item.FlightNumber}` : '',
            status: (e.CouponStatus as CouponStatus | undefined) ?? 'OPEN',
          };
        }),
      },
    ];
  });
}

export function toFareRules(
  rules: { RuleDetails: { Category: string; Rules: string }[]; CityPair?: string }[],
): FareRule[] {
  return rules.flatMap((r) =>
    r.RuleDetails.map((d) => ({
      category: d.Category,
      title: r.CityPair ? `${d.Category} ${r.CityPair}` : d.Category,
      text: d.Rules,
    })),
  );
}

const PTR_ACTION: Record<string, TicketAction> = {
  VoidQuote: 'void',
  Void: 'void',
  RefundQuote: 'refund',
  Refund: 'refund',
  ReIssueQuote: 'reissue',
};

export function toServicing(p: OpPtr): ServicingRequest {
  const type = PTR_ACTION[p.PTRType] ?? 'refund';
  // A reissue quote is what the change costs; void and refund quotes are what comes back.
  const refund = type === 'reissue' ? p.Quote?.TotalFeeAmount : p.Quote?.TotalRefundAmount;
  return {
    request_id: p.PTRId,
    type,
    state: p.PTRStatus as ServicingState,
    created_at: p.CreatedOn,
    updated_at: p.ModifiedOn,
    ...(refund
      ? { quote: { currency: refund.CurrencyCode as Currency, amount_minor: toMinor(refund) } }
      : {}),
  };
}
