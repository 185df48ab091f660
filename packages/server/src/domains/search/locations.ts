/**
 * Which places a search may name, and their time zones, from the reference data (`domains/reference`:
 * OpenFlights airports with IATA codes, coordinates and IANA zones). A code nobody knows is refused at
 * search (422 `unknown_location`) instead of being sent to the suppliers, whose sandboxes would make up
 * offers for it.
 */
import { type Airport, loadAirports } from '../reference/data.ts';
import { GeoIndex } from '../reference/geo.ts';
import { normalize } from '../reference/normalize.ts';

/** IATA metropolitan-area codes: they name a city, not an airport (the airport data has none of them). */
const CITY_CODES: Record<string, { city: string; country: string }> = {
  LON: { city: 'London', country: 'United Kingdom' },
  NYC: { city: 'New York', country: 'United States' },
  PAR: { city: 'Paris', country: 'France' },
  MIL: { city: 'Milan', country: 'Italy' },
  ROM: { city: 'Rome', country: 'Italy' },
  TYO: { city: 'Tokyo', country: 'Japan' },
  OSA: { city: 'Osaka', country: 'Japan' },
  SPK: { city: 'Sapporo', country: 'Japan' },
  WAS: { city: 'Washington', country: 'United States' },
  CHI: { city: 'Chicago', country: 'United States' },
  DTT: { city: 'Detroit', country: 'United States' },
  QDF: { city: 'Dallas-Fort Worth', country: 'United States' },
  YTO: { city: 'Toronto', country: 'Canada' },
  YMQ: { city: 'Montreal', country: 'Canada' },
  STO: { city: 'Stockholm', country: 'Sweden' },
  MOW: { city: 'Moscow', country: 'Russia' },
  BJS: { city: 'Beijing', country: 'China' },
  SEL: { city: 'Seoul', country: 'South Korea' },
  JKT: { city: 'Jakarta', country: 'Indonesia' },
  SAO: { city: 'Sao Paulo', country: 'Brazil' },
  RIO: { city: 'Rio De Janeiro', country: 'Brazil' },
  BUE: { city: 'Buenos Aires', country: 'Argentina' },
  BUH: { city: 'Bucharest', country: 'Romania' },
  REK: { city: 'Reykjavik', country: 'Iceland' },
  TCI: { city: 'Tenerife', country: 'Spain' },
  EAP: { city: 'Basel', country: 'Switzerland' },
};

/** City names hotel suppliers take that are not an airport's city in the data. */
const CITY_ALIASES = ['majorca', 'mallorca', 'palma', 'dallas fort worth', 'new york city'];

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
  readonly #cityZone = new Map<string, string | null>();
  readonly #cityNames: Set<string>;
  readonly #zoned: Airport[];
  readonly #geo: GeoIndex;
  readonly #all: number[];

  constructor(airports: readonly Airport[] = loadAirports()) {
    this.#airports = new Map(airports.map((a) => [a.iata_code, a]));
    this.#cityNames = new Set([
      ...airports.flatMap((a) => (a.city ? [normalize(a.city)] : [])),
      ...Object.values(CITY_CODES).map((c) => normalize(c.city)),
      ...CITY_ALIASES,
    ]);
    for (const [code, c] of Object.entries(CITY_CODES)) {
      const hit = airports.find(
        (a) => a.timezone && a.country === c.country && a.city && normalize(a.city) === normalize(c.city),
      );
      this.#cityZone.set(code, hit?.timezone ?? null);
    }
    this.#zoned = airports.filter((a) => a.timezone);
    this.#geo = new GeoIndex(this.#zoned);
    this.#all = this.#zoned.map((_, i) => i);
  }

  /** An IATA airport or metropolitan-area code (any case), or null when the data knows neither. */
  code(code: string): Extract<Place, { kind: 'airport' | 'city' }> | null {
    const c = code.toUpperCase();
    const a = this.#airports.get(c);
    if (a) return { kind: 'airport', code: c, timezone: a.timezone };
    if (this.#cityZone.has(c)) return { kind: 'city', code: c, timezone: this.#cityZone.get(c) ?? null };
    return null;
  }

  /** Whether a city name, or one comma-separated part of it ("Dubai Marina, Dubai"), is a city of the data. */
  knownCity(name: string): boolean {
    return [name, ...name.split(',')].some((part) => this.#cityNames.has(normalize(part)));
  }

  /** The time zone of the airport nearest to a point. */
  nearestZone(latitude: number, longitude: number): string | null {
    const keys = this.#geo.rankKeys(latitude, longitude, this.#all);
    let best = -1;
    for (const i of this.#all) if (best < 0 || (keys[i] as number) < (keys[best] as number)) best = i;
    return best < 0 ? null : (this.#zoned[best]?.timezone ?? null);
  }

  /**
   * A transfer point or hotel destination: three letters are a code (as the suppliers read them),
   * "lat,lon" coordinates (in range), anything else free text (an address, a hotel or city name).
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
    return { kind: 'text', timezone: null };
  }
}

let shared: Locations | null = null;

/** The process-wide table, built on first use. */
export function locations(): Locations {
  shared ??= new Locations();
  return shared;
}
