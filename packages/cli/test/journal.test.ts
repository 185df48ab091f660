import { describe, expect, it } from 'vitest';
import { journalKey } from '../src/journal.ts';
import type { Passenger } from '../src/passengers.ts';

const ada = {
  type: 'ADT',
  first_name: 'Ada',
  last_name: 'Lovelace',
  gender: 'F',
  date_of_birth: '1985-12-10',
} as Passenger;
const alan = { ...ada, first_name: 'Alan', last_name: 'Turing', gender: 'M' } as Passenger;
const base = {
  profile: 'default',
  offerId: 'of_1',
  currency: 'GBP',
  passengers: [ada, alan],
  reference: 'r1',
};

describe('book journal key', () => {
  it('is the same for the same request, whatever the travellers’ order or letter case', () => {
    const shuffled = [{ ...alan, last_name: 'TURING' }, ada];
    expect(journalKey({ ...base, passengers: shuffled })).toBe(journalKey(base));
  });

  it.each([
    ['currency', { currency: 'USD' }],
    ['offer', { offerId: 'of_2' }],
    ['reference', { reference: 'r2' }],
    ['profile', { profile: 'staging' }],
    ['travellers', { passengers: [ada] }],
  ])('differs when the %s differs (another request, a fresh key)', (_what, change) => {
    expect(journalKey({ ...base, ...change })).not.toBe(journalKey(base));
  });
});
