/**
 * Money in integer minor units. How many decimals a currency has comes from the contract's one currency
 * table (`contract/currencies.ts`, ISO 4217: BHD, KWD and OMR have three, the other allowed currencies two);
 * this module only adds the server's conveniences on top of it. Floats appear only at the edges (a rule's
 * `amount`, a major-unit threshold); arithmetic happens on integers.
 */

import {
  type Currency,
  isCurrency,
  isPayable,
  minorUnits,
  payableStepMinor,
  roundHalfAway,
  toDecimalString,
  toMajorUnits,
  toMinorUnits,
  toPayable,
} from '@travel/contract/currencies';

export { type Currency, isPayable, payableStepMinor, roundHalfAway, toDecimalString, toPayable };

/**
 * A stored currency code (a char(3) column, a jsonb field) as the contract's `Currency`; throws on a code
 * outside the table (the data is wrong, not the caller).
 */
export function storedCurrency(code: string): Currency {
  const c = code.trim();
  if (isCurrency(c)) return c;
  throw new RangeError(`unsupported stored currency: ${code}`);
}

/** Decimal places of `currency`; throws on a currency outside the allowed list. */
export function exponent(currency: string): number {
  return minorUnits(currency);
}

/** Major units (e.g. 12.5 GBP, or the supplier's text "12.50") to minor units (1250). */
export function toMinor(major: number | string, currency: string): number {
  return toMinorUnits(major, currency);
}

/** Minor units to a major-unit number (for display and comparisons with major-unit thresholds). */
export function fromMinor(minor: number, currency: string): number {
  return toMajorUnits(minor, currency);
}

/** Exact major-unit text with the currency's decimals, as suppliers and providers take it: 55000 KWD → "55.000". */
export function toAmountText(minor: number, currency: string): string {
  return toDecimalString(Math.round(minor), currency);
}

/** `percent` % of `minor`, rounded half away from zero to the minor unit (a percentage, not a currency unit). */
export function percentOf(minor: number, percent: number): number {
  return roundHalfAway((minor * percent) / 100);
}

/** Human display: "GBP 12.50", "BHD 1.234". Locale-free so logs, e-mails and tests agree. */
export function format(minor: number, currency: string): string {
  return `${currency.toUpperCase()} ${toDecimalString(minor, currency)}`;
}
