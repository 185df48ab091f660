/**
 * Airport search, ours against MiniSearch 7 (fuzzy 0.2 + prefix, boosted name/city/code fields) over the
 * same airports, in process: the same queries in interleaved rounds, p50/p99 per query in µs, and how
 * often each puts the expected airport first. `node bench/airports.ts` alone, or through peers.ts.
 */
import MiniSearch from 'minisearch';
import { referenceIndex } from '../src/domains/reference/search.ts';
import { loadAirports } from '../src/internal/places/data.ts';
import { AIRPORT_RANKING } from '../test/fixtures/airport-ranking.ts';

export async function airportBench(rounds: number) {
  const airports = loadAirports();
  const ours = await referenceIndex();
  const mini = new MiniSearch({
    fields: ['iata_code', 'icao_code', 'name', 'city'],
    storeFields: ['iata_code'],
    searchOptions: { boost: { iata_code: 3, city: 2 }, fuzzy: 0.2, prefix: true },
  });
  mini.addAll(airports);
  const queries = AIRPORT_RANKING.map((r) => r.query);
  const oursTop = (q: string) => ours.searchAirports({ query: q, limit: 10 }).items[0]?.iata_code;
  const miniTop = (q: string) => mini.search(q)[0]?.iata_code as string | undefined;
  for (let i = 0; i < 3; i++) {
    for (const q of queries) {
      oursTop(q);
      miniTop(q);
    }
  }
  const a: number[] = [];
  const b: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const q of queries) {
      let t = process.hrtime.bigint();
      oursTop(q);
      a.push(Number(process.hrtime.bigint() - t) / 1000);
      t = process.hrtime.bigint();
      miniTop(q);
      b.push(Number(process.hrtime.bigint() - t) / 1000);
    }
  }
  const pct = (xs: number[], p: number) => {
    const s = [...xs].sort((x, y) => x - y);
    return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? 0;
  };
  const top1 = (f: (q: string) => string | undefined) =>
    AIRPORT_RANKING.filter((r) => f(r.query) === r.expect).length;
  return {
    queries: queries.length,
    ours: { p50: pct(a, 50), p99: pct(a, 99), top1: top1(oursTop) },
    peer: { p50: pct(b, 50), p99: pct(b, 99), top1: top1(miniTop) },
  };
}

if (import.meta.main) console.log(await airportBench(300));
