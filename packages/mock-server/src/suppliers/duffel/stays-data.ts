import { cityNear, nightlyEur, streetsOf } from '../../shared/destinations.ts';
import { SANDBOX_FX_RATES } from '../../shared/fx.ts';
import { wholeUnits } from '../../shared/money.ts';
import { rngFor } from '../../shared/random.ts';
import { HOTEL_CHAINS, HOTEL_CITIES, HOTEL_WORDS } from './data.ts';
import { iso, money } from './http.ts';
import type { DuffelState, Wire } from './state.ts';
import { OFFER_TTL_MS } from './triggers.ts';
import { stableId } from './wire-places.ts';

/**
 * Duffel Stays inventory: accommodations around any coordinate, seeded by the rounded coordinate so the
 * same place always has the same hotels, with rooms and rates priced by stars, nights and rooms.
 */

export interface StaysSearch {
  lat: number;
  lon: number;
  radiusKm: number;
  checkIn: string;
  checkOut: string;
  rooms: number;
  guests: Wire[];
}

function nearestCity(lat: number, lon: number) {
  let best: (typeof HOTEL_CITIES)[number] | undefined;
  let bestD = Number.POSITIVE_INFINITY;
  for (const c of HOTEL_CITIES) {
    const d = Math.hypot(c.lat - lat, (c.lon - lon) * Math.cos((lat * Math.PI) / 180)) * 111;
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  if (best && bestD < 80) return best;
  // Anywhere else: the city of the nearest airport (the airport data names the city it serves).
  return cityNear(lat, lon, 150) ?? { name: 'City Centre', country: 'GB' };
}

/** Units of `currency` per EUR (the sandbox's fixed table; 1 where it has none). */
const perEur = (currency: string): number => SANDBOX_FX_RATES.rates[currency] ?? 1;

/** Price of the n-th room of a hotel relative to its standard room. */
const ROOM_UPLIFT = [1, 1.15, 1.35, 1.8];

export function nights(checkIn: string, checkOut: string): number {
  return Math.round((Date.parse(checkOut) - Date.parse(checkIn)) / 86_400_000);
}

/** Creates search results (and their rates, kept for fetch_all_rates and quotes). */
export function searchStays(state: DuffelState, q: StaysSearch): Wire[] {
  const key = `${q.lat.toFixed(2)},${q.lon.toFixed(2)}`;
  const rng = rngFor(state.seed, 'duffel-stays', key);
  const city = nearestCity(q.lat, q.lon);
  const n = nights(q.checkIn, q.checkOut);
  const cur = state.currency;
  const now = state.now();
  const count = rng.int(6, 12);
  const results: Wire[] = [];
  for (let i = 0; i < count; i++) {
    const stars = rng.int(2, 5);
    const chain = rng.bool(0.5) ? rng.pick(HOTEL_CHAINS) : null;
    const name = chain
      ? `${chain.brand} ${city.name} ${rng.pick(HOTEL_WORDS.adjectives)}`
      : `The ${rng.pick(HOTEL_WORDS.adjectives)} ${rng.pick(HOTEL_WORDS.nouns)}`;
    const dLat = (rng.next() - 0.5) * (q.radiusKm / 111);
    const dLon = (rng.next() - 0.5) * (q.radiusKm / 111);
    const accommodation: Wire = {
      id: stableId('acc', `${key}|${i}`),
      name,
      rating: stars,
      ratings: [{ source: 'northstar', value: stars }],
      review_score: Math.round((6 + rng.next() * 3.8) * 10) / 10,
      review_count: rng.int(40, 4000),
      description: `A ${stars}-star hotel in ${city.name}.`,
      email: null,
      phone_number: '+442071234567',
      chain: chain ? { id: chain.id, name: chain.name } : null,
      brand: chain ? { id: stableId('bra', chain.brand), name: chain.brand } : null,
      supported_loyalty_programme: chain?.loyalty ?? null,
      amenities: [
        { type: 'wifi', description: 'Free WiFi' },
        ...(stars >= 4
          ? [
              { type: 'gym', description: 'Fitness centre' },
              { type: 'restaurant', description: 'Restaurant' },
            ]
          : []),
      ],
      check_in_information: { check_in_after_time: '15:00', check_out_before_time: '11:00' },
      key_collection: null,
      photos: [{ url: `https://assets.example.com/stays/${i}.jpg` }],
      location: {
        address: {
          line_one: `${rng.int(1, 250)} ${rng.pick(streetsOf(city.country))}`,
          city_name: city.name,
          country_code: city.country,
          postal_code: rng.code(6),
        },
        geographic_coordinates: { latitude: q.lat + dLat, longitude: q.lon + dLon },
      },
      rooms: [] as Wire[],
    };
    const id = state.nextId('srr');
    const roomCount = rng.int(2, 4);
    const rooms: Wire[] = [];
    for (let j = 0; j < roomCount; j++) {
      const roomName = HOTEL_WORDS.rooms[(i + j) % HOTEL_WORDS.rooms.length] as string;
      // Star band x the country's price level x the room type, in the account currency.
      const eur = nightlyEur(stars, city.country, String(accommodation.id), ROOM_UPLIFT[j] ?? 1);
      const nightly = wholeUnits(eur * perEur(cur), cur);
      const rates: Wire[] = (['room_only', 'breakfast'] as const).flatMap((board, b) =>
        [true, false].map((refundable) => {
          const base = Math.round(nightly * n * q.rooms * (1 + b * 0.12) * (refundable ? 1.1 : 1));
          const tax = Math.round(base * 0.1);
          const total = base + tax;
          const checkInMs = Date.parse(`${q.checkIn}T15:00:00Z`);
          const rate: Wire = {
            id: state.nextId('rat'),
            code: null,
            name: null,
            description: null,
            board_type: board,
            payment_type: 'pay_now',
            available_payment_methods: ['balance'],
            base_amount: money(base, cur),
            base_currency: cur,
            tax_amount: money(tax, cur),
            tax_currency: cur,
            fee_amount: '0.00',
            fee_currency: cur,
            total_amount: money(total, cur),
            total_currency: cur,
            due_at_accommodation_amount: null,
            due_at_accommodation_currency: cur,
            quantity_available: rng.int(1, 5),
            conditions: [
              {
                title: 'Cancellation',
                description: refundable ? 'Free cancellation until 3 days before arrival' : 'Non-refundable',
              },
            ],
            cancellation_timeline: refundable
              ? [
                  {
                    before: iso(checkInMs - 3 * 86_400_000),
                    refund_amount: money(total, cur),
                    currency: cur,
                  },
                  {
                    before: iso(checkInMs - 86_400_000),
                    refund_amount: money(Math.round(total / 2), cur),
                    currency: cur,
                  },
                ]
              : [],
            supported_loyalty_programme: chain?.loyalty ?? null,
            loyalty_programme_required: false,
            estimated_commission_amount: null,
            estimated_commission_currency: null,
            source: 'duffel_hotel_group',
            expires_at: iso(now + OFFER_TTL_MS),
          };
          state.staysRates.set(rate.id, { rate, searchResultId: id, accommodation, roomName, driftMinor: 0 });
          return rate;
        }),
      );
      rooms.push({
        name: roomName,
        beds: [{ type: j === 1 ? 'king' : 'double', count: 1 }],
        photos: [],
        rates,
      });
    }
    const cheapest = rooms
      .flatMap((r) => r.rates as Wire[])
      .reduce((a, b) => (Number(a.total_amount) <= Number(b.total_amount) ? a : b));
    const result: Wire = {
      id,
      check_in_date: q.checkIn,
      check_out_date: q.checkOut,
      rooms: q.rooms,
      guests: q.guests,
      accommodation,
      cheapest_rate_total_amount: cheapest.total_amount,
      cheapest_rate_currency: cur,
      cheapest_rate_base_amount: cheapest.base_amount,
      cheapest_rate_base_currency: cur,
      cheapest_rate_public_amount: null,
      cheapest_rate_public_currency: cur,
      cheapest_rate_due_at_accommodation_amount: null,
      cheapest_rate_due_at_accommodation_currency: null,
      expires_at: iso(now + OFFER_TTL_MS),
      _rooms: rooms,
    };
    state.staysSearchResults.set(id, result);
    results.push(result);
  }
  return results;
}

/** The search result as the wire shows it: rooms only after fetch_all_rates. */
export function searchResultView(r: Wire, withRates: boolean): Wire {
  const { _rooms, ...rest } = r;
  return { ...rest, accommodation: { ...r.accommodation, rooms: withRates ? _rooms : [] } };
}
