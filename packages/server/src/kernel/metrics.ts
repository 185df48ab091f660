import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

type Labels = { method: string; operation: string; status: string };

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** Observations of one label set not yet handed to prom-client. */
interface Pending {
  labels: Labels;
  count: number;
  sum: number;
  /** Per bucket of BUCKETS (the observation's smallest bound), plus one past the last for +Inf. */
  buckets: number[];
  sums: number[];
}

/** prom-client 15's histogram entry (read defensively; a mismatch falls back to `observe`). */
interface HistogramEntry {
  labels: Labels;
  bucketValues: Record<string, number>;
  sum: number;
  count: number;
}

/** Observations are handed over at every read of the metrics, or once this many are buffered. */
const FLUSH_EVERY = 1024;

/**
 * Prometheus metrics for one app instance (its own registry, so tests can build many apps).
 * `observe` is on every request's path, and prom-client hashes a labels object on every call (about
 * 0.8 µs a request for the two metrics). So observations are aggregated per label set here (count,
 * sum, bucket counts) and handed to prom-client in bulk: in `collect`, which prom-client runs before
 * every read of a metric (every scrape, every `get()`), or once a label set has FLUSH_EVERY pending.
 */
export class HttpMetrics {
  readonly registry = new Registry();
  readonly requests: Counter<'method' | 'operation' | 'status'>;
  readonly duration: Histogram<'method' | 'operation' | 'status'>;
  readonly #pending = new Map<string, Pending>();
  readonly #entries = new WeakMap<Pending, HistogramEntry>();

  constructor(opts: { defaultMetrics?: boolean } = {}) {
    if (opts.defaultMetrics !== false) collectDefaultMetrics({ register: this.registry });
    const flush = () => this.flush();
    this.requests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests by operation and status',
      labelNames: ['method', 'operation', 'status'],
      registers: [this.registry],
      collect: flush,
    });
    this.duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request latency by operation and status',
      labelNames: ['method', 'operation', 'status'],
      buckets: BUCKETS,
      registers: [this.registry],
      collect: flush,
    });
  }

  observe(method: string, operation: string, status: number, seconds: number): void {
    if (!Number.isFinite(seconds)) {
      // prom-client refuses it; let it say so, as before.
      this.duration.observe({ method, operation, status: String(status) }, seconds);
      return;
    }
    const key = `${method} ${operation} ${status}`;
    let p = this.#pending.get(key);
    if (!p) {
      p = {
        labels: { method, operation, status: String(status) },
        count: 0,
        sum: 0,
        buckets: new Array<number>(BUCKETS.length + 1).fill(0),
        sums: new Array<number>(BUCKETS.length + 1).fill(0),
      };
      this.#pending.set(key, p);
      // The first observation of a label set goes straight in, so series keep their first-seen order.
      this.requests.inc(p.labels);
      this.duration.observe(p.labels, seconds);
      return;
    }
    let i = 0;
    while (i < BUCKETS.length && seconds > (BUCKETS[i] as number)) i++;
    p.count += 1;
    p.sum += seconds;
    p.buckets[i] = (p.buckets[i] as number) + 1;
    p.sums[i] = (p.sums[i] as number) + seconds;
    if (p.count >= FLUSH_EVERY) this.#flushOne(p);
  }

  /** Hands buffered observations to prom-client (run before every read of the two metrics). */
  flush(): void {
    for (const p of this.#pending.values()) if (p.count > 0) this.#flushOne(p);
  }

  #flushOne(p: Pending): void {
    const { count, sum, buckets, sums } = p;
    p.count = 0;
    p.sum = 0;
    p.buckets = new Array<number>(BUCKETS.length + 1).fill(0);
    p.sums = new Array<number>(BUCKETS.length + 1).fill(0);
    this.requests.inc(p.labels, count);
    // One public observe (the mean of a non-empty bucket lies in that bucket) makes sure the entry
    // exists; the rest is added to it in one step.
    const first = buckets.findIndex((n) => n > 0);
    const firstMean = (sums[first] as number) / (buckets[first] as number);
    this.duration.observe(p.labels, firstMean);
    buckets[first] = (buckets[first] as number) - 1;
    sums[first] = (sums[first] as number) - firstMean;
    const rest = count - 1;
    if (rest === 0) return;
    const entry = this.#entry(p);
    if (entry) {
      entry.count += rest;
      entry.sum += sum - firstMean;
      for (let i = 0; i < BUCKETS.length; i++) {
        const n = buckets[i] as number;
        if (n > 0) entry.bucketValues[String(BUCKETS[i])] = (entry.bucketValues[String(BUCKETS[i])] ?? 0) + n;
      }
      return;
    }
    // Unknown prom-client internals: the same totals through the public API, one call per observation.
    for (let i = 0; i <= BUCKETS.length; i++) {
      const n = buckets[i] as number;
      for (let k = 0; k < n; k++) this.duration.observe(p.labels, (sums[i] as number) / n);
    }
  }

  /** The histogram's stored entry for `p`'s labels, checked against the shape prom-client 15 uses. */
  #entry(p: Pending): HistogramEntry | undefined {
    const map = (this.duration as unknown as { hashMap?: Record<string, HistogramEntry> }).hashMap;
    if (!map || typeof map !== 'object') return undefined;
    const cached = this.#entries.get(p);
    const valid = (e: HistogramEntry | undefined): e is HistogramEntry =>
      !!e &&
      typeof e.count === 'number' &&
      typeof e.sum === 'number' &&
      !!e.bucketValues &&
      typeof e.bucketValues === 'object' &&
      BUCKETS.every((b) => typeof e.bucketValues[String(b)] === 'number');
    if (cached && Object.values(map).includes(cached) && valid(cached)) return cached;
    for (const e of Object.values(map)) {
      const l = e?.labels;
      if (
        l &&
        l.method === p.labels.method &&
        l.operation === p.labels.operation &&
        l.status === p.labels.status
      ) {
        if (!valid(e)) return undefined;
        this.#entries.set(p, e);
        return e;
      }
    }
    return undefined;
  }
}
