/** Tables fit the width they are given (the terminal's, else COLUMNS, else 100): cells wrap, rows stay whole. */
import { describe, expect, it } from 'vitest';
import { tableWidth } from '../src/io.ts';
import { renderTable, wrapCell } from '../src/ui/table.ts';

const hotelHeaders = ['#', 'price', 'hotel', 'stars', 'room', 'board', 'cancellation', 'provider', 'rate'];
const hotelRow = (i: number) => [
  String(i),
  'USD 1,234.56',
  'Atlantis The Palm Resort and Residences, Crescent Road',
  '5',
  'Imperial Club Terrace King Room Ocean View',
  'BED AND BREAKFAST',
  'free until 2026-12-18, then USD 300.00',
  'hotelbeds',
  '20261220|20261223|W|1|4321|DBL.KG|ID_B2B_26|BB|…',
];

describe('renderTable', () => {
  it('a 160-column hotel table fits 100 columns; every cell is still there', () => {
    const natural = renderTable(hotelHeaders, [hotelRow(1), hotelRow(2)], 1000);
    expect(Math.max(...natural.map((l) => l.length))).toBeGreaterThan(150);
    const lines = renderTable(hotelHeaders, [hotelRow(1), hotelRow(2)], 100);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(100);
    const text = lines.join(' ');
    for (const word of ['Atlantis', 'Residences', 'Imperial', 'Ocean', 'USD 1,234.56', 'hotelbeds'])
      expect(text).toContain(word);
  });

  it('defaults to 100 columns and keeps a narrow table as it was', () => {
    for (const line of renderTable(hotelHeaders, [hotelRow(1)])) expect(line.length).toBeLessThanOrEqual(100);
    expect(renderTable(['a', 'b'], [['1', '2']])).toEqual(['a  b', '-  -', '1  2']);
  });

  it('wraps at spaces, and mid-word only when a word is longer than the column', () => {
    expect(wrapCell('free until 2026-12-18', 10)).toEqual(['free until', '2026-12-18']);
    expect(wrapCell('abcdefghijkl', 5)).toEqual(['abcde', 'fghij', 'kl']);
  });
});

describe('the table width', () => {
  it('is the terminal width on a terminal, else COLUMNS, else 100', () => {
    expect(tableWidth({}, { isTTY: true, columns: 132 })).toBe(132);
    expect(tableWidth({ COLUMNS: '80' }, { isTTY: false })).toBe(80);
    expect(tableWidth({ COLUMNS: 'wide' }, {})).toBe(100);
    expect(tableWidth({}, {})).toBe(100);
  });
});
