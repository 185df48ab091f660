/**
 * Per-supplier circuit breaker: closed -> open after `failureThreshold` failures within the rolling
 * `windowMs`; open -> half-open once `openDurationMs` has passed; half-open lets at most
 * `halfOpenMaxProbes` calls through at a time and closes after `halfOpenSuccesses` successes, or reopens on
 * the first failure. The clock is injected so tests run without sleeping.
 *
 * Late results are ignored while open (a slow call that started before the breaker opened must not
 * count twice or close it). A caller that got `canPass() === true` must report exactly one of
 * `onSuccess`, `onFailure` or `onCancel` (the last frees a half-open probe slot without a verdict, e.g.
 * when the search was aborted).
 */

export type BreakerState = 'closed' | 'open' | 'half_open';

export interface BreakerConfig {
  failureThreshold: number;
  windowMs: number;
  openDurationMs: number;
  halfOpenMaxProbes: number;
  halfOpenSuccesses: number;
}

export const DEFAULT_BREAKER_CONFIG: BreakerConfig = {
  failureThreshold: 5,
  windowMs: 60_000,
  openDurationMs: 30_000,
  halfOpenMaxProbes: 1,
  halfOpenSuccesses: 1,
};

export type Clock = () => number;

export interface BreakerSnapshot {
  name: string;
  state: BreakerState;
  /** Failures inside the rolling window (closed) or since the last close. */
  failures: number;
  opened_at: string | null;
  next_attempt_at: string | null;
  last_failure_at: string | null;
  half_open_in_flight: number;
  half_open_successes: number;
  total_successes: number;
  total_failures: number;
  times_opened: number;
  config: BreakerConfig;
}

const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

export class CircuitBreaker {
  readonly name: string;
  private config: BreakerConfig;
  private readonly now: Clock;
  private state: BreakerState = 'closed';
  /** Failure timestamps in the rolling window, oldest first. */
  private failureTimes: number[] = [];
  private openedAt: number | null = null;
  private lastFailureAt: number | null = null;
  private inFlight = 0;
  private probeSuccesses = 0;
  private totalSuccesses = 0;
  private totalFailures = 0;
  private timesOpened = 0;
  private readonly onChange: ((name: string, from: BreakerState, to: BreakerState) => void) | undefined;

  constructor(
    name: string,
    config: Partial<BreakerConfig> = {},
    opts: { now?: Clock; onStateChange?: (name: string, from: BreakerState, to: BreakerState) => void } = {},
  ) {
    this.name = name;
    this.config = { ...DEFAULT_BREAKER_CONFIG, ...config };
    this.now = opts.now ?? Date.now;
    this.onChange = opts.onStateChange;
  }

  configure(config: Partial<BreakerConfig>): void {
    this.config = { ...this.config, ...config };
  }

  /** Whether a call may go out now. In half-open this takes a probe slot. */
  canPass(): boolean {
    if (this.state === 'open') {
      if (this.now() < (this.openedAt ?? 0) + this.config.openDurationMs) return false;
      this.transition('half_open');
    }
    if (this.state === 'half_open') {
      if (this.inFlight >= this.config.halfOpenMaxProbes) return false;
      this.inFlight++;
      return true;
    }
    return true;
  }

  onSuccess(): void {
    this.totalSuccesses++;
    if (this.state !== 'half_open') return;
    this.inFlight = Math.max(0, this.inFlight - 1);
    this.probeSuccesses++;
    if (this.probeSuccesses >= this.config.halfOpenSuccesses) this.close();
  }

  onFailure(): void {
    const t = this.now();
    this.totalFailures++;
    this.lastFailureAt = t;
    if (this.state === 'open') return;
    if (this.state === 'half_open') {
      this.inFlight = Math.max(0, this.inFlight - 1);
      this.open(t);
      return;
    }
    this.failureTimes.push(t);
    this.prune(t);
    if (this.failureTimes.length >= this.config.failureThreshold) this.open(t);
  }

