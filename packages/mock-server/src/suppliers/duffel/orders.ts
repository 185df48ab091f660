import { rngFor } from '../../shared/random.ts';
import { carrier } from './data.ts';
import { DuffelHttpError, invalid, invalidState, iso, minor, money } from './http.ts';
import type { DuffelState, OrderRecord, ServiceDef, Wire } from './state.ts';
import { seatRefused } from './triggers.ts';

/** Order building blocks shared by order creation, payments, services and changes. */

const GENDERS = ['m', 'f'];
const TITLES = ['mr', 'ms', 'mrs', 'miss', 'dr'];

/** Validates the passengers of a create-order call against the offer, as Duffel does. */
export function checkPassengers(offer: Wire, raw: unknown): Wire[] {
  if (!Array.isArray(raw) || raw.length === 0) throw invalid('passengers', 'passengers is required');
  const offerPax = offer.passengers as Wire[];
  for (const op of offerPax) {
    if (!raw.some((p: Wire) => p?.id === op.id)) {
      throw invalid('passengers', `Passenger ${op.id} of the offer is missing from the order`);
    }
  }
  return raw.map((p: Wire, i) => {
    const op = offerPax.find((x) => x.id === p?.id);
    if (!op) throw invalid(`passengers.${i}.id`, `Passenger ${p?.id} is not part of the offer`);
    for (const f of ['given_name', 'family_name', 'born_on', 'gender', 'title', 'email', 'phone_number']) {
      if (typeof p[f] !== 'string' || !p[f])
        throw invalid(`passengers.${i}.${f}`, `passengers[${i}].${f} is required`);
    }
    if (!GENDERS.includes(p.gender)) throw invalid(`passengers.${i}.gender`, 'gender must be m or f');
    if (!TITLES.includes(p.title))
      throw invalid(`passengers.${i}.title`, `title must be one of ${TITLES.join(', ')}`);
    if (!/^\+[1-9]\d{6,14}$/.test(p.phone_number)) {
      throw invalid(`passengers.${i}.phone_number`, 'phone_number must be in E.164 format');
    }
    if (offer.passenger_identity_documents_required && !Array.isArray(p.identity_documents)) {
      throw invalid(`passengers.${i}.identity_documents`, 'This airline requires identity documents');
    }
    const type = op.type ?? ((op.age ?? 18) < 2 ? 'infant_without_seat' : 'child');
    return {
      id: p.id,
      type,
      title: p.title,
      gender: p.gender,
      given_name: p.given_name,
      family_name: p.family_name,
      born_on: p.born_on,
      email: p.email,
      phone_number: p.phone_number,
      infant_passenger_id: p.infant_passenger_id ?? null,
      loyalty_programme_accounts: [],
      identity_documents: p.identity_documents ?? [],
    };
  });
}

/** Resolves `[{id, quantity}]` against services sold for `offerId`; refuses stale seats. */
export function resolveServices(state: DuffelState, offerId: string, carrierCode: string, raw: unknown) {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) throw invalid('services', 'services must be a list');
  if (raw.length > 0 && !carrier(carrierCode).services) {
    throw new DuffelHttpError(
      422,
      'invalid_request_error',
      'unsupported_action',
      'Services not available',
      'This airline does not sell ancillary services through Duffel',
    );
  }
  return raw.map((s: Wire, i) => {
    const def = state.services.get(s?.id);
    if (!def || def.offerId !== offerId)
      throw invalid(`services.${i}.id`, `Service ${s?.id} is not available`);
    const quantity = Number(s.quantity ?? 1);
    if (!Number.isInteger(quantity) || quantity < 1 || quantity > def.maxQuantity) {
      throw invalid(`services.${i}.quantity`, `quantity must be between 1 and ${def.maxQuantity}`);
    }
    if (def.type === 'seat') {
      const seg = def.segmentIds[0] as string;
      const designator = def.metadata.designator as string;
      if (seatRefused(designator) || state.takenSeats.get(seg)?.has(designator)) {
        throw invalidState(
          'seat_no_longer_available',
          'Seat no longer available',
          `Seat ${designator} is no longer available`,
        );
      }
    }
    return { def, quantity };
  });
}

export function servicesTotal(items: { def: ServiceDef; quantity: number }[]): number {
  return items.reduce((sum, s) => sum + s.def.amountMinor * s.quantity, 0);
}

