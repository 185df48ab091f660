import type { SeatMap as DuffelSeatMap, Order, SeatMapCabinRowSectionElementSeat } from '@duffel/api/types';
import { toMinor } from './mapper.ts';
import { duffelPassengerId } from './passengers.ts';
import {
  asCurrencySafe,
  type CabinClass,
  type SeatMap,
  type SeatMapSeat,
  type SeatRequest,
} from './seat-helpers.ts';

/** Duffel seat maps onto ours, and a seat request onto the Duffel service that buys it. */

const CABINS: Record<string, CabinClass> = {
  economy: 'Economy',
  premium_economy: 'Premium',
  business: 'Business',
  first: 'First',
};

function seatsOf(m: DuffelSeatMap): SeatMapCabinRowSectionElementSeat[] {
  return m.cabins.flatMap((c) =>
    c.rows.flatMap((r) =>
      r.sections.flatMap((s) =>
        s.elements.filter((e): e is SeatMapCabinRowSectionElementSeat => e.type === 'seat'),
      ),
    ),
  );
}

function characteristics(designator: string, disclosures: string[]): string[] {
  const letter = designator.slice(-1);
  const out: string[] = [];
  if (['A', 'K'].includes(letter) || letter === 'F') out.push('window');
  if (['C', 'D'].includes(letter)) out.push('aisle');
  if (disclosures.length > 0) out.push('exit_row');
  return out;
}

export function seatMapFor(m: DuffelSeatMap, segIds: string[]): SeatMap {
  const rows = new Map<number, SeatMapSeat[]>();
  for (const seat of seatsOf(m)) {
    const row = Number.parseInt(seat.designator, 10);
    const svc = seat.available_services[0];
    const currency = asCurrencySafe(svc?.total_currency);
    const amount = svc ? toMinor(svc.total_amount, currency) : 0;
    const entry: SeatMapSeat = {
      seat_number: seat.designator,
      available: seat.available_services.length > 0,
      chargeable: amount > 0,
      characteristics: characteristics(seat.designator, seat.disclosures),
    };
    if (svc) entry.price = { currency, amount_minor: amount };
    rows.set(row, [...(rows.get(row) ?? []), entry]);
  }
  return {
    segment_id: `s${segIds.indexOf(m.segment_id) + 1}`,
    cabin: CABINS[m.cabins[0]?.cabin_class ?? 'economy'] ?? 'Economy',
    rows: [...rows.entries()].sort((a, b) => a[0] - b[0]).map(([row, seats]) => ({ row, seats })),
  };
}

export function seatServiceFor(maps: DuffelSeatMap[], segIds: string[], order: Order, req: SeatRequest) {
  const segId = segIds[Number(req.segment_id.replace(/^s/, '')) - 1];
  const map = maps.find((m) => m.segment_id === segId);
  const pid = duffelPassengerId(order, req.passenger_id);
  if (!map || !pid) return undefined;
  const seat = seatsOf(map).find((s) => s.designator === req.seat_number);
  return seat?.available_services.find((s) => s.passenger_id === pid);
}
