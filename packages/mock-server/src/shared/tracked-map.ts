/**
 * A Map that tells an observer which entries a request may have changed, so the journal (journal.ts)
 * writes only those. The emulators change their records in place (`order.status = 'CANCELLED'` after a
 * `get`), so a `get` counts as a possible change. Iterating (`values()`, `entries()`) is not observed: the
 * emulators iterate only to list and search, read-only; a handler that changes a record it found by
 * iterating must `get` or `set` it by key. Without an observer (in-memory emulators) it is a plain Map.
 */
export interface MapObserver {
  touch(map: TrackedMap<unknown, unknown>, key: unknown): void;
  cleared(map: TrackedMap<unknown, unknown>): void;
}

export class TrackedMap<K, V> extends Map<K, V> {
  observer: MapObserver | undefined;

  override get(key: K): V | undefined {
    if (this.observer && super.has(key)) this.observer.touch(this as TrackedMap<unknown, unknown>, key);
    return super.get(key);
  }

  override set(key: K, value: V): this {
    this.observer?.touch(this as TrackedMap<unknown, unknown>, key);
    return super.set(key, value);
  }

  override delete(key: K): boolean {
    this.observer?.touch(this as TrackedMap<unknown, unknown>, key);
    return super.delete(key);
  }

  override clear(): void {
    this.observer?.cleared(this as TrackedMap<unknown, unknown>);
    super.clear();
  }

  /** Reads without telling the observer: the journal's own access. */
  peek(key: K): V | undefined {
    return super.get(key);
  }
}
