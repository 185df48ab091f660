import type { AmadeusState, FlightOrderRecord } from './state.ts';
import { asArray, asObject, notFound, str, type Wire } from './wire.ts';

/** Helpers over stored flight orders shared by the published routes and our extensions. */

/** Our client reference travels in a general remark `CLIENT-REF <ref>` (or the `x-client-reference` header). */
export const CLIENT_REF_REMARK = /^CLIENT-REF[\s:]+(\S+)/i;

export function clientReferenceOf(data: Wire, header: string | null): string | undefined {
  if (header) return header;
  for (const r of asArray(asObject(data.remarks)?.general)) {
    const m = CLIENT_REF_REMARK.exec(str(r.text) ?? '');
    if (m?.[1]) return m[1];
  }
  return undefined;
}

export function loadOrder(state: AmadeusState, id: string, allowCancelled = false): FlightOrderRecord {
  const order = state.orders.get(id);
  if (!order || (order.status === 'CANCELLED' && !allowCancelled))
    throw notFound('flight-orderId', 'The flight order was not found');
  return order;
}

/** The order as `GET /v1/booking/flight-orders/{id}` returns it. */
export function orderWire(order: FlightOrderRecord): Wire {
  const data: Wire = { ...order.data };
  if (order.tickets.length)
    data.tickets = order.tickets.map((t) => ({
      documentType: 'ETICKET',
      documentNumber: t.documentNumber,
      documentStatus: ticketDocStatus(order),
      travelerId: t.travelerId,
      segmentIds: t.coupons.map((c) => c.segmentId),
    }));
  return data;
}

function ticketDocStatus(order: FlightOrderRecord): string {
  if (order.ticketStatus === 'VOIDED') return 'VOID';
  if (order.ticketStatus === 'REFUNDED') return 'REFUNDED';
  return 'ISSUED';
}

export function orderEnvelope(order: FlightOrderRecord): Wire {
  return { data: orderWire(order) };
}

export function segmentsOf(order: FlightOrderRecord): Wire[] {
  const offer = asArray(order.data.flightOffers)[0];
  return asArray(offer?.itineraries).flatMap((it) => asArray(it.segments));
}

export function travelerName(t: Wire): string {
  const n = asObject(t.name) ?? {};
  return `${str(n.lastName) ?? ''}/${str(n.firstName) ?? ''}`.toUpperCase();
}
