/** HttpMetrics through prom-client's public API: counts, buckets and sums as Prometheus reads them. */
import { Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { HttpMetrics } from '../../src/kernel/metrics.ts';

const line = (text: string, prefix: string) =>
  Number(
    text
      .split('\n')
      .find((l) => l.startsWith(`${prefix} `))
      ?.slice(prefix.length + 1),
  );

describe('HttpMetrics', () => {
  it('counts requests per label set and fills the latency buckets, across scrapes', async () => {
    const m = new HttpMetrics({ defaultMetrics: false });
    m.observe('GET', 'getBooking', 200, 0.003);
    m.observe('GET', 'getBooking', 200, 0.2);
    m.observe('POST', 'createBooking', 201, 1.5);
    let text = await m.registry.metrics();
    const get = 'method="GET",operation="getBooking",status="200"';
    expect(line(text, `http_requests_total{${get}}`)).toBe(2);
    expect(line(text, `http_requests_total{method="POST",operation="createBooking",status="201"}`)).toBe(1);
    expect(line(text, `http_request_duration_seconds_bucket{le="0.005",${get}}`)).toBe(1);
    expect(line(text, `http_request_duration_seconds_bucket{le="0.1",${get}}`)).toBe(1);
    expect(line(text, `http_request_duration_seconds_bucket{le="0.25",${get}}`)).toBe(2);
    expect(line(text, `http_request_duration_seconds_bucket{le="+Inf",${get}}`)).toBe(2);
    expect(line(text, `http_request_duration_seconds_sum{${get}}`)).toBeCloseTo(0.203, 9);
    expect(line(text, `http_request_duration_seconds_count{${get}}`)).toBe(2);
    // A second scrape adds only what happened since (a counter never counts a request twice).
    m.observe('GET', 'getBooking', 200, 0.003);
    text = await m.registry.metrics();
    expect(line(text, `http_requests_total{${get}}`)).toBe(3);
    expect(line(text, `http_request_duration_seconds_count{${get}}`)).toBe(3);
    expect((await m.requests.get()).values.find((v) => v.labels.operation === 'getBooking')?.value).toBe(3);
  });

  it('refuses a non-finite duration without counting the request', async () => {
    const m = new HttpMetrics({ defaultMetrics: false });
    expect(() => m.observe('GET', 'x', 200, Number.NaN)).toThrow(/not a valid number/);
    expect(await m.registry.metrics()).not.toContain('http_requests_total{');
  });

  it('renders the latency histogram exactly as a prom-client Histogram fed the same requests', async () => {
    const m = new HttpMetrics({ defaultMetrics: false });
    const reference = new Registry();
    const h = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request latency by operation and status',
      labelNames: ['method', 'operation', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [reference],
    });
    // Label sets first seen interleaved, values on and between bounds, above the last bound, and sums
    // whose float rounding depends on the order of addition.
    const ops = [
      ['GET', 'getBooking', 200],
      ['POST', 'createPnr', 201],
      ['GET', 'getBooking', 404],
      ['HEAD', 'getBooking', 200],
      ['GET', 'unmatched', 404],
    ] as const;
    const values = [0.005, 0.0050001, 0.1, 0.3, 1e-7, 31, 0.1 + 0.2, 2.5, 29.999, 0.0123456789];
    let n = 0;
    for (let round = 0; round < 7; round++)
      for (const [method, operation, status] of ops) {
        const v = (values[n % values.length] as number) * (1 + round / 3);
        n += 1;
        m.observe(method, operation, status, v);
        h.observe({ method, operation, status: String(status) }, v);
      }
    const ours = await m.registry.getSingleMetricAsString('http_request_duration_seconds');
    expect(ours).toBe(await reference.getSingleMetricAsString('http_request_duration_seconds'));
    expect(ours).toContain(
      'http_request_duration_seconds_count{method="POST",operation="createPnr",status="201"} 7',
    );
    expect(
      (await m.registry.getMetricsAsJSON()).find((x) => x.name === 'http_request_duration_seconds'),
    ).toEqual((await reference.getMetricsAsJSON())[0]);
    // After a reset both start again from nothing, label sets in their new first-seen order.
    m.registry.resetMetrics();
    reference.resetMetrics();
    for (const [method, operation, status] of [...ops].reverse()) {
      m.observe(method, operation, status, 0.07);
      h.observe({ method, operation, status: String(status) }, 0.07);
    }
    expect(await m.registry.getSingleMetricAsString('http_request_duration_seconds')).toBe(
      await reference.getSingleMetricAsString('http_request_duration_seconds'),
    );
  });
});
