import { hashString } from '../../shared/random.ts';
import { CITY_CODE_AIRPORT, place, distanceKm as worldDistanceKm } from '../../shared/world.ts';
import { AIRCRAFT, type CarrierData } from './data.ts';

/** Metropolitan code of a city's main airport (LHR -> LON), as Duffel's `iata_city_code`. */
const CITY_OF_AIRPORT: Record<string, string> = Object.fromEntries(
  Object.entries(CITY_CODE_AIRPORT).map(([city, airport]) => [airport, city]),
);

/** Duffel's nested reference objects (airports, airlines, aircraft) and small formatting helpers. */

/** A deterministic Duffel-style id for things that must keep their id across calls (seat services). */
export function stableId(prefix: string, key: string): string {
  const a = hashString(key).toString(36).padStart(7, '0');
  const b = hashString(`${key}#`).toString(36).padStart(7, '0');
  return `${prefix}_0000${a}${b}`.slice(0, prefix.length + 22);
}

export function wireAirport(iata: string) {
  const a = place(iata);
  return {
    id: stableId('arp', a.iata),
    type: 'airport',
    iata_code: a.iata,
    icao_code: null,
    name: a.name,
    city_name: a.city,
    iata_city_code: CITY_OF_AIRPORT[a.iata] ?? a.iata,
    iata_country_code: a.country,
    latitude: a.lat,
    longitude: a.lon,
    time_zone: a.tz,
    city: null,
  };
}

export function wireAirline(c: CarrierData) {
  return {
    id: stableId('arl', c.iata),
    iata_code: c.iata,
    name: c.name,
    logo_symbol_url: `https://assets.duffel.com/img/airlines/for-light-background/full-color-logo/${c.iata}.svg`,
    logo_lockup_url: null,
    conditions_of_carriage_url: null,
  };
}

/** The type a flight of this length is flown with (`pick` spreads flights over the suitable types). */
export function wireAircraft(km: number, pick: number) {
  const fits = AIRCRAFT.filter((a) => (km > 4_500 ? WIDEBODY.has(a.iata_code) : !WIDEBODY.has(a.iata_code)));
  const a = fits[pick % fits.length] as (typeof AIRCRAFT)[number];
  return { id: stableId('arc', a.iata_code), iata_code: a.iata_code, name: a.name };
}
const WIDEBODY = new Set(['789', '77W', '388']);

/** Great-circle distance in km between two airports (`shared/world.ts`). */
export function distanceKm(from: string, to: string): number {
  return worldDistanceKm(from, to);
}

export function isoDuration(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `PT${h > 0 ? `${h}H` : ''}${m > 0 || h === 0 ? `${m}M` : ''}`;
}
