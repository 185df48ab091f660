import type { HttpHandler } from 'msw';
import { hang } from '../../shared/faults.ts';
import { rngFor } from '../../shared/random.ts';
import { dictionariesFor, offerBrand, priceOffer } from './data.ts';
import type { Router } from './kit.ts';
import { clientReferenceOf, loadOrder, orderEnvelope, orderWire } from './orders.ts';
import { soldOut } from './routes-shopping.ts';
import { settleTriggeredChange } from './schedule-changes.ts';
import type { AmadeusState, FlightOrderRecord } from './state.ts';
import {
  hasLastName,
  offerDestinations,
  pricingDrift,
  ROUTE_TRIGGERS,
  LAST_NAME_TRIGGERS as T,
} from './triggers.ts';
import {
  AmadeusError,
  asArray,
  asObject,
  errorResponse,
  invalid,
  json,
  missing,
  money,
  readJson,
  str,
  systemError,
  toMinor,
  type Wire,
} from './wire.ts';

/** Flight Create Orders and Flight Order Management, plus our lookup by client reference. */

function validateCreate(body: Wire): Wire {
  const data = asObject(body.data);
  if (!data) throw missing('/data');
  if (data.type !== 'flight-order') throw invalid('/data/type', 'type must be flight-order');
  const offers = asArray(data.flightOffers);
  if (offers.length === 0) throw missing('/data/flightOffers');
  const travelers = asArray(data.travelers);
  if (travelers.length === 0) throw missing('/data/travelers');
  travelers.forEach((t, i) => {
    if (!str(t.id)) throw missing(`/data/travelers[${i}]/id`);
    const name = asObject(t.name);
    if (!str(name?.firstName)) throw missing(`/data/travelers[${i}]/name/firstName`);
    if (!str(name?.lastName)) throw missing(`/data/travelers[${i}]/name/lastName`);
    if (!str(t.dateOfBirth)) throw missing(`/data/travelers[${i}]/dateOfBirth`);
  });
  const ids = new Set(travelers.map((t) => String(t.id)));
  for (const tp of asArray((offers[0] as Wire).travelerPricings))
    if (!ids.has(String(tp.travelerId)))
      throw invalid('/data/travelers', `Traveler ${String(tp.travelerId)} of the flight offer is missing`);
  return data;
}

