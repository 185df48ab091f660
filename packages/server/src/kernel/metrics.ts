import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

/** Prometheus metrics for one app instance (its own registry, so tests can build many apps). */
export class HttpMetrics {
  readonly registry = new Registry();
  readonly requests: Counter<'method' | 'operation' | 'status'>;
  readonly duration: Histogram<'method' | 'operation' | 'status'>;

  constructor(opts: { defaultMetrics?: boolean } = {}) {
    if (opts.defaultMetrics !== false) collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests by operation and status',
      labelNames: ['method', 'operation', 'status'],
      registers: [this.registry],
    });
    this.duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request latency by operation and status',
      labelNames: ['method', 'operation', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [this.registry],
    });
  }

  observe(method: string, operation: string, status: number, seconds: number): void {
    const labels = { method, operation, status: String(status) };
    this.requests.inc(labels);
    this.duration.observe(labels, seconds);
  }
}