  /** A call that passed ended without a verdict (aborted): frees its half-open probe slot. */
  onCancel(): void {
    if (this.state === 'half_open') this.inFlight = Math.max(0, this.inFlight - 1);
  }

  /** Admin reset: closed, counters in the window cleared. */
  forceClose(): void {
    this.close();
  }

  /** The state as the caller would see it now (an expired open reads as half_open). */
  currentState(): BreakerState {
    if (this.state === 'open' && this.now() >= (this.openedAt ?? 0) + this.config.openDurationMs) {
      return 'half_open';
    }
    return this.state;
  }

  snapshot(): BreakerSnapshot {
    const t = this.now();
    if (this.state === 'closed') this.prune(t);
    const state = this.currentState();
    return {
      name: this.name,
      state,
      failures: this.failureTimes.length,
      opened_at: state === 'closed' ? null : iso(this.openedAt),
      next_attempt_at: this.state === 'open' ? iso((this.openedAt ?? t) + this.config.openDurationMs) : null,
      last_failure_at: iso(this.lastFailureAt),
      half_open_in_flight: this.state === 'half_open' ? this.inFlight : 0,
      half_open_successes: this.state === 'half_open' ? this.probeSuccesses : 0,
      total_successes: this.totalSuccesses,
      total_failures: this.totalFailures,
      times_opened: this.timesOpened,
      config: { ...this.config },
    };
  }

  private prune(t: number): void {
    const cutoff = t - this.config.windowMs;
    let i = 0;
    while (i < this.failureTimes.length && (this.failureTimes[i] as number) <= cutoff) i++;
    if (i > 0) this.failureTimes = this.failureTimes.slice(i);
  }

  private open(t: number): void {
    this.openedAt = t;
    this.timesOpened++;
    this.inFlight = 0;
    this.probeSuccesses = 0;
    this.transition('open');
  }

  private close(): void {
    this.failureTimes = [];
    this.openedAt = null;
    this.inFlight = 0;
    this.probeSuccesses = 0;
    this.transition('closed');
  }

  private transition(to: BreakerState): void {
    const from = this.state;
    this.state = to;
    if (from !== to) this.onChange?.(this.name, from, to);
  }
}

/** Breakers keyed by supplier name, created on first use with the defaults plus per-supplier overrides. */
export class CircuitBreakerRegistry {
  private readonly breakers = new Map<string, CircuitBreaker>();
  private readonly defaults: Partial<BreakerConfig>;
  private readonly overrides: Record<string, Partial<BreakerConfig>>;
  private readonly opts: {
    now?: Clock;
    onStateChange?: (name: string, from: BreakerState, to: BreakerState) => void;
  };

  constructor(
    opts: {
      defaults?: Partial<BreakerConfig>;
      overrides?: Record<string, Partial<BreakerConfig>>;
      now?: Clock;
      onStateChange?: (name: string, from: BreakerState, to: BreakerState) => void;
    } = {},
  ) {
    this.defaults = opts.defaults ?? {};
    this.overrides = opts.overrides ?? {};
    this.opts = { now: opts.now, onStateChange: opts.onStateChange };
  }

  get(supplier: string): CircuitBreaker {
    let b = this.breakers.get(supplier);
    if (!b) {
      b = new CircuitBreaker(supplier, { ...this.defaults, ...this.overrides[supplier] }, this.opts);
      this.breakers.set(supplier, b);
    }
    return b;
  }

  has(supplier: string): boolean {
    return this.breakers.has(supplier);
  }

  /** Returns false when no breaker exists for the supplier yet (nothing to reset). */
  forceClose(supplier: string): boolean {
    const b = this.breakers.get(supplier);
    b?.forceClose();
    return b !== undefined;
  }

  snapshots(): BreakerSnapshot[] {
    return [...this.breakers.values()].map((b) => b.snapshot()).sort((a, b) => (a.name < b.name ? -1 : 1));
  }
}
