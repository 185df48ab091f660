/**
 * Who flies where, when, under which flight number: the route network and timetable shared by the flight
 * emulators. Each emulator keeps its own list of carriers it sells (a GDS, an NDC aggregator and a
 * consolidator carry different airlines); this module says which of them plausibly serve a route.
 *
 * Rules (see the mock server's README, "Realism"):
 * - a full-service carrier flies nonstop when one end is one of its hubs, or when one end is in its home
 *   country and the flight is short-haul (at most 3,000 km: domestic and regional feeders);
 * - a low-cost carrier flies nonstop only from its bases, within its narrow-body range;
 * - a full-service carrier connects through one of its hubs when both legs are flights it flies and the
 *   detour is at most 35 % over the great circle, with a minimum connection time of 60-90 minutes and a
 *   wait of at most 8 hours;
 * - no flight is shorter than 160 km (the train or the road wins there);
 * - synthetic (trigger) airports are served by every full-service carrier, so trigger routes answer.
 * The timetable is a pure function of carrier and route: the same flight number departs at the same local
 * time every day, outbound numbers are even and the return odd, as airlines number them.
 */

import { hashString } from './random.ts';
import { blockMinutes, distanceKm, localText, place, utcOfLocal } from './world.ts';

export interface Network {
  /** ISO country of the airline. */
  country: string;
  /** Hubs (full-service) or bases (low-cost). */
  hubs: readonly string[];
  lcc: boolean;
  /** Longest nonstop the fleet flies, km. */
  rangeKm: number;
  alliance?: 'oneworld' | 'star' | 'skyteam';
  /** Duffel's fictional test airline: flies anything, nonstop. */
  universal?: boolean;
}

export const NETWORKS: Readonly<Record<string, Network>> = {
  BA: { country: 'GB', hubs: ['LHR', 'LGW'], lcc: false, rangeKm: 14_500, alliance: 'oneworld' },
  AA: {
    country: 'US',
    hubs: ['JFK', 'DFW', 'MIA', 'ORD'],
    lcc: false,
    rangeKm: 14_000,
    alliance: 'oneworld',
  },
  QR: { country: 'QA', hubs: ['DOH'], lcc: false, rangeKm: 16_000, alliance: 'oneworld' },
  LH: { country: 'DE', hubs: ['FRA', 'MUC'], lcc: false, rangeKm: 14_000, alliance: 'star' },
  TK: { country: 'TR', hubs: ['IST'], lcc: false, rangeKm: 14_000, alliance: 'star' },
  SQ: { country: 'SG', hubs: ['SIN'], lcc: false, rangeKm: 16_500, alliance: 'star' },
  AF: { country: 'FR', hubs: ['CDG'], lcc: false, rangeKm: 14_000, alliance: 'skyteam' },
  KL: { country: 'NL', hubs: ['AMS'], lcc: false, rangeKm: 14_000, alliance: 'skyteam' },
  SV: { country: 'SA', hubs: ['JED', 'RUH'], lcc: false, rangeKm: 13_000, alliance: 'skyteam' },
  EK: { country: 'AE', hubs: ['DXB'], lcc: false, rangeKm: 15_000 },
  EY: { country: 'AE', hubs: ['AUH'], lcc: false, rangeKm: 14_000 },
  GF: { country: 'BH', hubs: ['BAH'], lcc: false, rangeKm: 9_000 },
  BG: { country: 'BD', hubs: ['DAC'], lcc: false, rangeKm: 9_000 },
  ZZ: { country: 'GB', hubs: ['LHR'], lcc: false, rangeKm: 20_000, universal: true },
  U2: { country: 'GB', hubs: ['LGW', 'LTN', 'MAN', 'BRS', 'EDI', 'GVA'], lcc: true, rangeKm: 4_000 },
  FR: { country: 'IE', hubs: ['DUB', 'STN', 'BGY', 'CRL', 'MAD'], lcc: true, rangeKm: 4_000 },
  W6: { country: 'HU', hubs: ['BUD', 'LTN', 'WAW', 'OTP'], lcc: true, rangeKm: 4_500 },
  FZ: { country: 'AE', hubs: ['DXB'], lcc: true, rangeKm: 4_700 },
  G9: { country: 'AE', hubs: ['SHJ'], lcc: true, rangeKm: 4_700 },
  '6E': { country: 'IN', hubs: ['DEL', 'BOM', 'BLR'], lcc: true, rangeKm: 5_000 },
};

export const MIN_FLIGHT_KM = 160;
const SHORT_HAUL_KM = 3_000;
const MAX_DETOUR = 1.35;
const MAX_WAIT_MIN = 8 * 60;

/** Minimum connection time at a hub, minutes. */
export function minimumConnection(hub: string): number {
  return 60 + (hashString(`mct|${hub}`) % 4) * 10;
}

/** Whether the carrier flies `from`-`to` nonstop. */
export function servesNonstop(carrier: string, from: string, to: string): boolean {
  const n = NETWORKS[carrier];
  if (!n || from === to) return false;
  const km = distanceKm(from, to);
  if (km < MIN_FLIGHT_KM || km > n.rangeKm) return false;
  if (n.universal) return true;
  const a = place(from);
  const b = place(to);
  if (n.hubs.includes(a.iata) || n.hubs.includes(b.iata)) return true;
  if (n.lcc) return false;
  if (a.synthetic || b.synthetic) return true;
  return (a.country === n.country || b.country === n.country) && km <= SHORT_HAUL_KM;
}

