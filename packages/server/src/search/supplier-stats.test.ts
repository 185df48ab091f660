import { describe, expect, it } from 'vitest';
import { parsePeriod, SupplierStats } from './supplier-stats.ts';

describe('SupplierStats', () => {
  it('summarises calls in the period', () => {
    let now = 1_000_000_000;
    const s = new SupplierStats({ now: () => now });
    for (let i = 1; i <= 100; i++)
      s.record('amadeus', { latency_ms: i, outcome: i <= 90 ? 'success' : i <= 95 ? 'timeout' : 'error' });
    expect(s.summary('amadeus', '1h')).toEqual({
      supplier: 'amadeus',
      period_ms: 3_600_000,
      calls: 100,
      success_rate: 0.9,
      timeout_rate: 0.05,
      error_rate: 0.05,
      p50_ms: 50,
      p95_ms: 95,
      p99_ms: 99,
    });
    now += 3_600_001;
    expect(s.summary('amadeus', '1h').calls).toBe(0);
    expect(s.summary('amadeus', '2h').calls).toBe(100);
  });

  it('empty supplier', () => {
    expect(new SupplierStats().summary('none')).toMatchObject({
      calls: 0,
      success_rate: 0,
      p50_ms: null,
      p99_ms: null,
    });
  });

  it('ring buffer keeps only the last `capacity` calls', () => {
    const s = new SupplierStats({ capacity: 10, now: () => 0 });
    for (let i = 0; i < 25; i++) s.record('x', { at: 0, latency_ms: i, outcome: 'success' });
    const sum = s.summary('x', '1d');
    expect(sum.calls).toBe(10);
    expect(sum.p50_ms).toBe(19);
    expect(sum.p99_ms).toBe(24);
    expect(s.suppliers()).toEqual(['x']);
  });

  it.each([
    ['15m', 900_000],
    ['1h', 3_600_000],
    ['24h', 86_400_000],
    ['7d', 604_800_000],
    [5000, 5000],
  ])('parsePeriod(%s)', (p, ms) => expect(parsePeriod(p)).toBe(ms));

  it('rejects bad periods', () => {
    expect(() => parsePeriod('week')).toThrow(RangeError);
    expect(() => parsePeriod(0)).toThrow(RangeError);
  });
});
