/**
 * A controllable clock shared by the emulators. Offers, quotes, tokens and sessions expire against it, so a
 * test can jump past an expiry instead of sleeping. Pass `clock.now` as `EmulatorOptions.clock`.
 */
export interface Clock {
  /** Milliseconds since the epoch, as `Date.now()`. */
  now: () => number;
  /** Move the clock forward (or back, with a negative value) by `ms`. */
  advance: (ms: number) => void;
  /** Pin the clock to an absolute time (ms since the epoch). */
  set: (ms: number) => void;
}

/**
 * Starts at `start` (default: real now) and then follows real time, shifted by every `advance`/`set`, so
 * latencies still elapse naturally. `frozen: true` stops it moving except through `advance`/`set`.
 */
export function createClock(opts: { start?: number; frozen?: boolean } = {}): Clock {
  const frozen = opts.frozen ?? false;
  let offset = opts.start === undefined ? 0 : opts.start - Date.now();
  let pinned = opts.start ?? Date.now();
  const now = (): number => (frozen ? pinned : Date.now() + offset);
  return {
    now,
    advance(ms: number): void {
      if (frozen) pinned += ms;
      else offset += ms;
    },
    set(ms: number): void {
      if (frozen) pinned = ms;
      else offset = ms - Date.now();
    },
  };
}
