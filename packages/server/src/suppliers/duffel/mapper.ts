import type { Offer, Order, OrderCancellation, OrderSliceSegment } from '@duffel/api/types';
import { toMinor as moneyToMinor, toAmountText } from '../../internal/money.ts';
import { CURRENCIES, type Currency, SupplierError } from '../ports/errors.ts';
import type {
  BagOption,
  CabinClass,
  CouponStatus,
  FareRule,
  FlightSearchQuery,
  FlightSegment,
  FlightSlice,
  PassengerType,
  SupplierFlightOffer,
  SupplierFlightOrder,
  TicketDocument,
} from '../ports/flight.ts';
import { requirementsFor } from '../requirements.ts';
import { ourPassengerId } from './passengers.ts';

/** Pure mapping between Duffel's wire shapes and our ports. */

/** Carriers whose Duffel content is low-cost (no IATA ticket); Duffel itself does not flag it. */
export const LCC_CARRIERS = new Set(['U2', 'FR', 'W6', 'VY', 'NK', 'F9', 'G9', 'FZ', 'AK', 'TR']);

const CABIN_TO_DUFFEL: Record<CabinClass, string> = {
  Economy: 'economy',
  Premium: 'premium_economy',
  Business: 'business',
  First: 'first',
};
const CABIN_FROM_DUFFEL: Record<string, CabinClass> = {
  economy: 'Economy',
  premium_economy: 'Premium',
  business: 'Business',
  first: 'First',
};

/** What the adapter needs later to price or book an offer (opaque to everyone else). */
export interface DuffelOfferRef {
  offer_id: string;
  total_amount: string;
  currency: string;
  /** Offer passenger ids with our types, in order: adults, children, infants. */
  passengers: { id: string; type: PassengerType }[];
  /** Duffel segment ids in our s1..sN order. */
  segment_ids: string[];
}

export function toMinor(amount: string | null | undefined, currency: string): number {
  const n = Number(amount ?? 0);
  return n === 0 ? 0 : moneyToMinor(n, currency);
}

export function toAmount(minor: number, currency: string): string {
  return toAmountText(minor, currency);
}

export function asCurrency(c: string | null | undefined): Currency {
  if (c && (CURRENCIES as readonly string[]).includes(c)) return c as Currency;
  throw new SupplierError('duffel', 'invalid_request', `Duffel priced in unsupported currency ${c}`);
}

export function minutes(iso: string | null | undefined): number {
  const m = /^P(?:(\d+)D)?T?(?:(\d+)H)?(?:(\d+)M)?/.exec(iso ?? '');
  if (!m) return 0;
  return Number(m[1] ?? 0) * 1440 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0);
}

export function offerRequestBody(q: FlightSearchQuery) {
  const passengers = [
    ...Array.from({ length: q.adults }, () => ({ type: 'adult' as const })),
    ...Array.from({ length: q.children }, (_, i) => ({ age: q.childAges[i] ?? 8 })),
    ...Array.from({ length: q.infants }, () => ({ age: 1 })),
  ];
  return {
    slices: q.legs.map((l) => ({
      origin: l.origin,
      destination: l.destination,
      departure_date: l.departureDate,
      arrival_time: null,
      departure_time: null,
    })),
    passengers,
    cabin_class: CABIN_TO_DUFFEL[q.cabinClass] as 'economy',
    max_connections: 1 as const,
    return_offers: true as const,
  };
}

function passengerTypeOf(p: { type: string | null; age: number | null }): PassengerType {
  if (p.type === 'adult') return 'ADT';
  return (p.age ?? 18) < 2 ? 'INF' : 'CHD';
}

/** The flight of an offer's or an order's segment: carriers, number, route, local times, aircraft. */
export function flightOf(g: Offer['slices'][number]['segments'][number] | OrderSliceSegment) {
  return {
    marketing_carrier: g.marketing_carrier.iata_code ?? '',
    operating_carrier: g.operating_carrier.iata_code ?? g.marketing_carrier.iata_code ?? '',
    flight_number: g.marketing_carrier_flight_number,
    origin: g.origin.iata_code ?? '',
    destination: g.destination.iata_code ?? '',
    departure_at: g.departing_at.slice(0, 19),
    arrival_at: g.arriving_at.slice(0, 19),
    duration_minutes: minutes(g.duration),
    aircraft: g.aircraft?.name ?? null,
  };
}

