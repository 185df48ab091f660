/**
 * Redacted excerpts (observability/redact.ts): the key decisions are remembered per key name (issue 31,
 * CPU per supplier call); a remembered decision is the same as a fresh one, for secret and plain keys,
 * camelCase and dashed spellings, and still after the memory has been filled past its bound.
 */
import { describe, expect, it } from 'vitest';
import { excerpt, redacted } from '../../src/observability/redact.ts';

const sample = {
  clientSecret: 'abc',
  'api-key': 'k',
  passengers: [{ first_name: 'Ayesha', document: { number: 'P1' }, dateOfBirth: '1990-04-02' }],
  pnr: 'ABC123',
  contact: { email: 'a@example.test', phone: '+44' },
};
const expected = {
  clientSecret: '[redacted]',
  'api-key': '[redacted]',
  passengers: [{ first_name: 'Ayesha', document: '[redacted]', dateOfBirth: '[redacted]' }],
  pnr: 'ABC123',
  contact: { email: '[redacted]', phone: '[redacted]' },
};

describe('redact', () => {
  it('hides the same keys the first time and every time after', () => {
    expect(redacted(sample)).toEqual(expected);
    expect(redacted(sample)).toEqual(expected);
    expect(JSON.parse(excerpt(sample) as string)).toEqual(expected);
  });

  it('decides the same after many distinct key names (the remembered decisions are bounded)', () => {
    for (let i = 0; i < 3; i++) {
      const many = Object.fromEntries(Array.from({ length: 2000 }, (_, j) => [`k${i}_${j}`, j]));
      for (let j = 0; j < 2000; j += 20) redacted(Object.fromEntries(Object.entries(many).slice(j, j + 20)));
    }
    expect(redacted(sample)).toEqual(expected);
    expect(redacted({ user_token: 't', tokenizer: 'x', cardholder_name: 'A' })).toEqual({
      user_token: '[redacted]',
      tokenizer: 'x',
      cardholder_name: 'A',
    });
  });
});
