/**
 * Deterministic randomness: the same seed and the same request give the same data, so tests and examples
 * can rely on what a search returns while the data still varies realistically between requests.
 */

/** mulberry32: a tiny, fast 32-bit PRNG; plenty for test data (not for anything secret). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** FNV-1a 32-bit hash of a string: turns a request's identifying fields into a seed. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Helpers over one seeded stream. */
export interface Rng {
  /** [0, 1) */
  next: () => number;
  /** Integer in [min, max] inclusive. */
  int: (min: number, max: number) => number;
  pick: <T>(items: readonly T[]) => T;
  bool: (pTrue?: number) => boolean;
  /** Uppercase letters and digits, e.g. for PNRs and references. */
  code: (length: number, alphabet?: string) => string;
}

/** A seeded stream for one request: `rngFor(options.seed, 'search', origin, destination, date)`. */
export function rngFor(seed: number | undefined, ...parts: (string | number)[]): Rng {
  const next = mulberry32(hashString(`${seed ?? 0}|${parts.join('|')}`));
  return createRng(next);
}

export function createRng(next: () => number): Rng {
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    pick<T>(items: readonly T[]): T {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[int(0, items.length - 1)] as T;
    },
    bool: (pTrue = 0.5): boolean => next() < pTrue,
    code(length: number, alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'): string {
      let out = '';
      for (let i = 0; i < length; i++) out += alphabet[int(0, alphabet.length - 1)];
      return out;
    },
  };
}