/** Adds services to an order: money, `services`, seats on segment passengers, seats taken. */
export function applyServices(
  state: DuffelState,
  order: Wire,
  items: { def: ServiceDef; quantity: number }[],
): void {
  const cur = order.total_currency as string;
  for (const { def, quantity } of items) {
    order.services.push({
      id: state.nextId('ser'),
      type: def.type,
      passenger_ids: def.passengerIds,
      segment_ids: def.segmentIds,
      quantity,
      total_amount: money(def.amountMinor * quantity, cur),
      total_currency: cur,
      metadata: def.metadata,
    });
    if (def.type === 'seat') {
      const seg = def.segmentIds[0] as string;
      const taken = state.takenSeats.get(seg) ?? new Set<string>();
      taken.add(def.metadata.designator as string);
      state.takenSeats.set(seg, taken);
      for (const slice of order.slices as Wire[]) {
        for (const s of slice.segments as Wire[]) {
          if (s.id !== seg) continue;
          for (const sp of s.passengers as Wire[]) {
            if (def.passengerIds.includes(sp.passenger_id)) sp.seat = def.metadata;
          }
        }
      }
    }
  }
  const total = minor(order.total_amount, cur) + servicesTotal(items);
  order.total_amount = money(total, cur);
}

/**
 * Tickets (and EMDs for paid services) as Duffel lists them once an order is paid. Documents already
 * issued keep their numbers: a service added later gets its EMD, the tickets stay as they are. An
 * exchange (`reissue`) replaces the tickets with new ones.
 */
export function issueDocuments(state: DuffelState, rec: OrderRecord, reissue = false): void {
  const order = rec.order;
  const c = carrier(rec.carrier);
  const existing: Wire[] = (order.documents ?? []).filter(
    (d: Wire) => !reissue || d.type !== 'electronic_ticket',
  );
  // The itinerary is part of the seed so that an exchange (new slices) draws new ticket numbers.
  const itinerary = (order.slices as Wire[]).map((sl) => sl.id).join(',');
  const rng = rngFor(state.seed, 'duffel-tickets', order.id, itinerary, existing.length, state.now());
  const issuedAt = iso(state.now());
  const digits = (): string => String(rng.int(1_000_000_000, 9_999_999_999));
  const fareCalc = c.lcc
    ? ''
    : `${(order.slices as Wire[]).map((s) => `${s.origin.iata_code} ${c.iata} ${s.destination.iata_code}`).join(' ')} ${order.base_amount}${order.base_currency} END`;
  const ticketed = new Set(
    existing.filter((d) => d.type === 'electronic_ticket').flatMap((d) => d.passenger_ids as string[]),
  );
  const docs: Wire[] = (order.passengers as Wire[])
    .filter((p) => !ticketed.has(p.id))
    .map((p) => ({
      type: 'electronic_ticket',
      unique_identifier: c.lcc
        ? `${order.booking_reference}${rng.code(2, '0123456789')}`
        : `${c.ticketPrefix}${digits()}`,
      passenger_ids: [p.id],
      // Emulator extensions (see README): what an IATA ticket carries and low-cost content leaves empty.
      issuing_iata_number: c.lcc ? '' : '91234567',
      fare_calculation: fareCalc,
      issued_at: issuedAt,
    }));
  if (!c.lcc) {
    const documented = new Set(existing.map((d) => d.service_id).filter(Boolean));
    for (const s of order.services as Wire[]) {
      if (Number(s.total_amount) === 0 || documented.has(s.id)) continue;
      docs.push({
        type: 'electronic_miscellaneous_document_associated',
        unique_identifier: `${c.ticketPrefix}${digits()}`,
        passenger_ids: s.passenger_ids,
        service_id: s.id,
        issuing_iata_number: '91234567',
        fare_calculation: '',
        issued_at: issuedAt,
      });
    }
  }
  order.documents = [...existing, ...docs];
}

export function getOrderOrThrow(state: DuffelState, id: unknown): OrderRecord {
  const rec = state.orders.get(String(id));
  if (!rec)
    throw new DuffelHttpError(
      404,
      'invalid_request_error',
      'not_found',
      'Not found',
      'The order was not found',
    );
  return rec;
}

export function assertNotCancelled(rec: OrderRecord): void {
  if (rec.order.cancelled_at) {
    throw invalidState(
      'already_cancelled',
      'Order already cancelled',
      'The order has already been cancelled',
    );
  }
}

export function checkPayment(raw: unknown, expectedMinor: number, currency: string, field = 'payment'): void {
  const p = raw as Wire | undefined;
  if (!p || typeof p !== 'object') throw invalid(field, `${field} is required`);
  if (!['balance', 'arc_bsp_cash'].includes(p.type))
    throw invalid(`${field}.type`, 'payment type must be balance');
  if (p.currency !== currency) throw invalid(`${field}.currency`, `currency must be ${currency}`);
  if (minor(p.amount, currency) !== expectedMinor) {
    throw invalid(`${field}.amount`, `amount must be ${money(expectedMinor, currency)} ${currency}`);
  }
}
