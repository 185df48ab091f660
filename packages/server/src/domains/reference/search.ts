/**
 * Airport and airline search over the in-memory index (see text-index.ts for the matching tiers).
 *
 * Ranking: by `similarity_score`, then (airports) the main airport of an IATA city code (ROM: FCO before
 * CIA), then importance from a shipped data source (OurAirports' class: large, medium, other;
 * `loadAirportImportance`), then the population of the airport's city in millions (`places.ts`: Birmingham
 * GB before Birmingham, Alabama), then names containing "International", then an
 * airport whose name holds the query as words before one that only lies in that place (Dubai
 * International before Al Maktoum, city Dubai), then the longest runway, then name. With `near_lat` + `near_lon`, results
 * are ranked by distance within three groups: code matches, name/city matches, typo matches; so a nearby
 * typo match never outranks a real match. `total` counts every match after the country filter, before
 * `limit`.
 */

import { CITY_CODES, FORMER_NAMES } from '../../internal/places/city-codes.ts';
import { countryKey, filterKey, isoCode } from '../../internal/places/countries.ts';
import {
  type Airline,
  type Airport,
  loadAirlines,
  loadAirportImportance,
  loadAirports,
} from '../../internal/places/data.ts';
import { normalize } from '../../internal/places/normalize.ts';
import { type Destinations, destinations } from '../../internal/places/places.ts';
import { GeoIndex } from './geo.ts';
import { MATCH_TYPES, type MatchType, TextIndex, TYPE_GROUP } from './text-index.ts';

export interface AirportSearchParams {
  query: string;
  limit?: number;
  /** Country name or ISO 3166-1 alpha-2 code, case-insensitive. */
  country?: string | null;
  /** Both or neither: rank by distance from this point and add `distance_km`. */
  near_lat?: number | null;
  near_lon?: number | null;
}

export interface AirlineSearchParams {
  query: string;
  limit?: number;
  country?: string | null;
}

export interface AirportResult {
  id: number;
  name: string;
  iata_code: string;
  icao_code: string | null;
  city: string | null;
  country: string;
  latitude: number;
  longitude: number;
  timezone: string | null;
  match_type: MatchType;
  similarity_score: number;
  distance_km?: number;
}

export interface AirlineResult {
  id: number;
  name: string;
  iata_code: string;
  icao_code: string | null;
  country: string | null;
  match_type: MatchType;
  similarity_score: number;
}

export interface SearchResult<T> {
  items: T[];
  total: number;
}

export interface ReferenceIndex {
  airportCount: number;
  airlineCount: number;
  searchAirports(p: AirportSearchParams): SearchResult<AirportResult>;
  searchAirlines(p: AirlineSearchParams): SearchResult<AirlineResult>;
}

export const DEFAULT_LIMIT = 10;

function countryFilter(keys: readonly string[], country: string | null | undefined): (d: number) => boolean {
  if (country === undefined || country === null || country.trim() === '') return () => true;
  const want = filterKey(country);
  return (d) => keys[d] === want;
}

function clampLimit(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return DEFAULT_LIMIT;
  return Math.max(0, Math.floor(limit));
}

