import { describe, expect, it } from 'vitest';
import { exponent, format, fromMinor, toDecimalString, toMinor } from './money.ts';

describe('money', () => {
  it.each([
    ['GBP', 2],
    ['USD', 2],
    ['BHD', 3],
    ['KWD', 3],
    ['OMR', 3],
    ['PKR', 2],
    ['aed', 2],
  ])('exponent(%s) = %d', (c, e) => expect(exponent(c)).toBe(e));

  it('rejects unsupported currencies', () => {
    expect(() => exponent('JPY')).toThrow(RangeError);
  });

  it.each([
    [12.5, 'GBP', 1250],
    [1.005, 'USD', 101],
    [0.1 + 0.2, 'EUR', 30],
    [1.2345, 'BHD', 1235],
    [-1.005, 'USD', -101],
    [-0.001, 'USD', 0],
    [0, 'KWD', 0],
  ])('toMinor(%d, %s) = %d', (major, c, minor) => {
    expect(toMinor(major, c)).toBe(minor);
  });

  it('fromMinor / toDecimalString / format', () => {
    expect(fromMinor(1234, 'BHD')).toBe(1.234);
    expect(fromMinor(1250, 'GBP')).toBe(12.5);
    expect(toDecimalString(5, 'USD')).toBe('0.05');
    expect(toDecimalString(-5, 'USD')).toBe('-0.05');
    expect(toDecimalString(1234, 'KWD')).toBe('1.234');
    expect(format(123456, 'GBP')).toBe('GBP 1234.56');
    expect(format(7, 'OMR')).toBe('OMR 0.007');
    expect(() => toDecimalString(1.5, 'USD')).toThrow(RangeError);
  });
});
