import { describe, expect, it } from 'vitest';
import { canonical, journalKey, replayNotice } from '../src/journal.ts';

const ada = {
  type: 'ADT',
  first_name: 'Ada',
  last_name: 'Lovelace',
  gender: 'F',
  date_of_birth: '1985-12-10',
  document: { type: 'passport', number: 'P1234567', expiry: '2026-12-01', issuing_country: 'GB' },
};
const alan = { ...ada, first_name: 'Alan', last_name: 'Turing', gender: 'M' };
const body = {
  offer_id: 'of_1',
  currency: 'GBP',
  passengers: [ada, alan],
  contact: { email: 'ada@example.org', phone: '+447700900123' },
  payment_mode: 'PNR_FIRST',
  client_ref: 'r1',
};
const key = (over: Record<string, unknown> = {}, profile = 'default') =>
  journalKey({ profile, body: { ...body, ...over } });

describe('book journal key', () => {
  it('is the same for the same request, whatever the order of its fields', () => {
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    expect(journalKey({ profile: 'default', body: reordered })).toBe(key());
  });

  it.each([
    ['currency', { currency: 'USD' }],
    ['offer', { offer_id: 'of_2' }],
    ['reference', { client_ref: 'r2' }],
    ['travellers', { passengers: [ada] }],
    [
      'a passport expiry',
      { passengers: [{ ...ada, document: { ...ada.document, expiry: '2030-01-01' } }, alan] },
    ],
    [
      'a passport number',
      { passengers: [{ ...ada, document: { ...ada.document, number: 'P7654321' } }, alan] },
    ],
    ['the contact', { contact: { email: 'ada@example.org', phone: '+447700900999' } }],
    ['the payment mode', { payment_mode: 'PNR_ONLY' }],
    ['the travellers’ order (the server compares arrays in order)', { passengers: [alan, ada] }],
  ])('differs when %s differs (another request, a fresh key)', (_what, change) => {
    expect(key(change)).not.toBe(key());
  });

  it('differs by profile', () => expect(key({}, 'staging')).not.toBe(key()));

  it('canonical JSON sorts keys and drops undefined members, as the server hashes a body', () => {
    expect(canonical({ b: 1, a: [{ d: undefined, c: 'x' }] })).toBe('{"a":[{"c":"x"}],"b":1}');
  });
});

describe('replay notice', () => {
  const choice = (previous: Record<string, unknown>) => ({
    idempotencyKey: 'k1',
    source: 'journal' as const,
    previous: { idempotencyKey: 'k1', offerId: 'of_1', createdAt: '2026-11-28T10:00:00Z', ...previous },
  });
  it('names the booking the server will answer with', () => {
    expect(replayNotice(choice({ bookingId: 19, pnr: 'HJMNKN' }))).toContain(
      'the server answers with booking 19 (PNR HJMNKN) again',
    );
  });
  it('does not claim a booking when the earlier run got no answer', () => {
    const text = replayNotice(choice({}));
    expect(text).toContain('that run got no answer');
    expect(text).not.toMatch(/replays that booking/);
  });
});
