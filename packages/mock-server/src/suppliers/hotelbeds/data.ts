/**
 * Deterministic hotel inventory. A rateKey carries the stay, occupancy, hotel, room, board and rate class
 * (pipe-delimited like APItude's), so CheckRate and Booking can rebuild the rate without server state.
 */

import { cityNear, cityOfCode, nightlyEur, streetsOf } from '../../shared/destinations.ts';
import { int, pick } from '../../shared/kit.ts';
import { moneyText, wholeUnits } from '../../shared/money.ts';
import type { EmulatorOptions } from '../../shared/options.ts';
import { hashString, mulberry32 } from '../../shared/random.ts';

const CITIES: Record<string, { name: string; country: string; lat: number; lon: number }> = {
  LON: { name: 'London', country: 'GB', lat: 51.5074, lon: -0.1278 },
  DXB: { name: 'Dubai', country: 'AE', lat: 25.2048, lon: 55.2708 },
  BCN: { name: 'Barcelona', country: 'ES', lat: 41.3874, lon: 2.1686 },
  PMI: { name: 'Majorca', country: 'ES', lat: 39.5696, lon: 2.6502 },
  NYC: { name: 'New York', country: 'US', lat: 40.7128, lon: -74.006 },
  DAC: { name: 'Dhaka', country: 'BD', lat: 23.8103, lon: 90.4125 },
  BKK: { name: 'Bangkok', country: 'TH', lat: 13.7563, lon: 100.5018 },
  KUL: { name: 'Kuala Lumpur', country: 'MY', lat: 3.139, lon: 101.6869 },
  JED: { name: 'Jeddah', country: 'SA', lat: 21.4858, lon: 39.1925 },
  PAR: { name: 'Paris', country: 'FR', lat: 48.8566, lon: 2.3522 },
};
const PREFIX = ['Grand', 'Royal', 'Hotel', 'Park', 'Boutique', 'The', 'Casa', 'Palm', 'Marina', 'City'];
const SUFFIX = [
  'Plaza',
  'Palace',
  'Suites',
  'Residence',
  'Inn',
  'Resort & Spa',
  'Tower',
  'Gardens',
  'Bay',
  'House',
];
const ROOMS = [
  { code: 'DBL.ST', name: 'DOUBLE STANDARD' },
  { code: 'TWN.SU', name: 'TWIN SUPERIOR' },
  { code: 'DBL.DX', name: 'DOUBLE DELUXE' },
  { code: 'SUI.JS', name: 'JUNIOR SUITE' },
] as const;
/** Price of each room type (in `ROOMS` order) and board relative to a standard double, room only. */
const ROOM_UPLIFT = [1, 1.15, 1.35, 1.8];
const BOARD_UPLIFT: Record<string, number> = { RO: 1, BB: 1.12, HB: 1.3, AI: 1.6 };
export const BOARDS: Record<string, string> = {
  RO: 'ROOM ONLY',
  BB: 'BED AND BREAKFAST',
  HB: 'HALF BOARD',
  AI: 'ALL INCLUSIVE',
};

export interface StayKey {
  checkIn: string;
  checkOut: string;
  destination: string;
  rooms: number;
  adults: number;
  children: number;
  childAges: number[];
}

export interface HotelData {
  code: number;
  name: string;
  stars: number;
  destinationCode: string;
  destinationName: string;
  country: string;
  address: string;
  latitude: number;
  longitude: number;
}

export interface RateData {
  key: StayKey;
  hotel: HotelData;
  roomCode: string;
  roomName: string;
  board: string;
  rateClass: 'NOR' | 'NRF';
  rateType: 'BOOKABLE' | 'RECHECK';
  /** Net in EUR cents for the whole stay and all rooms. */
  netCents: number;
  /** Percent uplift once re-checked (trigger XPC). */
  drift: number;
  allotment: number;
}

export function nights(k: StayKey): number {
  return Math.max(1, Math.round((Date.parse(k.checkOut) - Date.parse(k.checkIn)) / 86_400_000));
}

/** A geolocation search's destination code: the point, `@lat,lon` to 3 decimals (about 100 m). */
export function geoDestination(lat: number, lon: number): string {
  return `@${lat.toFixed(3)},${lon.toFixed(3)}`;
}
function geoPoint(code: string): { lat: number; lon: number } | undefined {
  const m = /^@(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)$/.exec(code);
  return m ? { lat: Number(m[1]), lon: Number(m[2]) } : undefined;
}

/**
 * The destination of a code (or of a geolocation search's point, named by the nearest city): a city centre of the table above, else the airport data's city for an IATA
 * city or airport code (Rome for FCO, in IT), else (trigger codes such as XPC) a stable place in Spain.
 */
export function cityOf(code: string) {
  const point = geoPoint(code);
  if (point) {
    const near = cityNear(point.lat, point.lon, 150);
    return { name: near?.name ?? 'City Centre', country: near?.country ?? 'ES', ...point };
  }
  const world = cityOfCode(code);
  return (
    CITIES[code] ??
    (world && { name: world.name, country: world.country, lat: world.lat, lon: world.lon }) ?? {
      name: code,
      country: 'ES',
      lat: 36 + (hashString(code) % 1000) / 100,
      lon: (hashString(`${code}x`) % 3000) / 100 - 5,
    }
  );
}

