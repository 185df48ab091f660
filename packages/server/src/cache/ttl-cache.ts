import type { Clock } from '../internal/clock.ts';
import { systemClock } from '../internal/clock.ts';

export interface CacheStats {
  kind: 'in-process';
  entries: number;
  hits: number;
  misses: number;
  sets: number;
  evictions: number;
  hit_ratio: number;
  max_entries: number;
  /** Entries per key prefix (the part before the first ':'). */
  key_distribution: Record<string, number>;
}

/**
 * A small in-process TTL cache with a size bound (oldest entry evicted first). It is per process: it
 * holds derived data only (status lookups, reference data), never anything that must be shared.
 */
export class TtlCache {
  readonly #entries = new Map<string, { value: unknown; expiresAt: number }>();
  readonly #clock: Clock;
  readonly #maxEntries: number;
  #hits = 0;
  #misses = 0;
  #sets = 0;
  #evictions = 0;

  constructor(opts: { clock?: Clock; maxEntries?: number } = {}) {
    this.#clock = opts.clock ?? systemClock;
    this.#maxEntries = opts.maxEntries ?? 10_000;
  }

  get<T>(key: string): T | undefined {
    const e = this.#entries.get(key);
    if (!e || e.expiresAt <= this.#clock.now().getTime()) {
      if (e) this.#entries.delete(key);
      this.#misses += 1;
      return undefined;
    }
    this.#hits += 1;
    return e.value as T;
  }

  set(key: string, value: unknown, ttlMs: number): void {
    this.#entries.delete(key);
    if (this.#entries.size >= this.#maxEntries) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) {
        this.#entries.delete(oldest.value);
        this.#evictions += 1;
      }
    }
    this.#entries.set(key, { value, expiresAt: this.#clock.now().getTime() + ttlMs });
    this.#sets += 1;
  }

  async getOrLoad<T>(key: string, ttlMs: number, load: () => Promise<T>): Promise<T> {
    const hit = this.get<T>(key);
    if (hit !== undefined) return hit;
    const value = await load();
    this.set(key, value, ttlMs);
    return value;
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }

  /** Removes every key starting with `prefix` (all keys when empty); returns how many. */
  clear(prefix = ''): number {
    let n = 0;
    for (const k of [...this.#entries.keys()]) {
      if (k.startsWith(prefix)) {
        this.#entries.delete(k);
        n += 1;
      }
    }
    return n;
  }

  /** Drops expired entries; returns how many. */
  prune(): number {
    const now = this.#clock.now().getTime();
    let n = 0;
    for (const [k, e] of this.#entries) {
      if (e.expiresAt <= now) {
        this.#entries.delete(k);
        n += 1;
      }
    }
    return n;
  }

  stats(): CacheStats {
    const dist: Record<string, number> = {};
    for (const k of this.#entries.keys()) {
      const prefix = k.split(':')[0] ?? k;
      dist[prefix] = (dist[prefix] ?? 0) + 1;
    }
    const lookups = this.#hits + this.#misses;
    return {
      kind: 'in-process',
      entries: this.#entries.size,
      hits: this.#hits,
      misses: this.#misses,
      sets: this.#sets,
      evictions: this.#evictions,
      hit_ratio: lookups === 0 ? 0 : this.#hits / lookups,
      max_entries: this.#maxEntries,
      key_distribution: dist,
    };
  }
}
