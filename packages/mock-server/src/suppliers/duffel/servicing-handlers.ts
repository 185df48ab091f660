import { rngFor } from '../../shared/random.ts';
import { carrier } from './data.ts';
import type { makeRouter } from './http.ts';
import {
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
import { brandsFor, buildSlice, type PassengerRequest } from './offers.ts';
import { assertNotCancelled, checkPayment, getOrderOrThrow, issueDocuments } from './orders.ts';
import type { DuffelState, OrderRecord, Wire } from './state.ts';
import { CANCELLATION_QUOTE_TTL_MS, OFFER_TTL_MS, VOID_WINDOW_MS } from './triggers.ts';

/** Cancellations (quote, then confirm) and order changes (request, offers, change, confirm). */

function refundQuote(state: DuffelState, rec: OrderRecord): { amount: number; to: string } {
  const o = rec.order;
  const cur = o.total_currency as string;
  const total = minor(o.total_amount, cur);
  if (o.payment_status.awaiting_payment) return { amount: 0, to: 'awaiting_payment' };
  // Inside the void window everything comes back, whatever the fare conditions say.
  if (state.now() - rec.createdAtMs <= VOID_WINDOW_MS) return { amount: total, to: 'balance' };
  const refund = o.conditions?.refund_before_departure;
  if (!refund?.allowed) return { amount: 0, to: 'balance' };
  const services = (o.services as Wire[]).reduce((s, x) => s + minor(x.total_amount, cur), 0);
  return { amount: Math.max(0, total - services - minor(refund.penalty_amount, cur)), to: 'balance' };
}

function orderPax(order: Wire): PassengerRequest[] {
  return (order.passengers as Wire[]).map((p) => ({
    id: p.id,
    type: p.type === 'adult' ? 'adult' : p.type === 'child' ? 'child' : 'infant_without_seat',
    age: null,
  }));
}

export function servicingRoutes(state: DuffelState, r: ReturnType<typeof makeRouter>) {
  return [
    ...r.post('/air/order_cancellations', async ({ request }) => {
      const data = await readData(request);
      const rec = getOrderOrThrow(state, data.order_id);
      assertNotCancelled(rec);
      const cur = rec.order.total_currency as string;
      const q = refundQuote(state, rec);
      const now = state.now();
      const c: Wire = {
        id: state.nextId('ore'),
        order_id: rec.order.id,
        live_mode: false,
        created_at: iso(now),
        expires_at: iso(now + CANCELLATION_QUOTE_TTL_MS),
        confirmed_at: null,
        refund_amount: money(q.amount, cur),
        refund_currency: cur,
        refund_to: q.to,
        airline_credits: [],
      };
      state.cancellations.set(c.id, c);
      return dataResponse(state, c, 201);
    }),
    ...r.get('/air/order_cancellations', ({ url }) => {
      const orderId = url.searchParams.get('order_id');
      const all = [...state.cancellations.values()].filter((c) => !orderId || c.order_id === orderId);
      return paginate(state, all, url);
    }),
    ...r.get('/air/order_cancellations/:id', ({ params }) => {
      const c = state.cancellations.get(params.id as string);
      if (!c) throw notFound('order cancellation');
      return dataResponse(state, c);
    }),
    ...r.post('/air/order_cancellations/:id/actions/confirm', ({ params }) => {
      const c = state.cancellations.get(params.id as string);
      if (!c) throw notFound('order cancellation');
      if (c.confirmed_at)
        throw invalidState('already_confirmed', 'Already confirmed', 'This cancellation is confirmed');
      if (state.now() > Date.parse(c.expires_at)) {
        throw invalidState(
          'cancellation_expired',
          'Cancellation expired',
          'Request a new order cancellation',
        );
      }
      const rec = getOrderOrThrow(state, c.order_id);
      assertNotCancelled(rec);
      c.confirmed_at = iso(state.now());
      rec.order.cancelled_at = c.confirmed_at;
      rec.order.cancellation = c;
      rec.order.available_actions = [];
      return dataResponse(state, c);
    }),
    ...r.post('/air/order_change_requests', async ({ request }) => {
      const data = await readData(request);
      const rec = getOrderOrThrow(state, data.order_id);
      assertNotCancelled(rec);
      const order = rec.order;
      if (!order.conditions?.change_before_departure?.allowed) {
        throw invalidState(
          'order_change_not_allowed',
          'Change not allowed',
          'The fare conditions do not allow changes',
        );
      }
      const remove = (data.slices?.remove ?? []) as Wire[];
      const add = (data.slices?.add ?? []) as Wire[];
      if (remove.length === 0 || add.length === 0)
        throw invalid('slices', 'slices.remove and slices.add are required');
      for (const s of remove) {
        if (!(order.slices as Wire[]).some((x) => x.id === s.slice_id))
          throw invalid('slices.remove', 'Unknown slice_id');
      }
      const cur = order.total_currency as string;
      const c = carrier(rec.carrier);
      const cabin = add[0]?.cabin_class ?? 'economy';
      const brand =
        brandsFor(c, cabin).find((b) => order.slices[0]?.fare_brand_name === b.name) ??
        brandsFor(c, cabin)[0];
      const penalty = minor(order.conditions.change_before_departure.penalty_amount, cur);
      const now = state.now();
      const id = state.nextId('ocr');
      const rng = rngFor(state.seed, 'duffel-change', order.id, JSON.stringify(add));
      const offers: Wire[] = [0, 1, 2].flatMap((i) => {
        const built = add.map((s) =>
          buildSlice(rng, c, s as never, cabin, brand as never, orderPax(order), i),
        );
        // The order's airline offers only flights it operates on the new route.
        if (built.some((s) => s === undefined)) return [];
        const slices = built;
        const diff = rng.int(0, 12) * 1000;
        const change = penalty + diff;
        const o: Wire = {
          id: state.nextId('oco'),
          order_change_request_id: id,
          live_mode: false,
          created_at: iso(now),
          updated_at: iso(now),
          expires_at: iso(now + OFFER_TTL_MS),
          slices: {
            add: slices,
            remove: (order.slices as Wire[]).filter((x) => remove.some((rm) => rm.slice_id === x.id)),
          },
          change_total_amount: money(change, cur),
          change_total_currency: cur,
          penalty_total_amount: money(penalty, cur),
          penalty_total_currency: cur,
          new_total_amount: money(minor(order.total_amount, cur) + diff, cur),
          new_total_currency: cur,
          refund_to: 'balance',
          order_change_id: null,
        };
        state.changeOffers.set(o.id, o);
        return o;
      });
      const req: Wire = {
        id,
        order_id: order.id,
        live_mode: false,
        created_at: iso(now),
        updated_at: iso(now),
        slices: { add, remove },
        order_change_offers: offers,
      };
      state.changeRequests.set(id, req);
      return dataResponse(state, req, 201);
    }),
    ...r.get('/air/order_change_requests/:id', ({ params }) => {
      const req = state.changeRequests.get(params.id as string);
      if (!req) throw notFound('order change request');
      return dataResponse(state, req);
    }),
    ...r.get('/air/order_change_offers', ({ url }) => {
      const reqId = url.searchParams.get('order_change_request_id');
      const all = [...state.changeOffers.values()].filter(
        (o) => !reqId || o.order_change_request_id === reqId,
      );
      return paginate(state, all, url);
    }),
    ...r.get('/air/order_change_offers/:id', ({ params }) => {
      const o = state.changeOffers.get(params.id as string);
      if (!o) throw notFound('order change offer');
      return dataResponse(state, o);
    }),
    ...r.post('/air/order_changes', async ({ request }) => {
      const data = await readData(request);
      const offer = state.changeOffers.get(String(data.selected_order_change_offer));
      if (!offer) throw notFound('order change offer');
      if (state.now() > Date.parse(offer.expires_at)) {
        throw invalidState('offer_expired', 'Offer expired', 'The order change offer has expired');
      }
      const req = state.changeRequests.get(offer.order_change_request_id) as Wire;
      const change: Wire = {
        ...Object.fromEntries(
          Object.entries(offer).filter(([k]) => !['order_change_request_id', 'order_change_id'].includes(k)),
        ),
        id: state.nextId('oce'),
        order_id: req.order_id,
        confirmed_at: null,
        _offer: offer.id,
      };
      state.orderChanges.set(change.id, change);
      return dataResponse(state, publicChange(change), 201);
    }),
    ...r.get('/air/order_changes/:id', ({ params }) => {
      const ch = state.orderChanges.get(params.id as string);
      if (!ch) throw notFound('order change');
      return dataResponse(state, publicChange(ch));
    }),
    ...r.post('/air/order_changes/:id/actions/confirm', async ({ request, params }) => {
      const ch = state.orderChanges.get(params.id as string);
      if (!ch) throw notFound('order change');
      if (ch.confirmed_at)
        throw invalidState('already_confirmed', 'Already confirmed', 'This change is confirmed');
      const data = await readData(request);
      const cur = ch.change_total_currency as string;
      const amount = minor(ch.change_total_amount, cur);
      if (amount > 0) checkPayment(data.payment, amount, cur);
      const rec = getOrderOrThrow(state, ch.order_id);
      assertNotCancelled(rec);
      const removed = new Set((ch.slices.remove as Wire[]).map((s) => s.id));
      rec.order.slices = [
        ...(rec.order.slices as Wire[]).filter((s) => !removed.has(s.id)),
        ...ch.slices.add,
      ];
      rec.order.total_amount = ch.new_total_amount;
      ch.confirmed_at = iso(state.now());
      issueDocuments(state, rec, true);
      return dataResponse(state, publicChange(ch));
    }),
  ];
}

function publicChange(ch: Wire): Wire {
  const { _offer, ...rest } = ch;
  return rest;
}