/** The ways the carrier can take a passenger from `from` to `to`: `null` nonstop, else the hub it connects at. */
export function routings(carrier: string, from: string, to: string): (string | null)[] {
  const n = NETWORKS[carrier];
  if (!n) return [];
  const out: (string | null)[] = [];
  if (servesNonstop(carrier, from, to)) out.push(null);
  if (n.lcc || n.universal) return out;
  const direct = distanceKm(from, to);
  for (const hub of n.hubs) {
    if (hub === from || hub === to || place(hub).iata === place(from).iata) continue;
    if (!servesNonstop(carrier, from, hub) || !servesNonstop(carrier, hub, to)) continue;
    if (distanceKm(from, hub) + distanceKm(hub, to) > direct * MAX_DETOUR) continue;
    out.push(hub);
  }
  return out;
}

export interface Departure {
  /** Minutes after local midnight at the origin. */
  minute: number;
  flightNumber: string;
}

/**
 * The daily timetable of a carrier on a route: more frequencies on short routes, departures between 06:00
 * and 23:30 local on a 5-minute grid, flight numbers stable per carrier and route.
 */
export function timetable(carrier: string, from: string, to: string): Departure[] {
  const km = distanceKm(from, to);
  const lcc = NETWORKS[carrier]?.lcc ?? false;
  const pair = [from, to].sort().join('-');
  const h = hashString(`route|${carrier}|${pair}`);
  const count = km < 1_500 ? 3 + (h % 3) : km < 5_000 ? 2 + (h % 2) : 2 + (h % 2);
  // Spread the frequencies over the day: one slot per window, each at a stable point inside it.
  const first = 6 * 60;
  const window = Math.floor((17.5 * 60) / count);
  const odd = from > to ? 1 : 0;
  const base = lcc ? 1000 + 2 * (h % 3900) : 2 + 2 * (h % 400);
  const out: Departure[] = [];
  for (let k = 0; k < count; k++) {
    const jitter = hashString(`slot|${carrier}|${from}|${to}|${k}`) % Math.max(1, Math.floor(window / 5));
    const minute = first + k * window + jitter * 5;
    const number = lcc ? base + 2 * k : ((base + 2 * k - 1) % 998) + 1;
    out.push({ minute, flightNumber: String(number + odd) });
  }
  return out;
}

export interface Flight {
  carrier: string;
  flightNumber: string;
  from: string;
  to: string;
  /** UTC instants. */
  departureUtc: number;
  arrivalUtc: number;
  /** Local wall-clock text at each airport (`YYYY-MM-DDTHH:MM:SS`). */
  departureLocal: string;
  arrivalLocal: string;
  minutes: number;
  km: number;
}

function flightOn(carrier: string, from: string, to: string, date: string, d: Departure): Flight {
  const minutes = blockMinutes(carrier, from, to);
  const departureUtc = utcOfLocal(date, d.minute, place(from).tz);
  const arrivalUtc = departureUtc + minutes * 60_000;
  return {
    carrier,
    flightNumber: d.flightNumber,
    from,
    to,
    departureUtc,
    arrivalUtc,
    departureLocal: localText(departureUtc, place(from).tz),
    arrivalLocal: localText(arrivalUtc, place(to).tz),
    minutes,
    km: distanceKm(from, to),
  };
}

const addDays = (date: string, days: number): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** The first departure of the carrier on `from`-`to` a minimum connection after `arrival` (UTC), within the wait limit. */
function connectingFlight(carrier: string, from: string, to: string, arrival: number): Flight | undefined {
  const notBefore = arrival + minimumConnection(from) * 60_000;
  const day = localText(notBefore, place(from).tz).slice(0, 10);
  for (const date of [day, addDays(day, 1)]) {
    for (const d of timetable(carrier, from, to)) {
      const f = flightOn(carrier, from, to, date, d);
      if (f.departureUtc >= notBefore)
        return f.departureUtc - arrival <= MAX_WAIT_MIN * 60_000 ? f : undefined;
    }
  }
  return undefined;
}

/**
 * One journey of the carrier from `from` to `to` leaving on local `date`: `variant` picks the routing and the
 * departure (so an emulator asks for variants 0, 1, 2, … and gets distinct, stable flights). `nonStop` keeps
 * nonstop routings only. Undefined when the carrier has no such journey.
 */
export function journey(
  carrier: string,
  from: string,
  to: string,
  date: string,
  variant: number,
  nonStop = false,
): Flight[] | undefined {
  const ways = routings(carrier, from, to).filter((r) => !nonStop || r === null);
  if (ways.length === 0) return undefined;
  for (let attempt = 0; attempt < ways.length; attempt++) {
    const via = ways[(variant + attempt) % ways.length] as string | null;
    const pick = Math.floor(variant / ways.length);
    if (via === null) {
      const table = timetable(carrier, from, to);
      return [flightOn(carrier, from, to, date, table[pick % table.length] as Departure)];
    }
    const table = timetable(carrier, from, via);
    for (let k = 0; k < table.length; k++) {
      const first = flightOn(carrier, from, via, date, table[(pick + k) % table.length] as Departure);
      const second = connectingFlight(carrier, via, to, first.arrivalUtc);
      if (second) return [first, second];
    }
  }
  return undefined;
}

/** Carriers of `pool` that have a journey on every leg. */
export function carriersServing(
  pool: readonly string[],
  legs: readonly { from: string; to: string }[],
): string[] {
  return pool.filter((c) => legs.every((l) => routings(c, l.from, l.to).length > 0));
}