export function createReferenceIndex(
  airports: readonly Airport[] = loadAirports(),
  airlines: readonly Airline[] = loadAirlines(),
  /** IATA code -> `class * 100_000 + runway_ft` (see `loadAirportImportance`); empty: no importance. */
  importance: ReadonlyMap<string, number> = new Map(),
  places: Pick<Destinations, 'population'> = destinations(),
): ReferenceIndex {
  const cities = cityNames(airports);
  const maxImportance = Math.max(1, ...importance.values());
  const apIndex = new TextIndex(
    airports.map((a) => ({
      fields: [a.name, ...(a.city ? [a.city] : []), ...(cities.former.get(a.id) ?? [])],
      iata: a.iata_code,
      icao: a.icao_code,
      cityCode: cities.code.get(a.id) ?? null,
      weight: (importance.get(a.iata_code) ?? 0) / maxImportance,
    })),
  );
  const apMain = Uint8Array.from(airports, (a) => (MAIN_AIRPORTS.has(a.iata_code) ? 1 : 0));
  // Cities of one name: the most populous first (Birmingham GB before Birmingham, Alabama), by millions.
  const apCity = Float64Array.from(airports, (a) =>
    a.city ? Math.floor(places.population(a.city, isoCode(a.country) ?? '') / 1_000_000) : 0,
  );
  const apCountry = airports.map((a) => countryKey(a.country));
  const apWeight = Uint8Array.from(airports, (a) => (/\binternational\b/i.test(a.name) ? 1 : 0));
  const apRank = nameRanks(airports);
  const apImportance = Float64Array.from(airports, (a) => importance.get(a.iata_code) ?? 0);
  const apClass = Uint8Array.from(apImportance, (v) => Math.floor(v / 100_000));
  const apName = airports.map((a) => ` ${normalize(a.name)} `);
  const apGeo = new GeoIndex(airports);
  const alIndex = new TextIndex(
    airlines.map((a) => ({
      fields: a.alias ? [a.name, a.alias] : [a.name],
      iata: a.iata_code,
      icao: a.icao_code,
    })),
  );
  const alCountry = airlines.map((a) => (a.country ? countryKey(a.country) : ''));
  const alRank = nameRanks(airlines);

  return {
    airportCount: airports.length,
    airlineCount: airlines.length,

    searchAirports(p) {
      const { docs, score, type } = apIndex.search(p.query, countryFilter(apCountry, p.country));
      const limit = clampLimit(p.limit);
      const near =
        typeof p.near_lat === 'number' && typeof p.near_lon === 'number'
          ? { lat: p.near_lat, lon: p.near_lon }
          : null;
      if (near) {
        // Rank on the haversine term (monotonic in distance); km only for the rows we return.
        const key = apGeo.rankKeys(near.lat, near.lon, docs);
        const top = topK(
          docs,
          limit,
          (x, y) =>
            (TYPE_GROUP[type[x] as number] as number) - (TYPE_GROUP[type[y] as number] as number) ||
            (key[x] as number) - (key[y] as number) ||
            (score[y] as number) - (score[x] as number) ||
            (apRank[x] as number) - (apRank[y] as number),
        );
        const items = top.map((d) => ({
          ...airportItem(airports[d] as Airport, type[d] as number, score[d] as number),
          distance_km: Math.round(apGeo.km(key[d] as number) * 10) / 10,
        }));
        return { items, total: docs.length };
      }
      // Only reached on ties, and then cached: whether the airport's own name holds the query as words.
      const q = ` ${normalize(p.query)} `;
      const named = new Map<number, number>();
      const inName = (d: number) => {
        let v = named.get(d);
        if (v === undefined) {
          v = q.length > 2 && (apName[d] as string).includes(q) ? 1 : 0;
          named.set(d, v);
        }
        return v;
      };
      const top = topK(
        docs,
        limit,
        (x, y) =>
          (score[y] as number) - (score[x] as number) ||
          (apMain[y] as number) - (apMain[x] as number) ||
          (apClass[y] as number) - (apClass[x] as number) ||
          (apCity[y] as number) - (apCity[x] as number) ||
          (apWeight[y] as number) - (apWeight[x] as number) ||
          inName(y) - inName(x) ||
          (apImportance[y] as number) - (apImportance[x] as number) ||
          (apRank[x] as number) - (apRank[y] as number),
      );
      const items = top.map((d) =>
        airportItem(airports[d] as Airport, type[d] as number, score[d] as number),
      );
      return { items, total: docs.length };
    },

    searchAirlines(p) {
      const { docs, score, type } = alIndex.search(p.query, countryFilter(alCountry, p.country));
      const top = topK(
        docs,
        clampLimit(p.limit),
        (x, y) =>
          (score[y] as number) - (score[x] as number) || (alRank[x] as number) - (alRank[y] as number),
      );
      const items = top.map((d): AirlineResult => {
        const a = airlines[d] as Airline;
        return {
          id: a.id,
          name: a.name,
          iata_code: a.iata_code,
          icao_code: a.icao_code,
          country: a.country,
          match_type: MATCH_TYPES[type[d] as number] as MatchType,
          similarity_score: score[d] as number,
        };
      });
      return { items, total: docs.length };
    },
  };
}

