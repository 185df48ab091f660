import type { HttpHandler } from 'msw';
import { bagPriceMinor, offerBrand } from './data.ts';
import type { Router } from './kit.ts';
import { loadOrder, orderEnvelope, segmentsOf, travelerName } from './orders.ts';
import { segmentSeats } from './seatmap.ts';
import type { AmadeusState, CouponStatusWire, FlightOrderRecord, TicketRecord } from './state.ts';
import { REFUSED_SEAT_ROW } from './triggers.ts';
import {
  AmadeusError,
  asArray,
  asObject,
  invalid,
  json,
  missing,
  money,
  notFound,
  readJson,
  str,
  toMinor,
  type Wire,
} from './wire.ts';

/**
 * OUR EXTENSIONS (the self-service API has no ticketing or servicing): ticket issuance and documents,
 * void/refund/reissue quote+confirm, ancillary catalogue/purchase/EMD/cancel, SSR, FOID, commission,
 * remarks, queue, seat request/issue. Naming and error bodies follow Amadeus' style. See README.md.
 */

const VOID_WINDOW_MS = 24 * 3_600_000;
const price = (minor: number, currency: string): Wire => ({ amount: money(minor), currencyCode: currency });
const noAncillaries = (): AmadeusError =>
  new AmadeusError(
    400,
    38197,
    'ANCILLARY SERVICES NOT ENABLED',
    'Ancillary services are not enabled for this carrier',
  );

function dataOf(body: Wire): Wire {
  const d = asObject(body.data);
  if (!d) throw missing('/data');
  return d;
}

const CATALOGUE = [
  {
    code: 'XBAG',
    rfic: 'C',
    rfisc: '0CC',
    description: 'PREPAID CHECKED BAG 23KG',
    serviceGroup: 'BG',
    eur: 45,
  },
  {
    code: 'PDBG',
    rfic: 'C',
    rfisc: '0GO',
    description: 'PREPAID BAG UPTO 32KG',
    serviceGroup: 'BG',
    eur: 70,
  },
  {
    code: 'SEAT',
    rfic: 'A',
    rfisc: '0B5',
    description: 'PRE RESERVED SEAT ASSIGNMENT',
    serviceGroup: 'ST',
    eur: 20,
  },
  { code: 'VGML', rfic: 'G', rfisc: '0AI', description: 'VEGETARIAN MEAL', serviceGroup: 'ML', eur: 12 },
  { code: 'LOUN', rfic: 'E', rfisc: '0BX', description: 'LOUNGE ACCESS', serviceGroup: 'OT', eur: 35 },
];

function issueTickets(state: AmadeusState, order: FlightOrderRecord, fop: string): void {
  const segments = segmentsOf(order);
  const carrierPrefix = {
    BA: '125',
    EK: '176',
    QR: '157',
    LH: '220',
    AF: '057',
    KL: '074',
    TK: '235',
    EY: '607',
    SQ: '618',
  };
  const validating = String(asArray(asArray(order.data.flightOffers)[0]?.validatingAirlineCodes)[0] ?? 'BA');
  const prefix = carrierPrefix[validating as keyof typeof carrierPrefix] ?? '999';
  const issuedAt = new Date(state.now()).toISOString();
  order.tickets = asArray(order.data.travelers).map((t) => ({
    documentNumber: `${prefix}-${String(2_400_000_000 + state.next('ticket')).padStart(10, '0')}`,
    travelerId: String(t.id),
    travelerName: travelerName(t),
    issuedAt,
    formOfPayment: fop,
    fareCalculation: `${segments.map((s) => `${String(asObject(s.departure)?.iataCode)} ${String(s.carrierCode)}`).join(' ')} ${String(asObject(segments.at(-1)?.arrival)?.iataCode)} ${money(order.totalMinor)}${order.currency} END`,
    coupons: segments.map((s, i) => ({
      couponNumber: i + 1,
      segmentId: String(s.id),
      origin: String(asObject(s.departure)?.iataCode),
      destination: String(asObject(s.arrival)?.iataCode),
      flight: `${String(s.carrierCode)}${String(s.number)}`,
      status: 'OPEN' as CouponStatusWire,
    })),
  }));
  order.ticketedAt = state.now();
  order.ticketStatus = 'ISSUED';
}

