/**
 * Which city a traveller means by a destination: an IATA metropolitan code (LON, NYC, TYO…), an IATA airport
 * code, "lat,lon", or a city name, optionally qualified by a country or region ("London, CA",
 * "Portland, Maine", "Cambridge, US-MA"). Never the first string match and never the first three letters:
 *
 * - City names come from `city-timezones` 1.3.4 (MIT; Natural Earth's populated places: 7,300 cities with
 *   coordinates, population, province, ISO country and IANA zone). Of several cities of one name the most
 *   populous wins (London GB 8.0 M over London, Ontario 0.34 M; Birmingham GB over Birmingham, Alabama); the
 *   others are returned as `alternatives` so a caller can name the one they mean.
 * - Former and other English names (Bombay, Peking, Saigon, Calcutta, Madras…) are mapped to today's name.
 * - A name the city list lacks falls back to the airport data's cities (OpenFlights), the city with the most
 *   airports first.
 */
import { createRequire } from 'node:module';
import { CITY_CODES, FORMER_NAMES } from './city-codes.ts';
import { isoCode } from './countries.ts';
import { type Airport, loadAirports } from './data.ts';
import { normalize } from './normalize.ts';

export interface PlaceRef {
  name: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  region: string | null;
}

export interface ResolvedPlace extends PlaceRef {
  kind: 'city_code' | 'airport' | 'city' | 'coordinates';
  latitude: number;
  longitude: number;
  /** The IATA code the place was named by (a city or airport code), else null. */
  code: string | null;
  timezone: string | null;
  /** Other cities of the same name, most populous first (a qualifier picks one of them). */
  alternatives: PlaceRef[];
  /** Named by a later part of free text ("Atlantis The Palm, Dubai" is in Dubai), not as a whole. */
  partial?: true;
}

export interface UnknownPlace {
  unknown: string;
}

interface City extends PlaceRef {
  latitude: number;
  longitude: number;
  population: number;
  timezone: string | null;
  /** US state code (state_ansi), normalised region name. */
  regionKeys: string[];
}

interface RawCity {
  city: string;
  city_ascii: string;
  lat: number;
  lng: number;
  pop: number;
  iso2: string;
  province: string;
  state_ansi?: string;
  timezone: string;
}

const require = createRequire(import.meta.url);
const COORDINATES = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/;
const CODE = /^[A-Za-z]{3}$/;

export class Destinations {
  readonly #byName = new Map<string, City[]>();
  readonly #airports: Map<string, Airport>;

  constructor(airports: readonly Airport[] = loadAirports()) {
    const raw = require('city-timezones/data/cityMap.json') as RawCity[];
    for (const r of raw) {
      if (!/^[A-Z]{2}$/.test(r.iso2)) continue;
      const city: City = {
        name: r.city,
        country: r.iso2,
        region: r.province || null,
        latitude: r.lat,
        longitude: r.lng,
        population: r.pop,
        timezone: r.timezone || null,
        regionKeys: [r.state_ansi?.toLowerCase(), r.province ? normalize(r.province) : undefined].filter(
          (k): k is string => !!k,
        ),
      };
      for (const key of new Set([normalize(r.city), normalize(r.city_ascii)])) this.#add(key, city);
    }
    for (const list of this.#byName.values()) list.sort((a, b) => b.population - a.population);
    this.#airports = new Map(airports.map((a) => [a.iata_code, a]));
    // Cities the list lacks, from the airport data: the city with the most airports of that name first.
    const extra = new Map<string, { a: Airport; n: number; country: string }>();
    for (const a of airports) {
      const country = isoCode(a.country);
      if (!a.city || !country) continue;
      const key = normalize(a.city);
      if (this.#byName.get(key)?.some((c) => c.country === country)) continue;
      const k = `${key}|${country}`;
      const seen = extra.get(k);
      if (seen) seen.n++;
      else extra.set(k, { a, n: 1, country });
    }
    for (const [k, { a, n, country }] of [...extra].sort((x, y) => y[1].n - x[1].n)) {
      this.#add(k.split('|')[0] as string, {
        name: a.city as string,
        country,
        region: null,
        latitude: a.latitude,
        longitude: a.longitude,
        population: -1 / n,
        timezone: a.timezone,
        regionKeys: [],
      });
    }
  }

