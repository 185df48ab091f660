import { rngFor } from '../../shared/random.ts';
import { offerExpired, offerExpiredError } from './air-handlers.ts';
import { carrier } from './data.ts';
import type { makeRouter } from './http.ts';
import {
  ambiguousAfterCreate,
  DuffelHttpError,
  dataResponse,
  invalid,
  invalidState,
  iso,
  minor,
  money,
  notFound,
  paginate,
  readData,
} from './http.ts';
import {
  applyServices,
  assertNotCancelled,
  checkPassengers,
  checkPayment,
  getOrderOrThrow,
  issueDocuments,
  resolveServices,
  servicesTotal,
} from './orders.ts';
import { settleTriggeredChange } from './schedule-changes.ts';
import type { DuffelState, OrderRecord, Wire } from './state.ts';
import { familyNameTrigger, priceChangeDelta } from './triggers.ts';

/** Orders, payments for hold orders, and services added after booking. */

function createOrder(state: DuffelState, data: Wire): { rec: OrderRecord; trigger: string | null } {
  const type = data.type ?? 'instant';
  if (!['instant', 'hold', 'pay_later'].includes(type)) throw invalid('type', 'type must be instant or hold');
  const offers = data.selected_offers;
  if (!Array.isArray(offers) || offers.length !== 1)
    throw invalid('selected_offers', 'Select exactly one offer');
  const offerRec = state.offers.get(String(offers[0]));
  if (!offerRec) throw notFound('offer');
  if (offerExpired(state, offerRec)) throw offerExpiredError();
  const offer = offerRec.offer;
  const passengers = checkPassengers(offer, data.passengers);
  const trigger = familyNameTrigger(data.passengers);
  if (trigger === 'REJECT') {
    throw new DuffelHttpError(
      422,
      'airline_error',
      'airline_rejected',
      'Airline rejected the booking',
      'The airline was unable to confirm this booking',
    );
  }
  if (trigger === 'SOLDOUT') {
    throw invalidState(
      'offer_no_longer_available',
      'Offer no longer available',
      'The requested offer is no longer available, please select another offer',
    );
  }
  const cur = offer.total_currency as string;
  // PRICECHANGE moves the price once, so a retry at the new price books.
  const justDrifted = trigger === 'PRICECHANGE' && offerRec.driftMinor === 0;
  if (justDrifted) offerRec.driftMinor = priceChangeDelta(minor(offer.total_amount, cur));
  const hold = type !== 'instant';
  if (hold && offer.payment_requirements.requires_instant_payment) {
    throw invalidState(
      'unsupported_order_type',
      'Hold not available',
      'This offer requires instant payment and cannot be held',
    );
  }
  // Duffel: "services … should be omitted when the order's type is hold, as we do not support services
  // for hold orders yet".
  if (hold && Array.isArray(data.services) && data.services.length > 0) {
    throw invalid(
      'services',
      'services must be omitted for hold orders: hold orders do not support services',
    );
  }
  const services = resolveServices(state, offer.id, offerRec.carrier, data.services);
  const offerTotal = minor(offer.total_amount, cur) + offerRec.driftMinor;
  const expected = offerTotal + servicesTotal(services);
  if (!hold) {
    const pay = Array.isArray(data.payments) ? data.payments[0] : undefined;
    if (!pay) throw invalid('payments', 'payments is required for instant orders');
    if (offerRec.driftMinor !== 0 && minor(pay.amount, cur) === expected - offerRec.driftMinor) {
      throw invalidState(
        'price_changed',
        'Price changed',
        `The price of this offer has changed to ${money(offerTotal, cur)} ${cur}; get the offer again and retry`,
      );
    }
    checkPayment(pay, expected, cur, 'payments.0');
  } else if (justDrifted) {
    // A held order has no payment to compare; the trigger still reports the change once.
    throw invalidState(
      'price_changed',
      'Price changed',
      `The price of this offer has changed to ${money(offerTotal, cur)} ${cur}`,
    );
  }
  const now = state.now();
  const rng = rngFor(state.seed, 'duffel-pnr', offer.id, now);
  // A booking reference names one order for good: draw again while it is taken.
  const taken = new Set([...state.orders.values()].map((r) => r.order.booking_reference));
  let reference = rng.code(6, 'ABCDEFGHJKLMNPQRSTUVWXYZ');
  while (taken.has(reference)) reference = rng.code(6, 'ABCDEFGHJKLMNPQRSTUVWXYZ');
  const order: Wire = {
    id: state.nextId('ord'),
    live_mode: false,
    booking_reference: reference,
    created_at: iso(now),
    synced_at: iso(now),
    owner: offer.owner,
    content: 'managed',
    type: hold ? 'hold' : 'instant',
    slices: structuredClone(offer.slices),
    passengers,
    services: [],
    conditions: offer.conditions,
    base_amount: money(offerTotal - minor(offer.tax_amount, cur), cur),
    base_currency: cur,
    tax_amount: offer.tax_amount,
    tax_currency: cur,
    total_amount: money(offerTotal, cur),
    total_currency: cur,
    payment_status: hold
      ? {
          awaiting_payment: true,
          payment_required_by: offer.payment_requirements.payment_required_by,
          price_guarantee_expires_at: offer.payment_requirements.price_guarantee_expires_at,
          paid_at: null,
        }
      : {
          awaiting_payment: false,
          payment_required_by: null,
          price_guarantee_expires_at: null,
          paid_at: iso(now),
        },
    documents: [],
    metadata: data.metadata ?? {},
    available_actions: ['cancel', 'change', 'update'],
    airline_initiated_changes: [],
    cancellation: null,
    cancelled_at: null,
  };
  const rec: OrderRecord = { order, offerId: offer.id, carrier: offerRec.carrier, createdAtMs: now };
  if (trigger === 'SCHEDULECHANGE') rec.scheduleChangeTriggered = true;
  applyServices(state, order, services);
  if (!hold) issueDocuments(state, rec);
  state.orders.set(order.id, rec);
  return { rec, trigger };
}

