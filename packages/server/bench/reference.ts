/**
 * Reference search latency on the full data set: `node bench/reference.ts`. Prints index build time and
 * p50/p99/max per query over a mixed workload (codes, prefixes, multi-token names, typos, country filter,
 * near sort), after a warm-up so the JIT has settled as it would in a running server.
 */

import { createReferenceIndex } from '../src/domains/reference/search.ts';

const t0 = performance.now();
const idx = createReferenceIndex();
const buildMs = performance.now() - t0;

type Q = () => unknown;
const airportQueries = [
  'LHR',
  'EGLL',
  'lon',
  'london',
  'heathrw',
  'new york',
  'san fran',
  'dubai',
  'in',
  'airport',
  'internatonal',
  'frankfrt',
  'par',
  'kennedy',
  'chicago ohare',
  'xy',
];
const airlineQueries = ['EK', 'UAE', 'emirtes', 'british', 'air', 'lufthansa', 'qatar airways', 'singapre'];
const workload: Q[] = [
  ...airportQueries.map((query) => () => idx.searchAirports({ query, limit: 10 })),
  ...airportQueries.map((query) => () => idx.searchAirports({ query, limit: 10, country: 'GB' })),
  ...airportQueries.map(
    (query) => () => idx.searchAirports({ query, limit: 10, near_lat: 51.5, near_lon: -0.12 }),
  ),
  ...airlineQueries.map((query) => () => idx.searchAirlines({ query, limit: 10 })),
];

for (let i = 0; i < 2000; i++) (workload[i % workload.length] as Q)();

const ROUNDS = 400;
const samples: number[] = [];
const perQuery = new Map<number, number>();
for (let r = 0; r < ROUNDS; r++) {
  workload.forEach((q, i) => {
    const s = process.hrtime.bigint();
    q();
    const us = Number(process.hrtime.bigint() - s) / 1000;
    samples.push(us);
    perQuery.set(i, Math.max(perQuery.get(i) ?? 0, us));
  });
}
samples.sort((a, b) => a - b);
const pct = (p: number) =>
  samples[Math.min(samples.length - 1, Math.ceil((p / 100) * samples.length) - 1)] ?? 0;
console.log(
  `index: ${idx.airportCount} airports, ${idx.airlineCount} airlines, built in ${buildMs.toFixed(1)} ms`,
);
console.log(
  `queries: ${samples.length}  p50 ${pct(50).toFixed(1)} µs  p95 ${pct(95).toFixed(1)} µs  p99 ${pct(99).toFixed(1)} µs  max ${(samples.at(-1) ?? 0).toFixed(1)} µs`,
);