export const cabinOf = (c: string | null | undefined): CabinClass =>
  CABIN_FROM_DUFFEL[c ?? 'economy'] ?? 'Economy';

export function mapOffer(o: Offer): SupplierFlightOffer {
  const currency = asCurrency(o.total_currency);
  let n = 0;
  const segmentIds: string[] = [];
  const slices: FlightSlice[] = o.slices.map((s) => {
    const segments: FlightSegment[] = s.segments.map((g) => {
      n += 1;
      segmentIds.push(g.id);
      const pax = g.passengers[0];
      return {
        segment_id: `s${n}`,
        ...flightOf(g),
        cabin: cabinOf(pax?.cabin_class),
        booking_class: pax?.fare_basis_code?.slice(0, 1) ?? '',
      };
    });
    return {
      origin: s.origin.iata_code ?? '',
      destination: s.destination.iata_code ?? '',
      departure_date: segments[0]?.departure_at.slice(0, 10) ?? '',
      duration_minutes: minutes(s.duration),
      stops: Math.max(0, segments.length - 1),
      segments,
    };
  });
  const bags = o.slices[0]?.segments[0]?.passengers[0]?.baggages ?? [];
  const total = toMinor(o.total_amount, currency);
  const taxes = toMinor(o.tax_amount, currency);
  const passengers = o.passengers.map((p) => ({ id: p.id, type: passengerTypeOf(p) }));
  const count = (t: PassengerType): number => passengers.filter((p) => p.type === t).length;
  const ref: DuffelOfferRef = {
    offer_id: o.id,
    total_amount: o.total_amount,
    currency: o.total_currency,
    passengers,
    segment_ids: segmentIds,
  };
  return {
    supplier: 'duffel',
    supplier_ref: ref,
    slices,
    validating_carrier: o.owner.iata_code ?? '',
    cabin: slices[0]?.segments[0]?.cabin ?? 'Economy',
    fare_brand: o.slices[0]?.fare_brand_name ?? null,
    refundable: o.conditions.refund_before_departure?.allowed ?? false,
    changeable: o.conditions.change_before_departure?.allowed ?? false,
    baggage: {
      cabin_bags: bags.filter((b) => b.type === 'carry_on').reduce((a, b) => a + b.quantity, 0),
      checked_bags: bags.filter((b) => b.type === 'checked').reduce((a, b) => a + b.quantity, 0),
      checked_bag_weight_kg: null,
    },
    price: { currency, base_minor: total - taxes, taxes_minor: taxes, markup_minor: 0, total_minor: total },
    passengers: { adults: count('ADT'), children: count('CHD'), infants: count('INF') },
    lcc: LCC_CARRIERS.has(o.owner.iata_code ?? ''),
    expires_at: o.expires_at,
    booking_requirements: requirementsFor(
      { adults: count('ADT'), children: count('CHD'), infants: count('INF') },
      {
        identity_document: o.passenger_identity_documents_required === true,
        // The adapter sends passports only (passengers.ts); Duffel lists what the airline takes.
        document_types: (o.supported_passenger_identity_document_types ?? ['passport']).filter(
          (t) => t === 'passport',
        ),
      },
    ),
  };
}

export function offerRef(offer: SupplierFlightOffer): DuffelOfferRef {
  const ref = offer.supplier_ref as DuffelOfferRef | undefined;
  if (!ref?.offer_id) throw new SupplierError('duffel', 'invalid_request', 'Not a Duffel offer');
  return ref;
}

export function mapBagOptions(o: Offer, ref: DuffelOfferRef): BagOption[] {
  const currency = asCurrency(o.total_currency);
  return o.available_services
    .filter((s) => s.type === 'baggage')
    .map((s) => ({
      bag_option_id: s.id,
      segment_ids: s.segment_ids.map((id) => `s${ref.segment_ids.indexOf(id) + 1}`),
      passenger_type: ref.passengers.find((p) => s.passenger_ids.includes(p.id))?.type ?? null,
      weight_kg: s.type === 'baggage' ? (s.metadata.maximum_weight_kg ?? null) : null,
      quantity_max: s.maximum_quantity,
      price: {
        currency: asCurrency(s.total_currency ?? currency),
        amount_minor: toMinor(s.total_amount, currency),
      },
    }));
}

