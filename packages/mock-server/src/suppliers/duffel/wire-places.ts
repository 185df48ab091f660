import { hashString } from '../../shared/random.ts';
import { AIRCRAFT, type AirportData, airport, type CarrierData } from './data.ts';

/** Duffel's nested reference objects (airports, airlines, aircraft) and small formatting helpers. */

/** A deterministic Duffel-style id for things that must keep their id across calls (seat services). */
export function stableId(prefix: string, key: string): string {
  const a = hashString(key).toString(36).padStart(7, '0');
  const b = hashString(`${key}#`).toString(36).padStart(7, '0');
  return `${prefix}_0000${a}${b}`.slice(0, prefix.length + 22);
}

export function wireAirport(iata: string) {
  const a: AirportData = airport(iata);
  return {
    id: stableId('arp', a.iata),
    type: 'airport',
    iata_code: a.iata,
    icao_code: null,
    name: a.name,
    city_name: a.city,
    iata_city_code: a.iata,
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

export function wireAircraft(i: number) {
  const a = AIRCRAFT[i % AIRCRAFT.length] as (typeof AIRCRAFT)[number];
  return { id: stableId('arc', a.iata_code), iata_code: a.iata_code, name: a.name };
}

/** Great-circle distance in km; unknown airports get a stable pseudo distance. */
export function distanceKm(from: string, to: string): number {
  const a = airport(from);
  const b = airport(to);
  if ((a.lat === 0 && a.lon === 0) || (b.lat === 0 && b.lon === 0)) {
    return 400 + (hashString([from, to].sort().join('-')) % 6000);
  }
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return Math.max(150, Math.round(2 * 6371 * Math.asin(Math.sqrt(h))));
}

export function isoDuration(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return `PT${h > 0 ? `${h}H` : ''}${m > 0 || h === 0 ? `${m}M` : ''}`;
}

/** Local date-time without offset, as Duffel's `departing_at`. */
export function localDateTime(date: string, minutesFromMidnight: number): string {
  const ms = Date.parse(`${date}T00:00:00Z`) + minutesFromMidnight * 60_000;
  return new Date(ms).toISOString().slice(0, 19);
}