function ticketWire(order: FlightOrderRecord, t: TicketRecord, voidable: boolean): Wire {
  return {
    type: 'ticket',
    documentType: 'ETICKET',
    documentNumber: t.documentNumber,
    travelerId: t.travelerId,
    travelerName: t.travelerName,
    issuingIataNumber: '91212345',
    fareCalculation: t.fareCalculation,
    endorsements: order.nonRefundable ? 'NON REFUNDABLE' : 'REFUNDABLE WITH PENALTY',
    formOfPayment: t.formOfPayment,
    issuedAt: t.issuedAt,
    allowVoid: voidable,
    allowRefund: !order.nonRefundable,
    allowReissue: offerBrand(asArray(order.data.flightOffers)[0] ?? {}).changeable,
    coupons: t.coupons,
  };
}

function setCoupons(order: FlightOrderRecord, status: CouponStatusWire): void {
  for (const t of order.tickets) for (const c of t.coupons) c.status = status;
}

function ticketAction(state: AmadeusState, order: FlightOrderRecord, action: string, confirm: boolean): Wire {
  const cur = order.currency;
  const fee = bagPriceMinor(cur) * 3;
  const out: Wire = { type: 'ticket-action', action, mode: confirm ? 'CONFIRM' : 'QUOTE' };
  const deny = (determination: string, reason: string): Wire => ({
    ...out,
    status: 'DENIED',
    permitted: false,
    determination,
    reason,
  });
  if (order.ticketStatus === 'NOT_ISSUED') return deny('not_ticketed', 'The order has no issued tickets');
  if (order.ticketStatus !== 'ISSUED')
    return deny(`already_${order.ticketStatus.toLowerCase()}`, `Tickets are ${order.ticketStatus}`);
  const ok = (refund: number, penalty: number, coupon: CouponStatusWire): Wire => ({
    ...out,
    status: confirm ? 'CONFIRMED' : 'QUOTED',
    permitted: true,
    determination: 'ok',
    refundAmount: price(refund, cur),
    penaltyAmount: price(penalty, cur),
    couponStatus: confirm ? coupon : 'OPEN',
  });
  if (action === 'VOID') {
    const expired = order.voidExpired || state.now() - (order.ticketedAt ?? 0) > VOID_WINDOW_MS;
    if (expired) return deny('void_window_expired', 'The void window (24 hours after issuance) has expired');
    if (confirm) {
      setCoupons(order, 'VOID');
      order.ticketStatus = 'VOIDED';
    }
    return ok(order.totalMinor, 0, 'VOID');
  }
  if (action === 'REFUND') {
    if (order.nonRefundable) return deny('non_refundable', 'The fare is non-refundable');
    if (confirm) {
      setCoupons(order, 'REFUNDED');
      order.ticketStatus = 'REFUNDED';
    }
    return ok(Math.max(0, order.totalMinor - fee), fee, 'REFUNDED');
  }
  if (action === 'REISSUE') {
    if (!offerBrand(asArray(order.data.flightOffers)[0] ?? {}).changeable)
      return deny('not_changeable', 'The fare does not permit changes');
    if (confirm) {
      const fop = order.tickets[0]?.formOfPayment ?? 'CASH';
      issueTickets(state, order, fop);
    }
    return { ...ok(0, fee, 'OPEN'), additionalCollection: price(fee, cur) };
  }
  throw invalid('/data/action', 'action must be VOID, REFUND or REISSUE');
}

