/** Airport search finds IATA city codes, former city names and two-letter code prefixes (issue #33). */
import { beforeAll, describe, expect, it } from 'vitest';
import { type ReferenceIndex, referenceIndex } from '../src/domains/reference/search.ts';

let idx: ReferenceIndex;
beforeAll(async () => {
  idx = await referenceIndex();
});
const codes = (query: string, limit = 5) =>
  idx.searchAirports({ query, limit }).items.map((a) => a.iata_code);

describe('airport search by city code and former name', () => {
  it.each([
    ['nyc', ['JFK', 'LGA']],
    ['NYC', ['JFK', 'LGA']],
    ['LON', ['LHR', 'LGW', 'STN', 'LTN', 'LCY']],
    ['tyo', ['HND', 'NRT']],
    ['ROM', ['FCO', 'CIA']],
  ])('%s finds the airports of its city, the main one first', (query, want) => {
    const got = codes(query, want.length);
    expect(got[0]).toBe(want[0]);
    expect(new Set(got)).toEqual(new Set(want));
    expect(idx.searchAirports({ query, limit: 1 }).items[0]?.match_type).toBe('iata');
  });

  it.each([
    ['bombay', 'BOM'],
    ['peking', 'PEK'],
    ['saigon', 'SGN'],
    ['calcutta', 'CCU'],
    ['madras', 'MAA'],
    ['Bombay', 'BOM'],
  ])('%s (a former name) finds %s first', (query, code) => {
    expect(codes(query)[0]).toBe(code);
  });

  it('of two cities of one name, the airport of the more populous comes first', () => {
    expect(codes('birmingham')[0]).toBe('BHX');
    expect(codes('birmingham')).toContain('BHM');
    expect(codes('london')[0]).toBe('LHR');
    expect(codes('london', 20)).toContain('YXU');
  });

  it('rome ranks Fiumicino before Ciampino', () => {
    const got = codes('rome');
    expect(got.indexOf('FCO')).toBe(0);
    expect(got.indexOf('CIA')).toBeGreaterThan(0);
  });

  it('an airport code still wins over the city code of its letters (BKK is Suvarnabhumi)', () => {
    expect(idx.searchAirports({ query: 'BKK', limit: 1 }).items[0]).toMatchObject({
      iata_code: 'BKK',
      similarity_score: 1,
    });
  });
});

describe('two-letter code prefixes', () => {
  it.each([
    ['DX', 'DXB'],
    ['dx', 'DXB'],
    ['LH', 'LHR'],
    ['JF', 'JFK'],
    ['CD', 'CDG'],
  ])('%s puts %s first', (query, code) => {
    const items = idx.searchAirports({ query, limit: 5 }).items;
    expect(items[0]?.iata_code).toBe(code);
    expect(items.every((a) => a.iata_code.startsWith(query.toUpperCase()) || a.match_type !== 'iata')).toBe(
      true,
    );
  });

  it('a two-letter prefix ranks airports by importance', () => {
    const lh = codes('LH', 10);
    expect(lh.indexOf('LHR')).toBeLessThan(lh.indexOf('LHA'));
  });

  it('the two-letter match does not apply to airlines (exact codes only)', () => {
    expect(idx.searchAirlines({ query: 'LH', limit: 1 }).items[0]).toMatchObject({ iata_code: 'LH' });
  });
});
