/**
 * The place a hotel or transfer search names, as every adapter sends it to its supplier: resolved once by
 * `internal/places/places.ts` (IATA city and airport codes, ranked city names with former names and a
 * country qualifier, "lat,lon"), never by the first string match or the first three letters.
 */
import { CITY_CODES } from '../internal/places/city-codes.ts';
import { destinations, type ResolvedPlace } from '../internal/places/places.ts';
import { SupplierError, type SupplierName } from './ports/errors.ts';

/** The place of a hotel destination, or `invalid_request` naming why it is none. */
export function hotelPlace(supplier: SupplierName, destination: string): ResolvedPlace {
  const p = destinations().resolve(destination);
  if ('unknown' in p)
    throw new SupplierError(supplier, 'invalid_request', `Unknown destination: ${p.unknown}`);
  return p;
}

/** A transfer end as a supplier can take it. */
export type TransferPoint =
  | { kind: 'iata'; code: string }
  | { kind: 'geo'; latitude: number; longitude: number }
  | { kind: 'text'; text: string; city: ResolvedPlace | null };

/**
 * An airport code stays a code; a city code is the city's main airport (LON: LHR); a city name is the
 * city's centre as coordinates; coordinates stay; other text (an address, a hotel) stays text, with the
 * city it names when one of its comma-separated parts is one ("Atlantis The Palm, Dubai").
 */
export function transferPoint(value: string): TransferPoint {
  const t = value.trim();
  if (/^[A-Za-z]{3}$/.test(t)) {
    const code = t.toUpperCase();
    return { kind: 'iata', code: CITY_CODES[code]?.[2] ?? code };
  }
  const p = destinations().resolve(t);
  if ('unknown' in p) return { kind: 'text', text: t, city: null };
  if (p.kind === 'coordinates' || !p.partial)
    return { kind: 'geo', latitude: p.latitude, longitude: p.longitude };
  return { kind: 'text', text: t, city: p };
}

/** "lat,lon" to six decimals (about 10 cm), as the suppliers' geo codes take it. */
export const geoText = (p: { latitude: number; longitude: number }): string =>
  `${round6(p.latitude)},${round6(p.longitude)}`;
const round6 = (v: number) => Math.round(v * 1e6) / 1e6;
