import { rngFor } from '../../shared/random.ts';
import { carrier } from './data.ts';
import { money } from './http.ts';
import type { DuffelState, OfferRecord, ServiceDef, Wire } from './state.ts';
import { stableId } from './wire-places.ts';

/**
 * Seat maps per segment. Occupancy is seeded per segment; seats sold through orders are taken for good.
 * Every available seat lists one service per passenger (Duffel's `available_services`), which is what an
 * order or a post-booking services call buys.
 */

const LAYOUTS: Record<string, { rows: [number, number]; sections: string[][] }> = {
  economy: {
    rows: [5, 16],
    sections: [
      ['A', 'B', 'C'],
      ['D', 'E', 'F'],
    ],
  },
  premium_economy: {
    rows: [3, 4],
    sections: [
      ['A', 'C'],
      ['D', 'E', 'F'],
      ['H', 'K'],
    ],
  },
  business: { rows: [1, 2], sections: [['A'], ['D', 'F'], ['K']] },
  first: { rows: [1, 1], sections: [['A'], ['K']] },
};

function seatPriceMinor(row: number, letter: string, cabin: string, seed: number): number {
  if (cabin !== 'economy') return 0;
  if (row === 5 || row === 12) return 2500; // extra legroom / exit row
  if (letter === 'A' || letter === 'F') return 1200;
  return seed % 3 === 0 ? 0 : 800;
}

export function seatMapsForOffer(state: DuffelState, rec: OfferRecord): Wire[] {
  if (!carrier(rec.carrier).services) return [];
  const offer = rec.offer;
  const cur = offer.total_currency as string;
  const seated = (offer.passengers as Wire[]).filter((p) => p.type === 'adult' || (p.age ?? 0) >= 2);
  const maps: Wire[] = [];
  for (const slice of offer.slices as Wire[]) {
    for (const seg of slice.segments as Wire[]) {
      const cabin = (seg.passengers as Wire[])[0]?.cabin_class ?? 'economy';
      const layout = LAYOUTS[cabin] ?? (LAYOUTS.economy as (typeof LAYOUTS)[string]);
      const rng = rngFor(state.seed, 'duffel-seats', offer.id, seg.id);
      const taken = state.takenSeats.get(seg.id) ?? new Set<string>();
      const rows: Wire[] = [];
      for (let row = layout.rows[0]; row <= layout.rows[1]; row++) {
        const sections = layout.sections.map((letters) => ({
          elements: letters.map((letter) => {
            const designator = `${row}${letter}`;
            const occupied = rng.bool(0.3) || taken.has(designator);
            const priceMinor = seatPriceMinor(row, letter, cabin, rng.int(0, 2));
            const services = occupied
              ? []
              : seated.map((p) => {
                  const svc: ServiceDef = {
                    id: stableId('ase', `${offer.id}|${seg.id}|${designator}|${p.id}`),
                    type: 'seat',
                    offerId: offer.id,
                    passengerIds: [p.id],
                    segmentIds: [seg.id],
                    amountMinor: priceMinor,
                    maxQuantity: 1,
                    metadata: { designator, name: null, disclosures: [] },
                  };
                  state.services.set(svc.id, svc);
                  return {
                    id: svc.id,
                    passenger_id: p.id,
                    total_amount: money(priceMinor, cur),
                    total_currency: cur,
                  };
                });
            return {
              type: 'seat',
              designator,
              name: row === 12 ? 'Exit row seat' : null,
              disclosures: row === 12 ? ['Must be over 16 and able to assist in an emergency'] : [],
              available_services: services,
            };
          }),
        }));
        rows.push({ sections });
      }
      maps.push({
        id: stableId('sea', `${offer.id}|${seg.id}`),
        slice_id: slice.id,
        segment_id: seg.id,
        cabins: [
          {
            deck: 0,
            cabin_class: cabin,
            aisles: layout.sections.length - 1,
            wings: { first_row_index: 3, last_row_index: 8 },
            rows,
          },
        ],
      });
    }
  }
  return maps;
}