  #add(key: string, city: City): void {
    const list = this.#byName.get(key);
    if (list) list.push(city);
    else this.#byName.set(key, [city]);
  }

  /** Population of the city of this name in this country (0 when the city list has none). */
  population(name: string, country: string): number {
    const c = this.#named(name).find((x) => x.country === country);
    return c && c.population > 0 ? c.population : 0;
  }

  /** Cities of a name (former names included), most populous first. */
  cities(name: string): PlaceRef[] {
    return this.#named(name).map(ref);
  }

  #named(name: string): City[] {
    const key = normalize(name);
    const former = FORMER_NAMES[key];
    if (former) {
      const [now, country] = former;
      const hit = (this.#byName.get(normalize(now)) ?? []).filter((c) => c.country === country);
      if (hit.length > 0) return [...hit, ...(this.#byName.get(key) ?? []).filter((c) => !hit.includes(c))];
    }
    return this.#byName.get(key) ?? [];
  }

  /** A destination as callers write it, or why it names no place we know. */
  resolve(value: string): ResolvedPlace | UnknownPlace {
    const t = value.trim();
    const ll = COORDINATES.exec(t);
    if (ll) {
      const latitude = Number(ll[1]);
      const longitude = Number(ll[2]);
      if (Math.abs(latitude) > 90 || Math.abs(longitude) > 180)
        return { unknown: `${t} is not a place on Earth (latitude -90 to 90, longitude -180 to 180).` };
      return {
        kind: 'coordinates',
        name: t,
        country: '',
        region: null,
        latitude,
        longitude,
        code: null,
        timezone: null,
        alternatives: [],
      };
    }
    if (CODE.test(t))
      return this.code(t) ?? { unknown: `${t.toUpperCase()} is not a known airport or city code.` };
    const parts = t
      .split(',')
      .map((p) => p.trim())
      .filter((p) => p !== '');
    const [first, ...qualifiers] = parts;
    if (first !== undefined) {
      const hit = this.#city(first, qualifiers);
      if (hit) return hit;
      if (qualifiers.length > 0 && this.#named(first).length > 0)
        return {
          unknown: `No city ${first} in ${qualifiers.join(', ')}; known: ${this.#named(first).slice(0, 5).map(label).join('; ')}.`,
        };
      // "Dubai Marina, Dubai", "Atlantis The Palm, Dubai": the last part that is a city.
      for (let i = parts.length - 1; i > 0; i--) {
        const later = this.#city(parts[i] as string, parts.slice(i + 1));
        if (later) return { ...later, partial: true };
      }
    }
    return {
      unknown: `${t} is not a city we know; use a city name (add ", <country code>" to choose between cities of one name), an IATA city or airport code, or "lat,lon".`,
    };
  }

  /** An IATA metropolitan or airport code (any case): the city it serves. */
  code(value: string): ResolvedPlace | null {
    const c = value.toUpperCase();
    const metro = CITY_CODES[c];
    if (metro) {
      const [name, country] = metro;
      const city = this.#named(name).find((x) => x.country === country);
      if (city) return { ...place(city, 'city_code', []), code: c };
    }
    const a = this.#airports.get(c);
    if (!a) return null;
    const country = isoCode(a.country) ?? '';
    return {
      kind: 'airport',
      name: a.city ?? a.name,
      country,
      region: null,
      latitude: a.latitude,
      longitude: a.longitude,
      code: c,
      timezone: a.timezone,
      alternatives: [],
    };
  }

  #city(name: string, qualifiers: readonly string[]): ResolvedPlace | null {
    let list = this.#named(name);
    for (const q of qualifiers) list = list.filter((c) => qualifies(c, q));
    const best = list[0];
    if (!best) return null;
    const others = this.#named(name).filter((c) => c !== best);
    return place(best, 'city', others.map(ref));
  }
}

/** Whether a qualifier ("CA", "Canada", "US-ME", "Maine", "ME") names the city's country or region. */
function qualifies(c: City, q: string): boolean {
  const sub = /^([A-Za-z]{2})-([A-Za-z0-9]{1,3})$/.exec(q);
  if (sub)
    return (
      c.country === (sub[1] as string).toUpperCase() &&
      c.regionKeys.includes((sub[2] as string).toLowerCase())
    );
  if (/^[A-Za-z]{2}$/.test(q) && c.country === q.toUpperCase()) return true;
  const key = normalize(q);
  return isoCode(q) === c.country || c.regionKeys.includes(key);
}

const ref = (c: City): PlaceRef => ({ name: c.name, country: c.country, region: c.region });
const label = (c: City) => [c.name, c.region, c.country].filter(Boolean).join(', ');

function place(c: City, kind: ResolvedPlace['kind'], alternatives: PlaceRef[]): ResolvedPlace {
  return {
    kind,
    name: c.name,
    country: c.country,
    region: c.region,
    latitude: c.latitude,
    longitude: c.longitude,
    code: null,
    timezone: c.timezone,
    alternatives,
  };
}

let shared: Destinations | null = null;

/** The process-wide table, built on first use (~50 ms). */
export function destinations(): Destinations {
  shared ??= new Destinations();
  return shared;
}
