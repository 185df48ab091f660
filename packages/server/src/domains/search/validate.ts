/**
 * Rules the JSON schema cannot say: leg count per journey type, dates not in the past, passenger mix,
 * places the reference data knows (422 `unknown_location` naming the field), and that
 * companyCode/userCode name the caller (contracts section 5). Errors are 400 with the contract's codes,
 * 422, or 403 `company_mismatch`. Transfer times are converted to the suppliers' local form
 * (transport/search-input.ts).
 */

import { destinations } from '../../internal/places/places.ts';
import {
  badRequest,
  forbidden,
  unauthorized,
  ValidationError,
  type ValidationIssue,
} from '../../kernel/errors.ts';
import type { RequestContext } from '../../kernel/types.ts';
import type { OwnUserCode } from '../../search/session-store.ts';
import { locations } from './locations.ts';
import { transportSearchInput } from './transport-input.ts';

type Body = Record<string, unknown>;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const today = (now: Date) => now.toISOString().slice(0, 10);
const validDate = (s: string) => DATE.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`));

/**
 * The codes a search names must be the caller's own: another company's code, or another user's code, is
 * 403 `company_mismatch`; a super_admin may act for anyone. The company code is checked here, against the
 * caller's standing. A user code can change at any time, so it is checked against the caller's `users`
 * row by the statement that records the session (no read of its own before the 202): this returns that
 * check (`OwnUserCode`), or undefined when there is none to make.
 */
export function ownCodes(
  ctx: RequestContext,
  companyCode: unknown,
  userCode: unknown,
): OwnUserCode | undefined {
  const auth = ctx.auth;
  if (!auth) throw unauthorized('not_authenticated', 'Authentication required.');
  if (auth.role === 'super_admin') return undefined;
  if (typeof companyCode === 'string' && companyCode !== '') {
    if (!auth.companyCode || auth.companyCode.toLowerCase() !== companyCode.toLowerCase()) throw mismatch();
  }
  if (typeof userCode !== 'string' || userCode === '') return undefined;
  const code = userCode.toLowerCase();
  // Accounts without a user_code may name themselves by id or e-mail.
  const byCaller = [auth.userId, auth.email].filter((v): v is string => typeof v === 'string');
  return {
    code: userCode,
    namesCaller: byCaller.some((c) => c.toLowerCase() === code),
    confirm(row) {
      const own = row?.user_code ? [row.user_code] : [...byCaller, row?.email];
      if (!own.some((c) => typeof c === 'string' && c.toLowerCase() === code)) throw mismatch();
    },
  };
}

const mismatch = () => forbidden('company_mismatch', 'companyCode and userCode must be your own.');

export function validateFlightSearch(b: Body, now: Date): void {
  const legs = Array.isArray(b.searchAirLegs) ? (b.searchAirLegs as Body[]) : [];
  const journey = (b.journeyType as string) ?? 'OneWay';
  const n = legs.length;
  if (n === 0) throw badRequest('invalid_search', 'searchAirLegs needs at least one leg.');
  if (journey === 'OneWay' && n !== 1)
    throw badRequest('invalid_search', 'A OneWay search has exactly one leg.');
  if (journey === 'Return' && n !== 2)
    throw badRequest('invalid_search', 'A Return search has exactly two legs.');
  if (journey === 'MultiCity' && (n < 2 || n > 6))
    throw badRequest('invalid_search', 'A MultiCity search has 2 to 6 legs.');
  let prev = today(now);
  for (const [i, leg] of legs.entries()) {
    const origin = String(leg.origin ?? '').toUpperCase();
    const destination = String(leg.destination ?? '').toUpperCase();
    const date = String(leg.departureDate ?? '');
    if (!/^[A-Z]{3}$/.test(origin) || !/^[A-Z]{3}$/.test(destination)) {
      throw badRequest('invalid_search', `Leg ${i + 1}: origin and destination must be IATA codes.`);
    }
    if (origin === destination)
      throw badRequest('invalid_search', `Leg ${i + 1}: origin and destination are the same.`);
    if (!validDate(date)) throw badRequest('invalid_date', `Leg ${i + 1}: departureDate must be YYYY-MM-DD.`);
    if (date < prev) {
      throw badRequest(
        'invalid_date',
        i === 0 ? 'The departure date is in the past.' : `Leg ${i + 1} departs before the previous leg.`,
      );
    }
    prev = date;
  }
  // Every leg's codes at once, so one answer names every place to fix.
  const unknown: ValidationIssue[] = [];
  for (const [i, leg] of legs.entries()) {
    for (const side of ['origin', 'destination'] as const) {
      const code = String(leg[side]).toUpperCase();
      if (!locations().code(code))
        unknown.push({
          loc: ['body', 'searchAirLegs', i, side],
          msg: `${code} is not a known airport or city code.`,
          type: 'unknown_location',
        });
    }
  }
  if (unknown.length > 0) throw new ValidationError(unknown, 'unknown_location');
  const adults = typeof b.adults === 'number' ? b.adults : 1;
  const children = typeof b.children === 'number' ? b.children : 0;
  const infants = typeof b.infants === 'number' ? b.infants : 0;
  const ages = Array.isArray(b.childAge) ? b.childAge : [];
  if (infants > adults) throw badRequest('invalid_passenger_mix', 'At most one infant per adult.');
  if (adults + children > 9) throw badRequest('invalid_passenger_mix', 'At most 9 seated passengers.');
  if (ages.length > 0 && ages.length !== children) {
    throw badRequest('invalid_passenger_mix', 'childAge needs one age per child.');
  }
}

export function validateHotelSearch(b: Body, now: Date): void {
  const ci = String(b.check_in ?? '');
  const co = String(b.check_out ?? '');
  if (!validDate(ci) || !validDate(co))
    throw badRequest('invalid_date', 'check_in and check_out must be YYYY-MM-DD.');
  if (ci < today(now)) throw badRequest('invalid_date', 'check_in is in the past.');
  if (co <= ci) throw badRequest('invalid_date', 'check_out must be after check_in.');
  const nights = (Date.parse(co) - Date.parse(ci)) / 86_400_000;
  if (nights > 30) throw badRequest('invalid_search', 'At most 30 nights per search.');
  const destination = String(b.destination ?? '');
  const place = destinations().resolve(destination);
  if ('unknown' in place)
    throw new ValidationError(
      [{ loc: ['body', 'destination'], msg: place.unknown, type: 'unknown_location' }],
      'unknown_location',
    );
}

/** The transfer search body as the suppliers take it (times in local form), or 400/422. */
export function validateTransportSearch(b: Body, now: Date): Body {
  return transportSearchInput(b, now);
}
