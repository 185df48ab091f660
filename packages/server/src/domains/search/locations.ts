/**
 * Which places a search may name, and their time zones, from the reference data (`domains/reference`:
 * OpenFlights airports with IATA codes, coordinates and IANA zones). A code nobody knows is refused at
 * search (422 `unknown_location`) instead of being sent to the suppliers, whose sandboxes would make up
 * offers for it.
 */
import { type Airport, loadAirports } from '../../internal/places/data.ts';
import { destinations } from '../../internal/places/places.ts';
import { GeoIndex } from '../reference/index.ts';

export type Place =
  | { kind: 'airport' | 'city'; code: string; timezone: string | null }
  | { kind: 'coordinates'; latitude: number; longitude: number; timezone: string | null }
  | { kind: 'text'; timezone: null };

/** Something that names a place we cannot find. */
export interface UnknownPlace {
  unknown: string;
}

const COORDINATES = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/;
const CODE = /^[A-Za-z]{3}$/;

export class Locations {
  readonly #airports: Map<string, Airport>;
  readonly #zoned: Airport[];
  readonly #geo: GeoIndex;
  readonly #all: number[];

  constructor(airports: readonly Airport[] = loadAirports()) {
    this.#airports = new Map(airports.map((a) => [a.iata_code, a]));
    this.#zoned = airports.filter((a) => a.timezone);
    this.#geo = new GeoIndex(this.#zoned);
    this.#all = this.#zoned.map((_, i) => i);
  }

  /** An IATA airport or metropolitan-area code (any case), or null when the data knows neither. */
  code(code: string): Extract<Place, { kind: 'airport' | 'city' }> | null {
    const c = code.toUpperCase();
    const a = this.#airports.get(c);
    if (a) return { kind: 'airport', code: c, timezone: a.timezone };
    const city = destinations().code(c);
    return city ? { kind: 'city', code: c, timezone: city.timezone } : null;
  }

  /** The time zone of the airport nearest to a point. */
  nearestZone(latitude: number, longitude: number): string | null {
    const keys = this.#geo.rankKeys(latitude, longitude, this.#all);
    let best = -1;
    for (const i of this.#all) if (best < 0 || (keys[i] as number) < (keys[best] as number)) best = i;
    return best < 0 ? null : (this.#zoned[best]?.timezone ?? null);
  }

  /**
   * A transfer point: three letters are a code (as the suppliers read them), "lat,lon" coordinates (in
   * range), a city name its centre (`reference/places.ts`), anything else free text (an address, a hotel).
   */
  place(value: string): Place | UnknownPlace {
    const t = value.trim();
    if (CODE.test(t))
      return this.code(t) ?? { unknown: `${t.toUpperCase()} is not a known airport or city code.` };
    const ll = COORDINATES.exec(t);
    if (ll) {
      const latitude = Number(ll[1]);
      const longitude = Number(ll[2]);
      if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180)
        return { unknown: `${t} is not a place on Earth (latitude -90 to 90, longitude -180 to 180).` };
      return { kind: 'coordinates', latitude, longitude, timezone: this.nearestZone(latitude, longitude) };
    }
    // A city name is that city's centre (as the transfer adapters send it), in the city's zone.
    const city = destinations().resolve(t);
    if (!('unknown' in city) && !city.partial)
      return {
        kind: 'coordinates',
        latitude: city.latitude,
        longitude: city.longitude,
        timezone: city.timezone ?? this.nearestZone(city.latitude, city.longitude),
      };
    return { kind: 'text', timezone: null };
  }
}

let shared: Locations | null = null;

/** The process-wide table, built on first use. */
export function locations(): Locations {
  shared ??= new Locations();
  return shared;
}
