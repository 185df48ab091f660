import { describe, expect, it } from 'vitest';
import { destinations } from '../../internal/places/places.ts';
import { locations } from '../search/locations.ts';

const at = (q: string) => {
  const p = destinations().resolve(q);
  if ('unknown' in p) throw new Error(p.unknown);
  return p;
};

describe('destination resolution', () => {
  it('takes the most populous city of a name and lists the others', () => {
    expect(at('London')).toMatchObject({ kind: 'city', name: 'London', country: 'GB' });
    expect(at('London').alternatives.map((a) => a.country)).toEqual(['CA', 'US']);
    expect(at('Birmingham')).toMatchObject({ country: 'GB' });
    expect(at('Portland')).toMatchObject({ country: 'US', region: 'Oregon' });
  });

  it('a country, region or US state after a comma chooses another city of the name', () => {
    expect(at('London, CA')).toMatchObject({ country: 'CA', region: 'Ontario' });
    expect(at('London, Canada')).toMatchObject({ country: 'CA' });
    expect(at('Portland, Maine')).toMatchObject({ region: 'Maine' });
    expect(at('Portland, US-ME')).toMatchObject({ region: 'Maine' });
    expect(at('Birmingham, AL')).toMatchObject({ country: 'US', region: 'Alabama' });
  });

  it('a qualifier no city of that name has is refused with the cities that exist', () => {
    const p = destinations().resolve('London, FR');
    expect(p).toEqual({ unknown: expect.stringContaining('London, Ontario, CA') });
  });

  it('IATA city codes are the city; airport codes the airport; former names today’s city', () => {
    expect(at('lon')).toMatchObject({ kind: 'city_code', code: 'LON', country: 'GB' });
    expect(at('YMQ')).toMatchObject({ kind: 'city_code', country: 'CA' });
    expect(at('BHX')).toMatchObject({ kind: 'airport', code: 'BHX', name: 'Birmingham', country: 'GB' });
    for (const [former, now] of [
      ['Bombay', 'Mumbai'],
      ['Peking', 'Beijing'],
      ['Saigon', 'Ho Chi Minh City'],
      ['Calcutta', 'Kolkata'],
    ])
      expect(at(former as string).name).toBe(now);
  });

  it('free text is its last part that is a city; nonsense and the first three letters are nothing', () => {
    expect(at('Dubai Marina, Dubai')).toMatchObject({ name: 'Dubai', partial: true });
    expect(destinations().resolve('Atlantis-under-the-sea')).toHaveProperty('unknown');
    expect(destinations().resolve('Birx')).toHaveProperty('unknown');
  });

  it('a transfer point named by a city is in that city’s time zone', () => {
    expect(locations().place('Birmingham')).toMatchObject({ kind: 'coordinates', timezone: 'Europe/London' });
    expect(locations().place('Portland, Maine')).toMatchObject({ timezone: 'America/New_York' });
    expect(locations().place('Atlantis The Palm, Dubai')).toEqual({ kind: 'text', timezone: null });
  });
});
