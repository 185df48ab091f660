import { FLIGHT_SUPPLIERS } from '@travel/contract';
import { describe, expect, it } from 'vitest';
import { storedCurrency } from './money.ts';
import {
  booleanOr,
  jsonObject,
  type Members,
  member,
  memberOr,
  numberOr,
  oneOf,
  stringOr,
  timestampText,
} from './narrow.ts';

const COLOURS: Members<'red' | 'green'> = { red: true, green: true };

describe('reading stored values back as the contract types', () => {
  it('member and oneOf pass a listed value and throw on anything else, naming the column', () => {
    expect(member(COLOURS, 'red', 't.colour')).toBe('red');
    expect(() => member(COLOURS, 'blue', 't.colour')).toThrow(/t\.colour.*"blue"/);
    // Not an own key of the table, though every object has it.
    expect(() => member(COLOURS, 'toString', 't.colour')).toThrow();
    expect(oneOf(FLIGHT_SUPPLIERS, 'duffel', 'supplier')).toBe('duffel');
    expect(() => oneOf(FLIGHT_SUPPLIERS, 'sabre', 'supplier')).toThrow(/supplier/);
  });

  it('the *Or readers fall back on a missing or mistyped value', () => {
    expect(memberOr(COLOURS, 'green', null)).toBe('green');
    expect(memberOr(COLOURS, 7, null)).toBeNull();
    expect(stringOr('x', null)).toBe('x');
    expect(stringOr(3, null)).toBeNull();
    expect(numberOr(2.5, 0)).toBe(2.5);
    expect(numberOr(Number.NaN, 0)).toBe(0);
    expect(numberOr('4', 0)).toBe(0);
    expect(booleanOr(false, true)).toBe(false);
    expect(booleanOr('false', true)).toBe(true);
  });

  it('jsonObject reads a jsonb object given parsed or as text; anything else is empty', () => {
    expect(jsonObject({ a: 1 })).toEqual({ a: 1 });
    expect(jsonObject('{"a":1}')).toEqual({ a: 1 });
    expect(jsonObject(null)).toEqual({});
    expect(jsonObject([1, 2])).toEqual({});
  });

  it('timestampText takes a Date or text and refuses anything else', () => {
    expect(timestampText(new Date('2026-01-02T03:04:05Z'), 'at')).toBe('2026-01-02T03:04:05.000Z');
    expect(timestampText('2026-01-02T03:04:05Z', 'at')).toBe('2026-01-02T03:04:05.000Z');
    expect(() => timestampText(null, 'at')).toThrow(/at/);
  });

  it('storedCurrency trims a char(3) code and refuses one outside the table', () => {
    expect(storedCurrency('GBP')).toBe('GBP');
    expect(storedCurrency('KWD ')).toBe('KWD');
    expect(() => storedCurrency('JPY')).toThrow(RangeError);
  });
});
