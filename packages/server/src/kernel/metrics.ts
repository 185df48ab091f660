import { format } from 'node:util';
import { Counter, collectDefaultMetrics, type Metric, Registry } from 'prom-client';

type Labels = { method: string; operation: string; status: string };

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** One label set: its latency histogram (since start or `reset`) and requests not yet handed to the counter. */
interface Series {
  labels: Labels;
  /** Observations per bucket, not cumulative; `count` minus their sum fell above the last bound. */
  buckets: number[];
  sum: number;
  count: number;
  /** Requests not yet added to the prom-client counter. */
  pending: number;
}

/**
 * The request-latency histogram, kept per label set in plain arrays (no label hashing or validation per
 * observation) and read by the registry through the same `get()` / `getForPromString()` shapes as
 * prom-client's own `Histogram`: label sets in the order first observed (since start or `reset`), the
 * same bounds, cumulative bucket values, the sum added in observation order. The exposition text is the
 * same byte for byte (test/kernel/metrics.test.ts compares it with a prom-client `Histogram`).
 */
class LatencyHistogram {
  readonly name = 'http_request_duration_seconds';
  readonly help = 'HTTP request latency by operation and status';
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  /** Label sets observed since start or the last `reset`, in first-observation order. */
  readonly observed: Series[] = [];

  /** Values as prom-client's histogram makes them: `{ le }` labels apart from the label set's. */
  #values() {
    const out: {
      labels: Record<string, string | number>;
      sharedLabels: Labels;
      value: number;
      metricName: string;
      exemplar: null | undefined;
    }[] = [];
    const bucket = `${this.name}_bucket`;
    for (const s of this.observed) {
      let acc = 0;
      for (let i = 0; i < BUCKETS.length; i++) {
        acc += s.buckets[i] as number;
        const le = BUCKETS[i] as number;
        out.push({ labels: { le }, sharedLabels: s.labels, value: acc, metricName: bucket, exemplar: null });
      }
      out.push({
        labels: { le: '+Inf' },
        sharedLabels: s.labels,
        value: s.count,
        metricName: bucket,
        exemplar: null,
      });
      out.push({
        labels: {},
        sharedLabels: s.labels,
        value: s.sum,
        metricName: `${this.name}_sum`,
        exemplar: undefined,
      });
      out.push({
        labels: {},
        sharedLabels: s.labels,
        value: s.count,
        metricName: `${this.name}_count`,
        exemplar: undefined,
      });
    }
    return out;
  }

  /** What the registry renders as text. */
  async getForPromString() {
    const { name, help, type, aggregator } = this;
    return { name, help, type, values: this.#values(), aggregator };
  }

  /** The JSON form (`registry.getMetricsAsJSON()`): each value's labels in one object, `le` first. */
  async get() {
    const { name, help, type, aggregator } = this;
    const values = this.#values().map(({ labels, sharedLabels, ...rest }) => ({
      ...rest,
      labels: { ...labels, ...sharedLabels },
    }));
    return { name, help, type, values, aggregator };
  }

  reset(): void {
    for (const s of this.observed) {
      s.buckets.fill(0);
      s.sum = 0;
      s.count = 0;
    }
    this.observed.length = 0;
  }
}

/**
 * Prometheus metrics for one app instance (its own registry, so tests can build many apps). Each
 * request is recorded here per label set (nested maps, no label hashing on the request path): the
 * request counter is handed to prom-client's `Counter` in its `collect`, which runs before every read
 * (every scrape, every `get()`); the latency histogram is read straight from these counts.
 */
export class HttpMetrics {
  readonly registry = new Registry();
  readonly requests: Counter<'method' | 'operation' | 'status'>;
  readonly duration: LatencyHistogram;
  /** operation -> method -> status -> series. */
  readonly #series = new Map<string, Map<string, Map<number, Series>>>();
  /** Every series, in the order first seen. */
  readonly #all: Series[] = [];

  constructor(opts: { defaultMetrics?: boolean } = {}) {
    if (opts.defaultMetrics !== false) collectDefaultMetrics({ register: this.registry });
    const all = this.#all;
    this.requests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests by operation and status',
      labelNames: ['method', 'operation', 'status'],
      registers: [this.registry],
      collect() {
        for (const s of all) {
          if (s.pending === 0) continue;
          this.inc(s.labels, s.pending);
          s.pending = 0;
        }
      },
    });
    this.duration = new LatencyHistogram();
    // A metric of our own beside prom-client's: the registry only calls name, get/getForPromString, reset.
    this.registry.registerMetric(this.duration as unknown as Metric);
  }

  observe(method: string, operation: string, status: number, seconds: number): void {
    // prom-client refuses a non-finite value with this message; the request is then not counted.
    if (!Number.isFinite(seconds)) throw new TypeError(`Value is not a valid number: ${format(seconds)}`);
    let byMethod = this.#series.get(operation);
    if (!byMethod) {
      byMethod = new Map();
      this.#series.set(operation, byMethod);
    }
    let byStatus = byMethod.get(method);
    if (!byStatus) {
      byStatus = new Map();
      byMethod.set(method, byStatus);
    }
    let s = byStatus.get(status);
    if (!s) {
      s = {
        labels: { method, operation, status: String(status) },
        buckets: BUCKETS.map(() => 0),
        sum: 0,
        count: 0,
        pending: 0,
      };
      byStatus.set(status, s);
      this.#all.push(s);
    }
    if (s.count === 0) this.duration.observed.push(s);
    for (let i = 0; i < BUCKETS.length; i++) {
      if (seconds <= (BUCKETS[i] as number)) {
        (s.buckets[i] as number)++;
        break;
      }
    }
    s.sum += seconds;
    s.count += 1;
    s.pending += 1;
  }
}