export function extensionRoutes(r: Router, state: AmadeusState): HttpHandler[] {
  const order = (id: string | undefined): FlightOrderRecord => loadOrder(state, id ?? '');
  const ancillaryOrder = (id: string | undefined): FlightOrderRecord => {
    const o = order(id);
    if (!state.knobs.ancillariesEnabled || !o.ancillariesEnabled) throw noAncillaries();
    return o;
  };
  const P = '/v1/booking/flight-orders/:id';
  return [
    r.post(`${P}/issuance`, async ({ request, params }) => {
      const o = order(params.id);
      const d = dataOf(await readJson(request));
      if (o.ticketStatus === 'ISSUED')
        throw new AmadeusError(400, 9322, 'ALREADY TICKETED', 'Tickets are already issued');
      const pay = asObject(d.payment);
      if (pay && toMinor(pay.amount) !== o.totalMinor)
        throw new AmadeusError(
          400,
          37200,
          'PRICE DISCREPANCY',
          `Order total is ${money(o.totalMinor)} ${o.currency}`,
          { pointer: '/data/payment/amount' },
        );
      const fop = str(asObject(asObject(asArray(d.formOfPayments)[0])?.other)?.method) ?? 'CASH';
      issueTickets(state, o, fop);
      return json(orderEnvelope(o));
    }),
    r.get(`${P}/tickets`, ({ params }) => {
      const o = order(params.id);
      const voidable = !o.voidExpired && state.now() - (o.ticketedAt ?? 0) <= VOID_WINDOW_MS;
      return json({
        meta: { count: o.tickets.length, ticketingStatus: o.ticketStatus },
        data: o.tickets.map((t) => ticketWire(o, t, voidable)),
      });
    }),
    r.post(`${P}/ticket-actions`, async ({ request, params }) => {
      const o = order(params.id);
      const d = dataOf(await readJson(request));
      const action = str(d.action);
      if (!action) throw missing('/data/action');
      return json({ data: ticketAction(state, o, action.toUpperCase(), str(d.mode) === 'CONFIRM') });
    }),
    r.get(`${P}/services`, ({ params, url }) => {
      const o = ancillaryOrder(params.id);
      const group = url.searchParams.get('serviceGroup') ?? '';
      const segs = segmentsOf(o).map((s) => String(s.id));
      const rate = bagPriceMinor(o.currency) / 25;
      const data = CATALOGUE.filter((c) => !group || c.serviceGroup === group).map((c) => ({
        type: 'service',
        code: c.code,
        rfic: c.rfic,
        rfisc: c.rfisc,
        description: c.description,
        serviceGroup: c.serviceGroup,
        bookingMethod: '01',
        provider: String(asArray(asArray(o.data.flightOffers)[0]?.validatingAirlineCodes)[0] ?? 'YY'),
        segmentIds: segs,
        price: price(Math.round(c.eur * rate), o.currency),
      }));
      return json({ meta: { count: data.length }, data });
    }),
    r.post(`${P}/services`, async ({ request, params }) => {
      const o = ancillaryOrder(params.id);
      const items = asArray((await readJson(request)).data);
      if (items.length === 0) throw missing('/data');
      const rate = bagPriceMinor(o.currency) / 25;
      const created = items.map((it, i) => {
        const c = CATALOGUE.find((x) => x.code === it.code && x.rfisc === it.rfisc);
        if (!c)
          throw invalid(`/data[${i}]/code`, `Service ${String(it.code)}/${String(it.rfisc)} is not offered`);
        const rec = {
          tsmReference: `TSM${String(state.next('tsm')).padStart(6, '0')}`,
          code: c.code,
          travelerIds: (it.travelerIds as string[] | undefined) ?? [],
          segmentIds: (it.segmentIds as string[] | undefined) ?? [],
          priceMinor: Math.round(c.eur * rate),
          emdNumber: null,
          status: 'ACTIVE' as const,
        };
        o.ancillaries.push(rec);
        return {
          type: 'service-element',
          tsmReference: rec.tsmReference,
          code: rec.code,
          travelerIds: rec.travelerIds,
          segmentIds: rec.segmentIds,
          price: price(rec.priceMinor, o.currency),
          status: 'HK',
        };
      });
      return json({ data: created }, 201);
    }),
    // Read-back of what the order holds (reconciliation after a lost seat, service or EMD answer).
    r.get(`${P}/service-elements`, ({ params }) => {
      const o = order(params.id);
      return json({
        data: {
          seats: o.seats.map((x) => ({
            segmentId: x.segmentId,
            seatNumber: x.seatNumber,
            travelerId: x.travelerId,
            status: x.status,
            ...(x.priceMinor ? { price: price(x.priceMinor, o.currency) } : {}),
            tsmReference: x.tsmReference ?? null,
            documentNumber: x.emdNumber ?? null,
          })),
          services: o.ancillaries.map((a) => ({
            tsmReference: a.tsmReference,
            code: a.code,
            travelerIds: a.travelerIds,
            segmentIds: a.segmentIds,
            price: price(a.priceMinor, o.currency),
            status: a.status,
            documentNumber: a.emdNumber,
          })),
        },
      });
    }),
    r.post(`${P}/emds`, async ({ request, params }) => {
      const o = ancillaryOrder(params.id);
      const refs = asObject((await readJson(request)).data)?.tsmReferences;
      if (!Array.isArray(refs) || refs.length === 0) throw missing('/data/tsmReferences');
      const data = refs.map((ref, i) => {
        const a = o.ancillaries.find((x) => x.tsmReference === ref && x.status === 'ACTIVE');
        if (!a) throw invalid(`/data/tsmReferences[${i}]`, `Unknown TSM ${String(ref)}`);
        a.emdNumber ??= `${String(9_000_000_000 + state.next('emd'))}`;
        return {
          type: 'emd',
          documentType: 'EMD',
          tsmReference: a.tsmReference,
          documentNumber: a.emdNumber,
        };
      });
      return json({ data }, 201);
    }),
    r.post(`${P}/services/:tsm/cancellation`, ({ params }) => {
      const o = ancillaryOrder(params.id);
      const a = o.ancillaries.find((x) => x.tsmReference === params.tsm && x.status === 'ACTIVE');
      if (!a) throw notFound('tsmReference', 'Service element not found');
      a.status = a.emdNumber ? 'VOIDED' : 'REMOVED';
      return json({
        data: {
          type: 'service-cancellation',
          tsmReference: a.tsmReference,
          documentNumber: a.emdNumber,
          outcome: a.status,
        },
      });
    }),
    r.post(`${P}/ssrs`, async ({ request, params }) => {
      const o = order(params.id);
      const d = dataOf(await readJson(request));
      const code = str(d.code);
      if (!code || !/^[A-Z]{4}$/.test(code)) throw invalid('/data/code', 'SSR code must be 4 letters');
      const ssr = {
        type: 'ssr',
        id: String(o.ssrs.length + 1),
        code,
        text: str(d.text) ?? '',
        segmentId: d.segmentId,
        travelerId: d.travelerId,
        status: 'HK',
      };
      o.ssrs.push(ssr);
      return json({ data: ssr }, 201);
    }),
    r.post(`${P}/foid`, async ({ request, params }) => {
      const o = order(params.id);
      const d = dataOf(await readJson(request));
      if (!str(d.number)) throw missing('/data/number');
      o.ssrs.push({
        type: 'ssr',
        id: String(o.ssrs.length + 1),
        code: 'FOID',
        text: `${str(d.identificationType) ?? 'PP'}${String(d.number)}`,
        status: 'HK',
      });
      return json(orderEnvelope(o));
    }),
    r.post(`${P}/commissions`, async ({ request, params }) => {
      const o = order(params.id);
      const d = dataOf(await readJson(request));
      if (d.amount === undefined && d.percentage === undefined) throw missing('/data/percentage');
      o.data.commissions = [
        {
          controls: [d.commissionType ?? 'MANUAL'],
          values: [{ commissionType: 'NEW', amount: d.amount, percentage: d.percentage }],
        },
      ];
      return json(orderEnvelope(o));
    }),
    r.post(`${P}/remarks`, async ({ request, params }) => {
      const o = order(params.id);
      const general = asArray(dataOf(await readJson(request)).general);
      if (general.length === 0) throw missing('/data/general');
      const remarks = asObject(o.data.remarks) ?? {};
      o.data.remarks = {
        ...remarks,
        general: [
          ...asArray(remarks.general),
          ...general.map((g) => ({
            subType: g.subType ?? 'GENERAL_MISCELLANEOUS',
            text: String(g.text ?? '').toUpperCase(),
          })),
        ],
      };
      return json(orderEnvelope(o));
    }),
    r.post(`${P}/queues`, async ({ request, params }) => {
      const o = order(params.id);
      const d = dataOf(await readJson(request));
      if (!str(d.officeId)) throw missing('/data/officeId');
      o.queues.push({ officeId: d.officeId, queueNumber: d.queueNumber ?? 0, category: d.category ?? 0 });
      return json(
        {
          data: {
            type: 'queue-placement',
            officeId: d.officeId,
            queueNumber: d.queueNumber ?? 0,
            status: 'QUEUED',
          },
        },
        201,
      );
    }),
    r.post(`${P}/seats`, async ({ request, params }) => {
      const o = order(params.id);
      const items = asArray((await readJson(request)).data);
      if (items.length === 0) throw missing('/data');
      const offer = asArray(o.data.flightOffers)[0] ?? {};
      const data = items.map((it) => {
        const seg = segmentsOf(o).find((s) => s.id === it.segmentId);
        const seatNumber = String(it.seatNumber ?? '');
        const rec = {
          segmentId: String(it.segmentId),
          seatNumber,
          travelerId: String(it.travelerId),
          status: 'REFUSED' as 'PENDING' | 'CONFIRMED' | 'REFUSED',
          reason: undefined as string | undefined,
          priceMinor: 0,
        };
        const taken = new Set(
          o.seats
            .filter((x) => x.segmentId === rec.segmentId && x.status !== 'REFUSED')
            .map((x) => x.seatNumber),
        );
        const cabin = String(
          asArray(asArray(offer.travelerPricings)[0]?.fareDetailsBySegment)[0]?.cabin ?? 'ECONOMY',
        );
        const seat = seg
          ? segmentSeats(state, seg, cabin, o.currency, taken).find((s) => s.number === seatNumber)
          : undefined;
        if (!seg) rec.reason = 'UNKNOWN SEGMENT';
        else if (Number.parseInt(seatNumber, 10) === REFUSED_SEAT_ROW) rec.reason = 'SEAT BLOCKED BY AIRLINE';
        else if (!seat) rec.reason = 'SEAT DOES NOT EXIST';
        else if (seat.status !== 'AVAILABLE') rec.reason = 'SEAT NOT AVAILABLE';
        else {
          rec.status = seat.priceMinor > 0 ? 'PENDING' : 'CONFIRMED';
          rec.priceMinor = seat.priceMinor;
        }
        o.seats = o.seats.filter(
          (x) =>
            !(x.segmentId === rec.segmentId && x.travelerId === rec.travelerId && rec.status !== 'REFUSED'),
        );
        o.seats.push({ ...rec, reason: rec.reason ?? '' });
        const out: Wire = {
          segmentId: rec.segmentId,
          seatNumber,
          travelerId: rec.travelerId,
          status: rec.status,
        };
        if (rec.reason) out.reason = rec.reason;
        if (rec.priceMinor) out.price = price(rec.priceMinor, o.currency);
        return out;
      });
      return json({ data });
    }),
    r.post(`${P}/seats/issuance`, async ({ request, params }) => {
      const o = order(params.id);
      const issueEmd = asObject((await readJson(request)).data)?.issueEmd === true;
      const pending = o.seats.filter((s) => s.status === 'PENDING');
      const emds: Wire[] = [];
      for (const s of pending) {
        s.status = 'CONFIRMED';
        if (issueEmd) {
          s.emdNumber = String(9_000_000_000 + state.next('emd'));
          s.tsmReference = `TSM${String(state.next('tsm')).padStart(6, '0')}`;
          emds.push({ tsmReference: s.tsmReference, documentNumber: s.emdNumber });
        }
      }
      const seats = pending.map((s) => ({
        segmentId: s.segmentId,
        seatNumber: s.seatNumber,
        travelerId: s.travelerId,
        status: s.status,
        price: price(s.priceMinor, o.currency),
      }));
      return json({ data: { seats, emds } });
    }),
  ];
}
