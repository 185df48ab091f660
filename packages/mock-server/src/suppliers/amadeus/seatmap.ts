import { rngFor } from '../../shared/random.ts';
import { EUR_RATE } from './reference.ts';
import type { AmadeusState } from './state.ts';
import { REFUSED_SEAT_ROW } from './triggers.ts';
import { asArray, asObject, money, str, type Wire } from './wire.ts';

/** Deterministic seat maps per segment: layout from the cabin, availability and price from the seed. */

const LAYOUT: Record<string, { first: number; last: number; letters: string[] }> = {
  FIRST: { first: 1, last: 3, letters: ['A', 'D', 'K'] },
  BUSINESS: { first: 1, last: 8, letters: ['A', 'C', 'D', 'F'] },
  PREMIUM_ECONOMY: { first: 10, last: 14, letters: ['A', 'C', 'D', 'E', 'F'] },
  ECONOMY: { first: 20, last: 44, letters: ['A', 'B', 'C', 'D', 'E', 'F'] },
};

function characteristics(letter: string, letters: string[], row: number, first: number): string[] {
  const out: string[] = [];
  const i = letters.indexOf(letter);
  if (i === 0 || i === letters.length - 1) out.push('W');
  else if (letters.length > 4 && (i === 2 || i === 3)) out.push('A');
  else out.push('9');
  if (row === first) out.push('K');
  return out;
}

export interface SeatInfo {
  number: string;
  status: 'AVAILABLE' | 'BLOCKED' | 'OCCUPIED';
  priceMinor: number;
  characteristics: string[];
}

/** Every seat of one segment with its availability and price, before travelers are attached. */
export function segmentSeats(
  state: AmadeusState,
  segment: Wire,
  cabin: string,
  currency: string,
  taken: Set<string>,
): SeatInfo[] {
  const layout = LAYOUT[cabin] ?? (LAYOUT.ECONOMY as (typeof LAYOUT)[string]);
  const key = `${segment.carrierCode}${segment.number}@${String(asObject(segment.departure)?.at ?? '')}`;
  const rate = EUR_RATE[currency] ?? 1;
  const seats: SeatInfo[] = [];
  for (let row = layout.first; row <= layout.last; row++) {
    for (const letter of layout.letters) {
      const number = `${row}${letter}`;
      const rng = rngFor(state.options.seed, 'seat', key, number);
      const chars = characteristics(letter, layout.letters, row, layout.first);
      let status: SeatInfo['status'] = rng.bool(0.72) ? 'AVAILABLE' : 'OCCUPIED';
      if (row === REFUSED_SEAT_ROW) status = 'BLOCKED';
      if (taken.has(number)) status = 'OCCUPIED';
      // Cabins above economy include seat selection; in economy window/aisle and front rows are paid.
      const paid = cabin === 'ECONOMY' && (chars.includes('W') || chars.includes('A') || row < 26);
      const priceMinor = paid ? Math.round(rng.int(12, 38) * rate) * 100 : 0;
      seats.push({ number, status, priceMinor, characteristics: chars });
    }
  }
  return seats;
}

export function seatmapWire(
  state: AmadeusState,
  offer: Wire,
  segment: Wire,
  travelerIds: string[],
  taken: Set<string>,
): Wire {
  const segmentId = str(segment.id) ?? '1';
  const currency = str(asObject(offer.price)?.currency) ?? 'EUR';
  const fd = asArray(asArray(offer.travelerPricings)[0]?.fareDetailsBySegment).find(
    (f) => f.segmentId === segmentId,
  );
  const cabin = str(fd?.cabin) ?? 'ECONOMY';
  const layout = LAYOUT[cabin] ?? (LAYOUT.ECONOMY as (typeof LAYOUT)[string]);
  const seats = segmentSeats(state, segment, cabin, currency, taken);
  return {
    type: 'seatmap',
    id: segmentId,
    departure: segment.departure,
    arrival: segment.arrival,
    carrierCode: segment.carrierCode,
    number: segment.number,
    operating: segment.operating,
    aircraft: segment.aircraft,
    class: str(fd?.class) ?? 'Y',
    flightOfferId: str(offer.id) ?? '1',
    segmentId,
    decks: [
      {
        deckType: 'MAIN',
        deckConfiguration: {
          width: layout.letters.length + 1,
          length: layout.last - layout.first + 1,
          startSeatRow: layout.first,
          endSeatRow: layout.last,
        },
        facilities: [],
        seats: seats.map((s, i) => ({
          cabin,
          number: s.number,
          characteristicsCodes: s.characteristics,
          travelerPricing: travelerIds.map((travelerId) => {
            const tp: Wire = { travelerId, seatAvailabilityStatus: s.status };
            if (s.status === 'AVAILABLE')
              tp.price = {
                currency,
                total: money(s.priceMinor),
                base: money(s.priceMinor),
                taxes: [{ amount: '0.00', code: 'SUPPLIER' }],
              };
            return tp;
          }),
          coordinates: { x: Math.floor(i / layout.letters.length), y: i % layout.letters.length },
        })),
      },
    ],
    availableSeatsCounters: travelerIds.map((travelerId) => ({
      travelerId,
      value: seats.filter((s) => s.status === 'AVAILABLE').length,
    })),
  };
}

export const SEAT_DICTIONARY: Wire = {
  W: 'Window seat',
  A: 'Aisle seat',
  '9': 'Center seat (not window, not aisle)',
  K: 'Bulkhead seat',
};
