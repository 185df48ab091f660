/** Table-driven tests of the parse functions: flags in, typed options or a UsageError naming the flag out. */
import { describe, expect, it } from 'vitest';
import { parseBookOptions } from '../src/commands/book.ts';
import { parseConfigKey } from '../src/commands/config.ts';
import { parseLoginOptions } from '../src/commands/login.ts';
import { parseFlightSearchOptions, type RawFlightFlags } from '../src/commands/search-flight.ts';
import { parseHotelSearchOptions } from '../src/commands/search-hotel.ts';
import { parseTransportSearchOptions } from '../src/commands/search-transport.ts';
import { parseSeatSelectOptions } from '../src/commands/seats.ts';
import { parseSmokeOptions } from '../src/commands/smoke.ts';
import { UsageError } from '../src/errors.ts';
import { parseGuard } from '../src/guard.ts';
import { bookingRef } from '../src/parse.ts';

const base = { from: 'lhr', to: 'DXB', date: '2026-12-20' };

describe('parseFlightSearchOptions', () => {
  const ok: [string, RawFlightFlags, boolean, Record<string, unknown>][] = [
    [
      'defaults',
      base,
      false,
      { from: 'LHR', to: 'DXB', adults: 1, children: 0, mode: 'plain', limit: 20, returnDate: undefined },
    ],
    ['terminal', base, true, { mode: 'interactive' }],
    ['json', { ...base, json: true }, true, { mode: 'json' }],
    ['ndjson', { ...base, ndjson: true }, false, { mode: 'ndjson' }],
    ['return trip', { ...base, return: '2026-12-27' }, false, { returnDate: '2026-12-27' }],
    [
      'party and cabin',
      { ...base, adults: '2', children: '1', cabin: 'business', airline: 'ek' },
      false,
      { adults: 2, children: 1, cabin: 'Business', airline: 'EK' },
    ],
    ['suppliers', { ...base, supplier: ['duffel'] }, false, { suppliers: ['duffel'] }],
  ];
  it.each(ok)('%s', (_name, raw, interactive, expected) => {
    expect(parseFlightSearchOptions(raw, interactive)).toMatchObject(expected);
  });

  const bad: [string, RawFlightFlags, RegExp][] = [
    ['missing --from', { to: 'DXB', date: '2026-12-20' }, /--from/],
    ['missing --to', { from: 'LHR', date: '2026-12-20' }, /--to/],
    ['missing --date', { from: 'LHR', to: 'DXB' }, /--date/],
    ['bad IATA', { ...base, from: 'LONDON' }, /--from must be a 3-letter IATA code/],
    ['bad date', { ...base, date: '20/12/2026' }, /--date must be a date/],
    ['return before outbound', { ...base, return: '2026-12-01' }, /--return/],
    ['same airports', { ...base, to: 'LHR' }, /must differ/],
    ['too many adults', { ...base, adults: '10' }, /--adults/],
    ['cabin', { ...base, cabin: 'Luxury' }, /--cabin must be one of Economy, Premium, Business, First/],
    ['airline', { ...base, airline: 'EMIRATES' }, /--airline/],
    ['supplier', { ...base, supplier: ['sabre'] }, /--supplier/],
    ['json and ndjson', { ...base, json: true, ndjson: true }, /exclude/],
  ];
  it.each(bad)('rejects %s', (_name, raw, message) => {
    expect(() => parseFlightSearchOptions(raw, false)).toThrow(UsageError);
    expect(() => parseFlightSearchOptions(raw, false)).toThrow(message);
  });
});

describe('parseBookOptions', () => {
  const full = { offer: 'off_1', passengers: 'pax.json', contact: 'ada@example.org,+447700900123' };
  const cases: [
    string,
    Parameters<typeof parseBookOptions>[0],
    boolean,
    NodeJS.ProcessEnv,
    Record<string, unknown> | RegExp,
  ][] = [
    [
      'flag-driven',
      full,
      false,
      {},
      {
        offerId: 'off_1',
        contactEmail: 'ada@example.org',
        contactPhone: '+447700900123',
        fresh: false,
        waitSeconds: 60,
      },
    ],
    [
      'separate contact flags',
      { offer: 'o', passengers: 'p', contactEmail: 'a@b.c', contactPhone: '12345' },
      false,
      {},
      { contactEmail: 'a@b.c' },
    ],
    ['key from env', full, false, { TRAVEL_IDEMPOTENCY_KEY: 'k-1' }, { idempotencyKey: 'k-1' }],
    [
      'key flag wins',
      { ...full, idempotencyKey: 'k-2' },
      false,
      { TRAVEL_IDEMPOTENCY_KEY: 'k-1' },
      { idempotencyKey: 'k-2' },
    ],
    ['--new', { ...full, new: true }, false, {}, { fresh: true }],
    ['payment mode', { ...full, paymentMode: 'payment_first' }, false, {}, { paymentMode: 'PAYMENT_FIRST' }],
    ['terminal needs no flags', {}, true, {}, { offerId: undefined }],
    ['no terminal: --offer', { passengers: 'p', contact: 'a@b.c,12345' }, false, {}, /missing --offer/],
    ['no terminal: --passengers', { offer: 'o', contact: 'a@b.c,12345' }, false, {}, /missing --passengers/],
    ['no terminal: --contact-email', { offer: 'o', passengers: 'p' }, false, {}, /missing --contact-email/],
    ['bad --contact', { ...full, contact: 'just-an-email' }, false, {}, /--contact must be "email,phone"/],
    ['--new with a key', { ...full, new: true, idempotencyKey: 'k' }, false, {}, /exclude/],
    ['bad payment mode', { ...full, paymentMode: 'CASH' }, false, {}, /--payment-mode/],
  ];
  it.each(cases)('%s', (_name, raw, interactive, env, expected) => {
    if (expected instanceof RegExp) expect(() => parseBookOptions(raw, interactive, env)).toThrow(expected);
    else expect(parseBookOptions(raw, interactive, env)).toMatchObject(expected);
  });
});

