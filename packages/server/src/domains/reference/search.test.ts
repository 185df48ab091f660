import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { OpenApiDoc } from '../../kernel/contract.ts';
import { ResponseValidator } from '../../kernel/response-validator.ts';
import { handlerTable, type RequestContext } from '../../kernel/types.ts';
import { boundedDistance } from './distance.ts';
import { haversineKm } from './geo.ts';
import { referenceRoutes } from './routes.ts';
import { createReferenceIndex, topK } from './search.ts';

const idx = createReferenceIndex();

describe('reference data', () => {
  it('loads every airport with an IATA code and every active airline', () => {
    // 5,614 from the OpenFlights snapshot plus the 9 large airports newer than it (data.ts).
    expect(idx.airportCount).toBe(5614 + 9);
    expect(idx.searchAirports({ query: 'DOH' }).items[0]?.iata_code).toBe('DOH');
    expect(idx.airlineCount).toBe(967);
    expect(idx.searchAirlines({ query: 'Unknown' }).items.map((a) => a.name)).not.toContain('Unknown');
  });
});

describe('searchAirports', () => {
  it.each([
    ['LHR', 'LHR', 'iata'],
    ['lhr', 'LHR', 'iata'],
    ['EGLL', 'LHR', 'icao'],
    ['heathrow', 'LHR', 'token'],
    ['london heathrow', 'LHR', 'prefix'],
    ['heathrw', 'LHR', 'fuzzy'],
    ['san fran', 'SFO', 'prefix'],
    ['frankfrt', 'FRA', 'fuzzy'],
    ['kennedy', 'JFK', 'token'],
  ])('%s -> %s (%s)', (query, iata, matchType) => {
    const r = idx.searchAirports({ query, limit: 5 });
    const first = r.items[0];
    expect(first?.iata_code).toBe(iata);
    expect(first?.match_type).toBe(matchType);
  });

  it('returns full items with scores in 0..1, ranked', () => {
    const r = idx.searchAirports({ query: 'london', limit: 50 });
    expect(r.items.map((a) => a.iata_code)).toEqual(
      expect.arrayContaining(['LHR', 'LGW', 'STN', 'LCY', 'LTN']),
    );
    const lhr = r.items.find((a) => a.iata_code === 'LHR');
    expect(lhr).toMatchObject({
      name: 'London Heathrow Airport',
      icao_code: 'EGLL',
      city: 'London',
      country: 'United Kingdom',
      timezone: 'Europe/London',
    });
    const scores = r.items.map((a) => a.similarity_score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    for (const s of scores) expect(s).toBeGreaterThan(0);
    for (const s of scores) expect(s).toBeLessThanOrEqual(1);
  });

  it('matches by city', () => {
    const r = idx.searchAirports({ query: 'dubai' });
    expect(r.items.map((a) => a.iata_code)).toContain('DXB');
  });

  it('ranks a code match above name matches', () => {
    const r = idx.searchAirports({ query: 'PAR', limit: 3 });
    expect(r.items[0]?.match_type).not.toBe('fuzzy');
    const r2 = idx.searchAirports({ query: 'CDG' });
    expect(r2.items[0]?.iata_code).toBe('CDG');
  });

  it.each([['United Kingdom'], ['united kingdom'], ['GB'], ['gb'], ['UK']])(
    'filters by country %s',
    (country) => {
      const r = idx.searchAirports({ query: 'london', country, limit: 50 });
      expect(r.total).toBeGreaterThan(3);
      for (const a of r.items) expect(a.country).toBe('United Kingdom');
      expect(r.items.map((a) => a.iata_code)).not.toContain('YXU');
    },
  );

  it('country filter applies to code matches too', () => {
    expect(idx.searchAirports({ query: 'LHR', country: 'FR' }).total).toBe(0);
  });

  it('limit caps items but not total', () => {
    const r = idx.searchAirports({ query: 'international', limit: 3 });
    expect(r.items).toHaveLength(3);
    expect(r.total).toBeGreaterThan(500);
  });

  it('near_lat/near_lon add distance_km and sort by it', () => {
    const r = idx.searchAirports({ query: 'london', near_lat: 42.98, near_lon: -81.25, limit: 5 });
    expect(r.items[0]?.iata_code).toBe('YXU');
    const d = r.items.map((a) => a.distance_km ?? -1);
    expect(d[0]).toBeLessThan(20);
    expect([...d].sort((a, b) => a - b)).toEqual(d);
    expect(idx.searchAirports({ query: 'london' }).items[0]?.distance_km).toBeUndefined();
  });

  it('returns an empty result', () => {
    expect(idx.searchAirports({ query: 'qqxzzv' })).toEqual({ items: [], total: 0 });
    expect(idx.searchAirports({ query: '  !! ' })).toEqual({ items: [], total: 0 });
  });
});

describe('searchAirlines', () => {
  it.each([
    ['EK', 'EK', 'iata'],
    ['UAE', 'EK', 'icao'],
    ['emirates', 'EK', 'prefix'],
    ['emirtes', 'EK', 'fuzzy'],
    ['british airways', 'BA', 'prefix'],
    ['lufthansa', 'LH', 'prefix'],
    ['luftansa', 'LH', 'fuzzy'],
  ])('%s -> %s (%s)', (query, iata, matchType) => {
    const first = idx.searchAirlines({ query, limit: 5 }).items[0];
    expect(first?.iata_code).toBe(iata);
    expect(first?.match_type).toBe(matchType);
  });

  it('filters by country name or code', () => {
    const r = idx.searchAirlines({ query: 'air', country: 'AE', limit: 50 });
    expect(r.total).toBeGreaterThan(0);
    for (const a of r.items) expect(a.country).toBe('United Arab Emirates');
    expect(idx.searchAirlines({ query: 'emirates', country: 'germany' }).total).toBe(0);
  });

  it('returns only the contract fields', () => {
    const first = idx.searchAirlines({ query: 'EK' }).items[0];
    expect(Object.keys(first ?? {}).sort()).toEqual(
      ['country', 'iata_code', 'icao_code', 'id', 'match_type', 'name', 'similarity_score'].sort(),
    );
  });
});

describe('helpers', () => {
  it.each([
    ['heathrow', 'heathrw', 1, 1],
    ['heathrow', 'heatrhow', 1, 1],
    ['emirates', 'emirtes', 1, 1],
    ['london', 'paris', 2, 3],
    ['abc', 'abc', 0, 0],
  ])('boundedDistance(%s, %s, %d) = %d', (a, b, max, want) => {
    expect(boundedDistance(a, b, max)).toBe(want);
  });

  it('boundedDistance agrees with the full optimal-string-alignment table on every pair', () => {
    // The full (unbanded) table, capped as boundedDistance caps it.
    const osa = (a: string, b: string): number => {
      const d = Array.from({ length: a.length + 1 }, (_, i) =>
        Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
      );
      for (let i = 1; i <= a.length; i++)
        for (let j = 1; j <= b.length; j++) {
          const row = d[i] as number[];
          const up = d[i - 1] as number[];
          let v = Math.min(
            (up[j] as number) + 1,
            (row[j - 1] as number) + 1,
            (up[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
          );
          if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
            v = Math.min(v, ((d[i - 2] as number[])[j - 2] as number) + 1);
          row[j] = v;
        }
      return (d[a.length] as number[])[b.length] as number;
    };
    // Every string over a small alphabet up to length 5 against a fixed set: small alphabets make
    // transpositions, repeats and near-misses common.
    const words: string[] = [''];
    for (let n = 0; n < 4; n++)
      for (const w of [...words]) if (w.length === n) for (const c of 'abc') words.push(w + c);
    const targets = ['abca', 'cab', 'bcab', 'aabcc', 'ba', 'abcabc', 'c'];
    let checked = 0;
    for (const a of words)
      for (const b of targets)
        for (const max of [0, 1, 2]) {
          const want = Math.min(osa(a, b), max + 1);
          expect([a, b, max, boundedDistance(a, b, max)]).toEqual([a, b, max, want]);
          checked++;
        }
    expect(checked).toBe(words.length * targets.length * 3);
  });

  it('haversine LHR-JFK is about 5540 km', () => {
    expect(haversineKm(51.47, -0.4619, 40.6398, -73.7789)).toBeGreaterThan(5500);
    expect(haversineKm(51.47, -0.4619, 40.6398, -73.7789)).toBeLessThan(5600);
  });

  it('topK keeps the k best in order', () => {
    expect(topK([5, 1, 4, 2, 3, 0], 3, (a, b) => a - b)).toEqual([0, 1, 2]);
    expect(topK([1, 2], 0, (a, b) => a - b)).toEqual([]);
  });
});

describe('referenceRoutes', () => {
  const routes = handlerTable(referenceRoutes({ reference: idx }));
  const ctx = (query: Record<string, unknown>) => ({ query }) as unknown as RequestContext;

  it('searchAirports answers 200 {items, total, query}', async () => {
    const res = await routes.searchAirports?.(ctx({ query: 'heathrw', limit: 5 }));
    expect(res).toMatchObject({ status: 200, body: { total: 1, query: 'heathrw' } });
  });

  it('searchAirlines answers 200', async () => {
    const res = await routes.searchAirlines?.(ctx({ query: 'EK', limit: 10 }));
    expect(res).toMatchObject({ status: 200, body: { total: 1, items: [{ iata_code: 'EK' }] } });
  });

  it('rejects near_lat without near_lon', async () => {
    await expect(routes.searchAirports?.(ctx({ query: 'london', near_lat: 10 }))).rejects.toThrow(/near_lon/);
  });

  // Review M3: `prefix` (and `iata`, `icao`, `token`) reached clients outside the contract's enum, and
  // `distance_km` (required) was left out of non-geographic searches.
  const contract = JSON.parse(
    readFileSync(new URL('../../../../../openapi.json', import.meta.url), 'utf8'),
  ) as OpenApiDoc;
  const validator = new ResponseValidator(contract);
  const enumOf = (contract.components?.schemas?.MatchType as { enum: string[] } | undefined)?.enum ?? [];

  it.each([
    ['LHR', 'iata'],
    ['EGLL', 'icao'],
    ['london heathrow', 'prefix'],
    ['heathrow', 'token'],
    ['heathrw', 'fuzzy'],
  ])(
    'searchAirports %s: first match %s; every body matches the contract, distance_km null',
    async (query, first) => {
      const res = (await routes.searchAirports?.(ctx({ query, limit: 10 }))) as {
        status: number;
        body: { items: { match_type: string; distance_km: unknown }[] };
      };
      expect(res.body.items[0]?.match_type).toBe(first);
      for (const it of res.body.items) {
        expect(enumOf).toContain(it.match_type);
        expect(it).toHaveProperty('distance_km', null);
      }
      expect(validator.problems('searchAirports', 200, res.body)).toEqual([]);
    },
  );

  it('searchAirports near a point: distance_km is a number on every item', async () => {
    const res = (await routes.searchAirports?.(ctx({ query: 'london', near_lat: 51.5, near_lon: -0.1 }))) as {
      body: { items: { distance_km: unknown }[] };
    };
    expect(res.body.items.length).toBeGreaterThan(0);
    for (const it of res.body.items) expect(it.distance_km).toEqual(expect.any(Number));
    expect(validator.problems('searchAirports', 200, res.body)).toEqual([]);
  });

  it.each([
    ['EK', 'iata'],
    ['UAE', 'icao'],
    ['british airways', 'prefix'],
    ['emirats', 'fuzzy'],
  ])('searchAirlines %s: first match %s; every body matches the contract', async (query, first) => {
    const res = (await routes.searchAirlines?.(ctx({ query, limit: 10 }))) as {
      body: { items: { match_type: string }[] };
    };
    expect(res.body.items[0]?.match_type).toBe(first);
    for (const it of res.body.items) expect(enumOf).toContain(it.match_type);
    expect(validator.problems('searchAirlines', 200, res.body)).toEqual([]);
  });
});