export function hotelsFor(
  options: EmulatorOptions,
  destination: string,
  center?: { lat: number; lon: number },
): HotelData[] {
  const city = cityOf(destination);
  const r = mulberry32(hashString(`${options.seed ?? 42}:hotels:${destination}`));
  const count = 8 + int(r, 0, 6);
  const out: HotelData[] = [];
  for (let i = 0; i < count; i++) {
    const base = center ?? { lat: city.lat, lon: city.lon };
    const name = `${pick(r, PREFIX)} ${city.name} ${pick(r, SUFFIX)}`;
    out.push({
      code: 1000 + (hashString(`${destination}:${i}`) % 90000),
      name,
      stars: pick(r, [2, 3, 3, 4, 4, 4, 5, 5]),
      destinationCode: destination,
      destinationName: city.name,
      country: city.country,
      // A street of the destination's country (no Sheikh Zayed Road in London).
      address: `${int(r, 1, 220)} ${pick(r, streetsOf(city.country))}`,
      latitude: Number((base.lat + (r() - 0.5) * 0.08).toFixed(6)),
      longitude: Number((base.lon + (r() - 0.5) * 0.08).toFixed(6)),
    });
  }
  return out;
}

export function ratesFor(options: EmulatorOptions, key: StayKey, hotel: HotelData): RateData[] {
  const r = mulberry32(hashString(`${options.seed ?? 42}:rates:${hotel.code}:${JSON.stringify(key)}`));
  const out: RateData[] = [];
  const roomTypes = ROOMS.slice(0, 2 + (hotel.code % 3));
  for (const [ri, room] of roomTypes.entries()) {
    const boards = hotel.stars >= 4 ? ['RO', 'BB', 'HB'] : ['RO', 'BB'];
    for (const [bi, board] of boards.slice(0, 1 + ((hotel.code + ri) % boards.length)).entries()) {
      // Star band x the country's price level x the room type, plus the board (`shared/destinations.ts`).
      const roomOnly = nightlyEur(hotel.stars, hotel.country, String(hotel.code), ROOM_UPLIFT[ri] ?? 1);
      const perNight = wholeUnits(roomOnly * (BOARD_UPLIFT[board] ?? 1), 'EUR');
      const paxFactor = 1 + Math.max(0, key.adults / key.rooms - 2) * 0.3 + key.children * 0.15;
      const rateClass = (ri + bi + hotel.code) % 3 === 0 ? 'NRF' : 'NOR';
      out.push({
        key,
        hotel,
        roomCode: room.code,
        roomName: room.name,
        board,
        rateClass,
        rateType: (hotel.code + ri + bi) % 4 === 1 ? 'RECHECK' : 'BOOKABLE',
        netCents: Math.round(
          perNight * nights(key) * key.rooms * paxFactor * (rateClass === 'NRF' ? 0.88 : 1),
        ),
        drift: 0,
        allotment: int(r, 1, 9),
      });
    }
  }
  return out;
}

export function encodeRateKey(rate: RateData): string {
  const k = rate.key;
  return [
    k.checkIn.replaceAll('-', ''),
    k.checkOut.replaceAll('-', ''),
    'W',
    k.destination,
    rate.hotel.code,
    rate.roomCode,
    rate.board,
    rate.rateClass,
    `${k.rooms}~${k.adults}~${k.children}`,
    k.childAges.join(','),
    rate.drift,
  ].join('|');
}

export function decodeRateKey(options: EmulatorOptions, rateKey: string): RateData | undefined {
  const p = rateKey.split('|');
  if (p.length !== 11) return undefined;
  const [ci, co, , dest, hotelCode, roomCode, board, rateClass, occ, ages, drift] = p as string[];
  const [rooms, adults, children] = (occ as string).split('~').map(Number);
  const date = (s: string) => `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}`;
  const key: StayKey = {
    checkIn: date(ci as string),
    checkOut: date(co as string),
    destination: dest as string,
    rooms: rooms ?? 1,
    adults: adults ?? 1,
    children: children ?? 0,
    childAges: ages ? (ages as string).split(',').map(Number) : [],
  };
  const hotel = hotelsFor(options, key.destination).find((h) => String(h.code) === hotelCode);
  if (!hotel) return undefined;
  const rate = ratesFor(options, key, hotel).find(
    (r) => r.roomCode === roomCode && r.board === board && r.rateClass === rateClass,
  );
  if (!rate) return undefined;
  const d = Number(drift) || 0;
  return { ...rate, drift: d, netCents: Math.round(rate.netCents * (1 + d / 100)) };
}

/** Cancellation policies: NRF owes everything from now; NOR owes the first night from 3 days before arrival. */
export function policiesOf(rate: RateData, now: number): { amount: string; from: string }[] {
  if (rate.rateClass === 'NRF') {
    return [
      { amount: moneyText(rate.netCents, 'EUR'), from: `${new Date(now).toISOString().slice(0, 19)}+00:00` },
    ];
  }
  const from = new Date(`${rate.key.checkIn}T23:59:00Z`);
  from.setUTCDate(from.getUTCDate() - 3);
  const first = Math.round(rate.netCents / nights(rate.key));
  return [{ amount: moneyText(first, 'EUR'), from: `${from.toISOString().slice(0, 19)}+00:00` }];
}

export function distanceKm(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 6371 * 2 * Math.asin(Math.sqrt(h));
}
