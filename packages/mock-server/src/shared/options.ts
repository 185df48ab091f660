/**
 * Options every emulator takes. Defaults give realistic behaviour; tests and benchmarks pin them.
 */
export interface EmulatorOptions {
  /** Milliseconds since the epoch; drive offer, quote, token and session expiry from a test. */
  clock?: () => number;
  /** Added latency per request: a fixed number of ms, or a range sampled deterministically. 0 in tests. */
  latencyMs?: number | { min: number; max: number };
  /** Seed for the deterministic data generator. Same seed + same request = same data. */
  seed?: number;
}

export const realClock = (): number => Date.now();
