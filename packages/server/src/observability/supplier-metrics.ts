/**
 * Per-supplier metrics on `/metrics`: every supplier and payment call counted by outcome, its latency,
 * and each circuit-breaker transition. Made before the app (the supplier registry needs them) and
 * registered on the app's registry once it exists (`register`).
 */
import { Counter, Histogram, type Registry } from 'prom-client';

export class SupplierMetrics {
  readonly calls = new Counter({
    name: 'travel_supplier_calls_total',
    help: 'Supplier and payment provider calls, by supplier, operation and outcome (ok or the failure kind).',
    labelNames: ['supplier', 'operation', 'outcome'] as const,
    registers: [],
  });
  readonly latency = new Histogram({
    name: 'travel_supplier_call_duration_seconds',
    help: 'Supplier and payment provider call latency, retries included, by supplier and operation.',
    labelNames: ['supplier', 'operation'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [],
  });
  readonly breakerTransitions = new Counter({
    name: 'travel_supplier_breaker_transitions_total',
    help: 'Circuit breaker state changes per supplier (closed, open, half_open).',
    labelNames: ['supplier', 'from', 'to'] as const,
    registers: [],
  });

  observe(supplier: string, operation: string, outcome: string, seconds: number): void {
    this.calls.inc({ supplier, operation, outcome });
    this.latency.observe({ supplier, operation }, seconds);
  }

  breakerChanged(supplier: string, from: string, to: string): void {
    this.breakerTransitions.inc({ supplier, from, to });
  }

  register(registry: Registry): void {
    registry.registerMetric(this.calls);
    registry.registerMetric(this.latency);
    registry.registerMetric(this.breakerTransitions);
  }
}
