/**
 * Issue 28 (review L-4): reference codes satisfy the contract's patterns, cleaned where the data is
 * loaded: OpenFlights lists airlines whose "ICAO" is `BA1`, `4AA` or `M1F`; those become null.
 */
import { describe, expect, test } from 'vitest';
import { loadAirlines, loadAirports } from '../src/internal/places/data.ts';
import { realContract } from './helpers/contract.ts';

const doc = realContract();
if (!doc) throw new Error('openapi.json is missing: run pnpm openapi');
const schemas = doc.components?.schemas as Record<string, { properties: Record<string, any> }>;
const pattern = (schema: string, field: string) => {
  const p = schemas[schema]?.properties[field];
  const inner = p?.anyOf?.find((x: { type?: string }) => x.type === 'string') ?? p;
  return new RegExp(inner.pattern as string);
};

describe('reference codes as the contract says they look', () => {
  test('every airline code matches AirlineSuggestion; the malformed ICAO designators are gone', () => {
    const airlines = loadAirlines();
    const iata = pattern('AirlineSuggestion', 'iata_code');
    const icao = pattern('AirlineSuggestion', 'icao_code');
    expect(airlines.length).toBeGreaterThan(900);
    for (const a of airlines) {
      expect(a.iata_code, a.name).toMatch(iata);
      if (a.icao_code !== null) expect(a.icao_code, a.name).toMatch(icao);
    }
    const baltic = airlines.find((a) => a.name === 'Baltic Air lines');
    if (baltic) expect(baltic.icao_code).toBeNull();
    for (const bad of ['BA1', '4AA', 'M1F']) expect(airlines.some((a) => a.icao_code === bad)).toBe(false);
    // The well-formed ones are kept.
    expect(airlines.find((a) => a.iata_code === 'BA' && a.name === 'British Airways')?.icao_code).toBe('BAW');
  });

  test('every airport code matches AirportSuggestion', () => {
    const iata = pattern('AirportSuggestion', 'iata_code');
    const icao = pattern('AirportSuggestion', 'icao_code');
    for (const a of loadAirports()) {
      expect(a.iata_code, a.name).toMatch(iata);
      if (a.icao_code !== null) expect(a.icao_code, a.name).toMatch(icao);
    }
  });
});
