/** Time is injected so that expiry, backoff and rate-limit windows are testable. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests move by hand. */
export class ManualClock implements Clock {
  #ms: number;
  constructor(start: Date | string | number = '2026-01-01T00:00:00Z') {
    this.#ms = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.#ms);
  }
  advance(ms: number): void {
    this.#ms += ms;
  }
  set(to: Date | string | number): void {
    this.#ms = new Date(to).getTime();
  }
}
