import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

type Labels = { method: string; operation: string; status: string };

const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * Prometheus metrics for one app instance (its own registry, so tests can build many apps), through
 * prom-client's public API only. The request counter is kept here per label set (a string-keyed map, no
 * label hashing on the request path) and handed to prom-client in its `collect`, which runs before every
 * read (every scrape, every `get()`); the latency histogram is observed directly.
 */
export class HttpMetrics {
  readonly registry = new Registry();
  readonly requests: Counter<'method' | 'operation' | 'status'>;
  readonly duration: Histogram<'method' | 'operation' | 'status'>;
  /** Requests per label set not yet added to the counter. */
  readonly #counts = new Map<string, { labels: Labels; pending: number }>();

  constructor(opts: { defaultMetrics?: boolean } = {}) {
    if (opts.defaultMetrics !== false) collectDefaultMetrics({ register: this.registry });
    const counts = this.#counts;
    this.requests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests by operation and status',
      labelNames: ['method', 'operation', 'status'],
      registers: [this.registry],
      collect() {
        for (const c of counts.values()) {
          if (c.pending === 0) continue;
          this.inc(c.labels, c.pending);
          c.pending = 0;
        }
      },
    });
    this.duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request latency by operation and status',
      labelNames: ['method', 'operation', 'status'],
      buckets: BUCKETS,
      registers: [this.registry],
    });
  }

  observe(method: string, operation: string, status: number, seconds: number): void {
    const key = `${method} ${operation} ${status}`;
    let c = this.#counts.get(key);
    if (!c) {
      c = { labels: { method, operation, status: String(status) }, pending: 0 };
      this.#counts.set(key, c);
    }
    // Throws on a non-finite duration (prom-client refuses it) before the request is counted.
    this.duration.observe(c.labels, seconds);
    c.pending += 1;
  }
}