export function orderRoutes(r: Router, state: AmadeusState): HttpHandler[] {
  const seed = state.options.seed;
  return [
    r.post('/v1/booking/flight-orders', async ({ request }) => {
      const data = validateCreate(await readJson(request));
      const offer = asArray(data.flightOffers)[0] as Wire;
      if (hasLastName(data, T.REJECT))
        throw new AmadeusError(400, 34651, 'SEGMENT SELL FAILURE', 'Could not sell segment 1');
      if (hasLastName(data, T.SOLDOUT) || offerDestinations(offer).includes(ROUTE_TRIGGERS.SOLD_OUT))
        throw soldOut();
      // The GDS re-prices at booking: an offer whose price is no longer current is refused.
      const current = priceOffer(seed, offer, pricingDrift(offer, state.knobs.priceDriftPercent));
      const sent = toMinor(asObject(offer.price)?.grandTotal ?? asObject(offer.price)?.total);
      if (sent !== current.totalMinor)
        throw new AmadeusError(
          400,
          37200,
          'PRICE DISCREPANCY',
          `Current grandTotal price (${money(current.totalMinor)}) is different from request one (${money(sent)})`,
          {
            pointer: '/data/flightOffers[0]/price/grandTotal',
          },
        );
      const n = state.next('order');
      const rng = rngFor(seed, 'pnr', n, JSON.stringify(asArray(data.travelers).map((t) => t.name)));
      // A record locator names one booking for good: draw again while it is taken.
      const taken = new Set([...state.orders.values()].map((o) => o.pnr));
      let pnr = rng.code(6, 'ABCDEFGHJKLMNPQRSTUVWXYZ');
      while (taken.has(pnr)) pnr = rng.code(6, 'ABCDEFGHJKLMNPQRSTUVWXYZ');
      const created = new Date(state.now());
      const id = Buffer.from(`${pnr}|${created.toISOString().slice(0, 10)}|${n}`).toString('base64url');
      const clientReference = clientReferenceOf(data, request.headers.get('x-client-reference'));
      const queuingOfficeId = str(data.queuingOfficeId) ?? 'NCE1A0955';
      const stored: Wire = {
        type: 'flight-order',
        id,
        queuingOfficeId,
        associatedRecords: [
          {
            reference: pnr,
            creationDate: created.toISOString().slice(0, 23),
            originSystemCode: 'GDS',
            flightOfferId: str(offer.id) ?? '1',
          },
        ],
        flightOffers: [current.offer],
        travelers: data.travelers,
      };
      for (const k of ['remarks', 'ticketingAgreement', 'contacts', 'automatedProcess'] as const)
        if (data[k]) stored[k] = data[k];
      if (!stored.ticketingAgreement) stored.ticketingAgreement = { option: 'DELAY_TO_CANCEL', delay: '6D' };
      const order: FlightOrderRecord = {
        id,
        pnr,
        createdAt: state.now(),
        clientReference,
        queuingOfficeId,
        data: stored,
        currency: str(asObject(current.offer.price)?.currency) ?? 'EUR',
        totalMinor: current.totalMinor,
        status: 'ACTIVE',
        nonRefundable: hasLastName(data, T.NONREF) || !offerBrand(offer).refundable,
        ancillariesEnabled: !hasLastName(data, T.NOANCIL),
        voidExpired: hasLastName(data, T.VOIDEXP),
        tickets: [],
        ticketedAt: undefined,
        ticketStatus: 'NOT_ISSUED',
        seats: [],
        ancillaries: [],
        ssrs: [],
        queues: [],
        ...(hasLastName(data, T.SCHEDULECHANGE) ? { scheduleChangeTriggered: true } : {}),
      };
      state.orders.set(id, order);
      // Ambiguous outcomes: the order exists, but the caller cannot know it from this call.
      if (hasLastName(data, T.PENDING)) return errorResponse(systemError());
      if (hasLastName(data, T.TIMEOUT)) return hang(request);
      return json(
        { data: orderWire(order), dictionaries: { locations: dictionariesFor([current.offer]).locations } },
        201,
      );
    }),
    r.get('/v1/booking/flight-orders/:id', ({ params }) => {
      const order = loadOrder(state, params.id ?? '');
      settleTriggeredChange(order);
      return json(orderEnvelope(order));
    }),
    r.delete('/v1/booking/flight-orders/:id', ({ params }) => {
      const order = loadOrder(state, params.id ?? '');
      if (order.ticketStatus === 'ISSUED' || order.ticketStatus === 'EXCHANGED')
        throw new AmadeusError(
          400,
          9321,
          'TICKETED ORDER',
          'The order has active tickets: void or refund them first',
        );
      order.status = 'CANCELLED';
      return json(null, 204);
    }),
    // Our extension: reconciliation after an ambiguous create looks the order up by client reference.
    r.get('/v1/booking/flight-orders', ({ url }) => {
      const ref = url.searchParams.get('clientReference');
      const office = url.searchParams.get('queuingOfficeId');
      if (!ref && !office)
        throw new AmadeusError(
          400,
          32171,
          'MANDATORY DATA MISSING',
          'clientReference or queuingOfficeId is mandatory',
          { parameter: 'clientReference' },
        );
      const data = [...state.orders.values()]
        .filter(
          (o) =>
            o.status === 'ACTIVE' &&
            (!ref || o.clientReference === ref) &&
            (!office || o.queuingOfficeId === office),
        )
        .map(orderWire);
      return json({ meta: { count: data.length }, data });
    }),
  ];
}
