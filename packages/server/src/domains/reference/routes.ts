/**
 * GET /api/v1/airlines/search and /api/v1/airports/search. The kernel has validated `query` (2..50
 * characters), `limit` (1..50, default 10) and `country` against the contract; `near_lat`/`near_lon` are
 * optional airport-only additions (both or neither, degrees). The response mapping lives in `toBody` and
 * `withDistance` only.
 *
 * METHOD /path → operationId:
 *   GET /api/v1/airlines/search → searchAirlines
 *   GET /api/v1/airports/search → searchAirports
 */

import { ValidationError } from '../../kernel/errors.ts';
import type { Routes } from '../../kernel/types.ts';
import { DEFAULT_LIMIT, type ReferenceIndex, referenceIndex, type SearchResult } from './search.ts';

export interface ReferenceDeps {
  /** Defaults to the process-wide index (built on first use). */
  reference?: ReferenceIndex;
}

/**
 * The one place where the engine's result becomes the contract's body. `match_type` is the engine's tier
 * as is (the contract's `MatchType` enum lists exactly those: iata, icao, prefix, token, fuzzy).
 */
function toBody<T extends object>(
  query: string,
  r: SearchResult<T>,
): { items: T[]; total: number; query: string } {
  return { items: r.items, total: r.total, query };
}

/** Airports always carry `distance_km`: null outside a geographic search. */
const withDistance = <T extends { distance_km?: number }>(r: SearchResult<T>) => ({
  ...r,
  items: r.items.map((it) => ({ ...it, distance_km: it.distance_km ?? null })),
});

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return null;
};

function nearParams(q: Record<string, unknown>): { near_lat: number; near_lon: number } | null {
  const hasLat = q.near_lat !== undefined && q.near_lat !== null;
  const hasLon = q.near_lon !== undefined && q.near_lon !== null;
  if (!hasLat && !hasLon) return null;
  const lat = num(q.near_lat);
  const lon = num(q.near_lon);
  const issues = [];
  if (lat === null || lat < -90 || lat > 90) {
    issues.push({
      loc: ['query', 'near_lat'],
      msg: 'near_lat must be a latitude in -90..90 given together with near_lon',
      type: 'value_error',
    });
  }
  if (lon === null || lon < -180 || lon > 180) {
    issues.push({
      loc: ['query', 'near_lon'],
      msg: 'near_lon must be a longitude in -180..180 given together with near_lat',
      type: 'value_error',
    });
  }
  if (issues.length > 0 || lat === null || lon === null) throw new ValidationError(issues);
  return { near_lat: lat, near_lon: lon };
}

export function referenceRoutes(deps: ReferenceDeps = {}): Routes {
  const index = async () => deps.reference ?? (await referenceIndex());
  return {
    async searchAirlines(ctx) {
      const query = str(ctx.query.query) ?? '';
      const r = (await index()).searchAirlines({
        query,
        limit: num(ctx.query.limit) ?? DEFAULT_LIMIT,
        country: str(ctx.query.country),
      });
      return { status: 200, body: toBody(query, r) };
    },
    async searchAirports(ctx) {
      const query = str(ctx.query.query) ?? '';
      const r = (await index()).searchAirports({
        query,
        limit: num(ctx.query.limit) ?? DEFAULT_LIMIT,
        country: str(ctx.query.country),
        ...nearParams(ctx.query),
      });
      return { status: 200, body: toBody(query, withDistance(r)) };
    },
  };
}