function matchesFilters(order: Wire, url: URL): boolean {
  const ref = url.searchParams.get('booking_reference');
  if (ref && order.booking_reference !== ref) return false;
  const awaiting = url.searchParams.get('awaiting_payment');
  if (awaiting !== null && String(order.payment_status.awaiting_payment) !== awaiting) return false;
  const names = url.searchParams.getAll('passenger_name[]').map((n) => n.toLowerCase());
  if (names.length > 0) {
    const has = (order.passengers as Wire[]).some((p) =>
      names.some((n) => `${p.given_name} ${p.family_name}`.toLowerCase().includes(n)),
    );
    if (!has) return false;
  }
  // Emulator extension: `metadata[key]=value` filters on order metadata (see README).
  for (const [k, v] of url.searchParams) {
    const m = /^metadata\[(.+)\]$/.exec(k);
    if (m && order.metadata?.[m[1] as string] !== v) return false;
  }
  return true;
}

export function orderRoutes(state: DuffelState, r: ReturnType<typeof makeRouter>) {
  return [
    ...r.post('/air/orders', async ({ request }) => {
      const data = await readData(request);
      const { rec, trigger } = createOrder(state, data);
      const created = (): Response => dataResponse(state, rec.order, 201);
      if (trigger === 'PENDING' || trigger === 'TIMEOUT')
        return ambiguousAfterCreate(state, trigger, request, created);
      return created();
    }),
    ...r.get('/air/orders', ({ url }) => {
      const orders = [...state.orders.values()].map((r) => r.order).filter((o) => matchesFilters(o, url));
      return paginate(state, orders, url);
    }),
    ...r.get('/air/orders/:id', ({ params }) => {
      const rec = getOrderOrThrow(state, params.id);
      settleTriggeredChange(state, rec);
      return dataResponse(state, rec.order);
    }),
    ...r.get('/air/orders/:id/available_services', ({ params }) => {
      const rec = getOrderOrThrow(state, params.id);
      if (!carrier(rec.carrier).services) resolveServices(state, rec.offerId, rec.carrier, [{}]);
      const cur = rec.order.total_currency as string;
      const bags = [...state.services.values()].filter(
        (s) => s.offerId === rec.offerId && s.type === 'baggage',
      );
      return dataResponse(
        state,
        bags.map((s) => ({
          id: s.id,
          type: s.type,
          passenger_ids: s.passengerIds,
          segment_ids: s.segmentIds,
          maximum_quantity: s.maxQuantity,
          total_amount: money(s.amountMinor, cur),
          total_currency: cur,
          metadata: s.metadata,
        })),
      );
    }),
    ...r.post('/air/orders/:id/services', async ({ request, params }) => {
      const rec = getOrderOrThrow(state, params.id);
      assertNotCancelled(rec);
      // Services are paid for as they are added and documented against the tickets, so an unpaid hold
      // order takes none (as at creation); paying the order first makes it eligible.
      if (rec.order.payment_status.awaiting_payment) {
        throw invalidState(
          'order_awaiting_payment',
          'Order awaiting payment',
          'Services cannot be added to a hold order until it has been paid for',
        );
      }
      const data = await readData(request);
      if (!Array.isArray(data.add_services) || data.add_services.length === 0) {
        throw invalid('add_services', 'add_services is required');
      }
      const items = resolveServices(state, rec.offerId, rec.carrier, data.add_services);
      const cur = rec.order.total_currency as string;
      checkPayment(data.payment, servicesTotal(items), cur);
      applyServices(state, rec.order, items);
      issueDocuments(state, rec);
      return dataResponse(state, rec.order);
    }),
    ...r.post('/air/payments', async ({ request }) => {
      const data = await readData(request);
      const rec = getOrderOrThrow(state, data.order_id);
      assertNotCancelled(rec);
      const order = rec.order;
      if (!order.payment_status.awaiting_payment) {
        throw invalidState('already_paid', 'Order already paid', 'The order has already been paid for');
      }
      const deadline = order.payment_status.payment_required_by as string | null;
      if (deadline && state.now() > Date.parse(deadline)) {
        throw invalidState(
          'order_expired',
          'Order expired',
          'The payment deadline for this order has passed',
        );
      }
      const cur = order.total_currency as string;
      checkPayment(data.payment, minor(order.total_amount, cur), cur);
      const now = iso(state.now());
      order.payment_status = { ...order.payment_status, awaiting_payment: false, paid_at: now };
      issueDocuments(state, rec);
      const payment = {
        id: state.nextId('pay'),
        type: data.payment.type,
        amount: data.payment.amount,
        currency: cur,
        created_at: now,
        live_mode: false,
      };
      state.payments.set(payment.id, payment);
      return dataResponse(state, payment, 201);
    }),
  ];
}