export function mapFareRules(o: Pick<Offer, 'conditions' | 'total_currency'>): FareRule[] {
  const r = o.conditions.refund_before_departure;
  const c = o.conditions.change_before_departure;
  const penalty = (
    x: { penalty_amount: string | null; penalty_currency: string | null } | null | undefined,
  ) =>
    x?.penalty_amount ? ` with a penalty of ${x.penalty_amount} ${x.penalty_currency}` : ' free of charge';
  return [
    {
      category: 'REFUND',
      title: 'Refund before departure',
      text: r?.allowed ? `Refundable${penalty(r)}.` : 'Non-refundable.',
    },
    {
      category: 'CHANGE',
      title: 'Change before departure',
      text: c?.allowed ? `Changeable${penalty(c)}.` : 'Changes not permitted.',
    },
  ];
}

export function orderSegmentIds(order: Order): string[] {
  return order.slices.flatMap((s) => s.segments.map((g) => g.id));
}

export function mapOrder(order: Order): SupplierFlightOrder {
  const currency = asCurrency(order.total_currency);
  const ticketed = (order.documents ?? []).some((d) => d.type === 'electronic_ticket');
  const status = order.cancelled_at
    ? 'cancelled'
    : order.payment_status.awaiting_payment
      ? 'on_hold'
      : ticketed
        ? 'ticketed'
        : 'confirmed';
  return {
    supplier: 'duffel',
    order_ref: order.id,
    pnr: order.booking_reference,
    status,
    ticketing_deadline: order.payment_status.awaiting_payment
      ? (order.payment_status.payment_required_by ?? null)
      : null,
    total: { currency, amount_minor: toMinor(order.total_amount, currency) },
    raw: order,
  };
}

/** Emulator extensions on documents (see mock-server README); absent on live Duffel. */
interface DocumentExtras {
  issuing_iata_number?: string;
  fare_calculation?: string;
  issued_at?: string;
}

export function mapTickets(order: Order): TicketDocument[] {
  const segIds = orderSegmentIds(order);
  const lcc = LCC_CARRIERS.has(order.owner.iata_code ?? '');
  const refundable = order.conditions.refund_before_departure?.allowed ?? false;
  const changeable = order.conditions.change_before_departure?.allowed ?? false;
  const active = !order.cancelled_at;
  const couponStatus: CouponStatus = order.cancelled_at
    ? (order.cancellation as OrderCancellation | null | undefined)?.refund_amount === order.total_amount
      ? 'VOID'
      : 'REFUNDED'
    : 'OPEN';
  return (order.documents ?? [])
    .filter((d) => d.type === 'electronic_ticket')
    .map((d) => {
      const extra = d as typeof d & DocumentExtras;
      const pid = d.passenger_ids[0] ?? '';
      const p = order.passengers.find((x) => x.id === pid);
      return {
        ticket_number: d.unique_identifier,
        passenger_id: ourPassengerId(order, pid),
        passenger_name: p ? `${p.family_name}/${p.given_name}`.toUpperCase() : '',
        issuing_iata_number: lcc ? '' : (extra.issuing_iata_number ?? ''),
        fare_calculation: lcc ? '' : (extra.fare_calculation ?? ''),
        endorsements: '',
        form_of_payment: 'balance',
        issued_at: extra.issued_at ?? order.payment_status.paid_at ?? order.created_at,
        allow_void: active && order.available_actions.includes('cancel'),
        allow_refund: active && refundable,
        allow_reissue: active && changeable,
        // One ticket covers the whole journey: coupons are numbered across slices.
        coupons: order.slices
          .flatMap((s) => s.segments)
          .map((g, i) => ({
            coupon_number: i + 1,
            segment_id: `s${segIds.indexOf(g.id) + 1}`,
            origin: g.origin.iata_code ?? '',
            destination: g.destination.iata_code ?? '',
            flight: `${g.marketing_carrier.iata_code}${g.marketing_carrier_flight_number}`,
            status: couponStatus,
          })),
      };
    });
}
