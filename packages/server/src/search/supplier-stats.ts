/**
 * Recent supplier calls for GET /admin/gds/performance: a fixed-size ring buffer per supplier (typed
 * arrays, no per-call allocation), so memory stays bounded however busy a supplier is. Old calls fall out
 * as new ones arrive; `summary` reads the calls inside the period. Process-local by design: each server
 * process reports what it saw.
 *
 * Latency percentiles cover every call in the period, timeouts included at their elapsed time: that is
 * what the search actually waited for.
 */

export type CallOutcome = 'success' | 'timeout' | 'error';

export interface SupplierCall {
  /** Epoch ms when the call ended (defaults to now). */
  at?: number;
  latency_ms: number;
  outcome: CallOutcome;
}

export interface SupplierSummary {
  supplier: string;
  period_ms: number;
  calls: number;
  success_rate: number;
  timeout_rate: number;
  error_rate: number;
  p50_ms: number | null;
  p95_ms: number | null;
  p99_ms: number | null;
}

const OUTCOMES: readonly CallOutcome[] = ['success', 'timeout', 'error'];
const PERIOD_UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** "15m", "1h", "24h", "7d" or milliseconds. */
export function parsePeriod(period: string | number): number {
  if (typeof period === 'number') {
    if (!(period > 0)) throw new RangeError(`invalid period: ${period}`);
    return period;
  }
  const m = /^(\d+)\s*([smhd])$/.exec(period.trim().toLowerCase());
  if (!m) throw new RangeError(`invalid period: ${period}`);
  return Number(m[1]) * (PERIOD_UNITS[m[2] as string] as number);
}

class Ring {
  readonly at: Float64Array;
  readonly latency: Float64Array;
  readonly outcome: Uint8Array;
  next = 0;
  size = 0;
  constructor(capacity: number) {
    this.at = new Float64Array(capacity);
    this.latency = new Float64Array(capacity);
    this.outcome = new Uint8Array(capacity);
  }
}

/** Nearest-rank percentile of sorted values. */
function percentile(sorted: Float64Array, p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] as number;
}

const round3 = (n: number): number => Math.round(n * 1000) / 1000;

export class SupplierStats {
  private readonly rings = new Map<string, Ring>();
  private readonly capacity: number;
  private readonly now: () => number;

  constructor(opts: { capacity?: number; now?: () => number } = {}) {
    this.capacity = Math.max(1, opts.capacity ?? 10_000);
    this.now = opts.now ?? Date.now;
  }

  record(supplier: string, call: SupplierCall): void {
    let r = this.rings.get(supplier);
    if (!r) {
      r = new Ring(this.capacity);
      this.rings.set(supplier, r);
    }
    r.at[r.next] = call.at ?? this.now();
    r.latency[r.next] = Math.max(0, call.latency_ms);
    r.outcome[r.next] = OUTCOMES.indexOf(call.outcome);
    r.next = (r.next + 1) % this.capacity;
    r.size = Math.min(this.capacity, r.size + 1);
  }

  suppliers(): string[] {
    return [...this.rings.keys()].sort();
  }

  summary(supplier: string, period: string | number = '1h'): SupplierSummary {
    const periodMs = parsePeriod(period);
    const since = this.now() - periodMs;
    const r = this.rings.get(supplier);
    const counts = [0, 0, 0];
    const lat: number[] = [];
    if (r) {
      for (let i = 0; i < r.size; i++) {
        if ((r.at[i] as number) < since) continue;
        const o = r.outcome[i] as number;
        counts[o] = (counts[o] ?? 0) + 1;
        lat.push(r.latency[i] as number);
      }
    }
    const calls = lat.length;
    const sorted = Float64Array.from(lat).sort();
    const rate = (n: number) => (calls === 0 ? 0 : round3(n / calls));
    return {
      supplier,
      period_ms: periodMs,
      calls,
      success_rate: rate(counts[0] as number),
      timeout_rate: rate(counts[1] as number),
      error_rate: rate(counts[2] as number),
      p50_ms: percentile(sorted, 50),
      p95_ms: percentile(sorted, 95),
      p99_ms: percentile(sorted, 99),
    };
  }

  /** Mean latency and the end of the latest call in the period (admin status and performance views). */
  extra(supplier: string, period: string | number = '1h'): { avg_ms: number | null; last_at: number | null } {
    const since = this.now() - parsePeriod(period);
    const r = this.rings.get(supplier);
    let sum = 0;
    let n = 0;
    let last: number | null = null;
    if (r) {
      for (let i = 0; i < r.size; i++) {
        const at = r.at[i] as number;
        if (at < since) continue;
        sum += r.latency[i] as number;
        n++;
        last = Math.max(last ?? at, at);
      }
    }
    return { avg_ms: n === 0 ? null : round3(sum / n), last_at: last };
  }
}