describe('small parsers', () => {
  it.each([
    ['login on a terminal', () => parseLoginOptions({}, true), { email: undefined, passwordStdin: false }],
    [
      'login scripted',
      () => parseLoginOptions({ email: 'a@b.c', passwordStdin: true }, false),
      { email: 'a@b.c', passwordStdin: true },
    ],
    ['guard quote', () => parseGuard({}, false), { confirm: false, yes: false }],
    ['guard scripted', () => parseGuard({ confirm: true, yes: true }, false), { confirm: true, yes: true }],
    ['guard terminal', () => parseGuard({ confirm: true }, true), { confirm: true, yes: false }],
    ['seat', () => parseSeatSelectOptions({ segment: 's1', seat: '12a', passenger: '1' }), { seat: '12A' }],
    [
      'smoke route',
      () => parseSmokeOptions({ route: 'lhr-jfk', tag: 't1' }, {}, new Date()),
      { origin: 'LHR', destination: 'JFK', tag: 't1' },
    ],
    [
      'smoke tag from GitHub',
      () => parseSmokeOptions({}, { GITHUB_RUN_ID: '99', GITHUB_RUN_ATTEMPT: '2' }, new Date()),
      { tag: 'gh-99-2' },
    ],
    [
      'smoke tag from GitLab',
      () => parseSmokeOptions({}, { CI_PIPELINE_ID: '7' }, new Date()),
      { tag: 'gl-7' },
    ],
    [
      'smoke tag fallback',
      () => parseSmokeOptions({}, {}, new Date('2026-06-01T10:00:00Z')),
      { tag: 't-20260601T100000' },
    ],
    [
      'hotel',
      () =>
        parseHotelSearchOptions({ destination: 'DXB', checkIn: '2026-12-20', checkOut: '2026-12-23' }, false),
      { adults: 2, rooms: 1, mode: 'plain' },
    ],
    [
      'transport',
      () =>
        parseTransportSearchOptions(
          { pickup: 'DXB', dropoff: 'Atlantis', at: '2026-12-20T14:30', type: 'private' },
          false,
        ),
      { type: 'PRIVATE', passengers: 1 },
    ],
  ])('%s', (_name, parse, expected) => {
    expect(parse()).toMatchObject(expected);
  });

  it.each([
    ['login without a terminal names --email', () => parseLoginOptions({}, false), /--email/],
    [
      'login without a terminal names --password-stdin',
      () => parseLoginOptions({ email: 'a@b.c' }, false),
      /--password-stdin/,
    ],
    ['--confirm without a terminal needs --yes', () => parseGuard({ confirm: true }, false), /--yes/],
    ['seat needs --segment', () => parseSeatSelectOptions({ seat: '1A', passenger: '1' }), /--segment/],
    ['smoke route shape', () => parseSmokeOptions({ route: 'LHRDXB' }, {}, new Date()), /--route/],
    ['config key', () => parseConfigKey('token'), /unknown key/],
    [
      'hotel dates',
      () =>
        parseHotelSearchOptions({ destination: 'DXB', checkIn: '2026-12-23', checkOut: '2026-12-20' }, false),
      /--check-out/,
    ],
    [
      'transport time',
      () => parseTransportSearchOptions({ pickup: 'DXB', dropoff: 'x', at: 'tomorrow' }, false),
      /--at/,
    ],
    ['booking ref', () => bookingRef('not a pnr'), /<booking>/],
  ])('%s', (_name, parse, message) => {
    expect(parse).toThrow(UsageError);
    expect(parse).toThrow(message);
  });

  it('config keys accept dashes', () => {
    expect(parseConfigKey('base-url')).toBe('base_url');
  });
});
