/** HttpMetrics through prom-client's public API: counts, buckets and sums as Prometheus reads them. */
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
});
