/**
 * Country keys for the `country` filter, which accepts a name or an ISO 3166-1 alpha-2 code. OpenFlights
 * stores English names only, some of them dated ("Burma", "Swaziland"), so each record gets a key: its ISO
 * code when the name resolves (ICU's English region names plus the aliases below), else its normalised name.
 */

import { normalize } from './normalize.ts';

// OpenFlights spellings and common short forms that ICU's English region names do not cover.
const ALIASES: Record<string, string> = {
  'cote d ivoire': 'CI',
  'ivory coast': 'CI',
  'congo brazzaville': 'CG',
  'republic of the congo': 'CG',
  'congo kinshasa': 'CD',
  'democratic republic of the congo': 'CD',
  swaziland: 'SZ',
  'saint helena': 'SH',
  reunion: 'RE',
  'sao tome and principe': 'ST',
  'saint pierre and miquelon': 'PM',
  'czech republic': 'CZ',
  'bosnia and herzegovina': 'BA',
  turkey: 'TR',
  macedonia: 'MK',
  'turks and caicos islands': 'TC',
  'wallis and futuna': 'WF',
  'midway islands': 'UM',
  'johnston atoll': 'UM',
  'wake island': 'UM',
  'antigua and barbuda': 'AG',
  'virgin islands': 'VI',
  'saint kitts and nevis': 'KN',
  'saint lucia': 'LC',
  'saint vincent and the grenadines': 'VC',
  'trinidad and tobago': 'TT',
  'hong kong': 'HK',
  macau: 'MO',
  burma: 'MM',
  myanmar: 'MM',
  'east timor': 'TL',
  palestine: 'PS',
  'lao peoples democratic republic': 'LA',
  'netherlands antilles': 'AN',
  uk: 'GB',
  'great britain': 'GB',
  usa: 'US',
  'united states of america': 'US',
  uae: 'AE',
  'south korea': 'KR',
  'north korea': 'KP',
  russia: 'RU',
};

let byName: Map<string, string> | null = null;

function names(): Map<string, string> {
  if (byName) return byName;
  const m = new Map<string, string>();
  const dn = new Intl.DisplayNames(['en'], { type: 'region' });
  const A = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  for (const a of A) {
    for (const b of A) {
      const code = a + b;
      let name: string | undefined;
      try {
        // ICU also names deprecated codes (DD "Germany", UK "United Kingdom"): keep canonical ones only.
        if (Intl.getCanonicalLocales(`und-${code}`)[0] !== `und-${code}`) continue;
        name = dn.of(code);
      } catch {
        continue;
      }
      if (name && name !== code) m.set(normalize(name), code);
    }
  }
  for (const [k, v] of Object.entries(ALIASES)) m.set(k, v);
  byName = m;
  return m;
}

/** ISO 3166-1 alpha-2 code for a country name, or null when unknown. */
export function isoCode(name: string): string | null {
  return names().get(normalize(name)) ?? null;
}

/** The key a record's country is indexed under (ISO code when known). */
export function countryKey(name: string): string {
  return isoCode(name) ?? normalize(name);
}

/** The key a `country` filter value selects: a 2-letter value is read as an ISO code. */
export function filterKey(input: string): string {
  const t = input.trim();
  if (/^[A-Za-z]{2}$/.test(t)) {
    const aliased = ALIASES[t.toLowerCase()];
    return aliased ?? t.toUpperCase();
  }
  return countryKey(t);
}