/** The main airport of each IATA metropolitan code (ROM: FCO, not Ciampino), ranked first among equals. */
const MAIN_AIRPORTS = new Set(Object.values(CITY_CODES).map((c) => c[2]));

/**
 * By airport id: the metropolitan code of its city (the city and country of that code's main airport), and
 * the city's former names (Bombay for BOM, Peking for PEK), so a search finds either.
 */
function cityNames(airports: readonly Airport[]): {
  code: Map<number, string>;
  former: Map<number, string[]>;
} {
  const key = (a: Airport) => (a.city ? `${normalize(a.city)}|${isoCode(a.country) ?? a.country}` : '');
  const byIata = new Map(airports.map((a) => [a.iata_code, a]));
  const metro = new Map<string, string>();
  for (const [code, [, , main]] of Object.entries(CITY_CODES)) {
    const a = byIata.get(main);
    if (a && !byIata.has(code)) metro.set(key(a), code);
  }
  const formerOf = new Map<string, string[]>();
  for (const [former, [now, country]] of Object.entries(FORMER_NAMES)) {
    const k = `${normalize(now)}|${country}`;
    formerOf.set(k, [...(formerOf.get(k) ?? []), former]);
  }
  const code = new Map<number, string>();
  const former = new Map<number, string[]>();
  for (const a of airports) {
    const k = key(a);
    const m = metro.get(k);
    if (m) code.set(a.id, m);
    const f = formerOf.get(k);
    if (f) former.set(a.id, f);
  }
  return { code, former };
}

/** Position of each row in (name, id) order, so tie-breaks compare integers instead of strings. */
function nameRanks(rows: readonly { name: string; id: number }[]): Int32Array {
  const order = rows.map((_, i) => i);
  order.sort((x, y) => {
    const a = rows[x] as { name: string; id: number };
    const b = rows[y] as { name: string; id: number };
    return a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id;
  });
  const rank = new Int32Array(rows.length);
  order.forEach((doc, i) => {
    rank[doc] = i;
  });
  return rank;
}

/**
 * The best `k` hits in order, without sorting them all: a broad query ("airport") matches thousands of
 * rows but we return at most 50, so keeping a small sorted window is O(n·k) worst case and ~O(n) in
 * practice (most hits lose to the current worst and are rejected by one comparison).
 */
export function topK<T>(items: readonly T[], k: number, cmp: (a: T, b: T) => number): T[] {
  const out: T[] = [];
  if (k <= 0) return out;
  for (const it of items) {
    if (out.length === k && cmp(it, out[k - 1] as T) >= 0) continue;
    let i = out.length === k ? k - 1 : out.length;
    while (i > 0 && cmp(it, out[i - 1] as T) < 0) {
      out[i] = out[i - 1] as T;
      i--;
    }
    out[i] = it;
  }
  return out;
}

function airportItem(a: Airport, type: number, score: number): AirportResult {
  return {
    id: a.id,
    name: a.name,
    iata_code: a.iata_code,
    icao_code: a.icao_code,
    city: a.city,
    country: a.country,
    latitude: a.latitude,
    longitude: a.longitude,
    timezone: a.timezone,
    match_type: MATCH_TYPES[type] as MatchType,
    similarity_score: score,
  };
}

let shared: Promise<ReferenceIndex> | null = null;

/** The process-wide index with airport importance, built on first use (~100 ms: call it at start). */
export function referenceIndex(): Promise<ReferenceIndex> {
  shared ??= loadAirportImportance().then((importance) =>
    createReferenceIndex(loadAirports(), loadAirlines(), importance),
  );
  return shared;
}
