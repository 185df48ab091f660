/**
 * Money in integer minor units. The exponent is per currency (ISO 4217): BHD, KWD and OMR have three
 * decimals (1 BHD = 1000 fils); every other allowed currency has two. Floats appear only at the edges
 * (a rule's `amount`, a displayed price); arithmetic happens on integers.
 */

export const CURRENCY_EXPONENTS = {
  GBP: 2,
  USD: 2,
  EUR: 2,
  BDT: 2,
  SAR: 2,
  AED: 2,
  BHD: 3,
  QAR: 2,
  KWD: 3,
  OMR: 3,
  PKR: 2,
  INR: 2,
  MYR: 2,
  SGD: 2,
  LKR: 2,
} as const;

export type Currency = keyof typeof CURRENCY_EXPONENTS;

export const CURRENCIES = Object.keys(CURRENCY_EXPONENTS) as Currency[];

export function isCurrency(code: string): code is Currency {
  return Object.hasOwn(CURRENCY_EXPONENTS, code);
}

/** Decimal places of `currency`; throws on a currency outside the allowed list. */
export function exponent(currency: string): number {
  const c = currency.toUpperCase();
  if (!isCurrency(c)) throw new RangeError(`unsupported currency: ${currency}`);
  return CURRENCY_EXPONENTS[c];
}

/**
 * Rounds half away from zero at the integer, after trimming float noise (1.005 * 100 is 100.49999...; at
 * 15 significant digits it is 100.5, which is what the caller wrote).
 */
export function roundHalfAway(x: number): number {
  const clean = Number(x.toPrecision(15));
  return Math.sign(clean) * Math.round(Math.abs(clean));
}

/** Major units (e.g. 12.5 GBP) to minor units (1250). */
export function toMinor(major: number, currency: string): number {
  if (!Number.isFinite(major)) throw new RangeError(`not a finite amount: ${major}`);
  return roundHalfAway(major * 10 ** exponent(currency)) || 0;
}

/** Minor units to a major-unit number (for display and comparisons with major-unit thresholds). */
export function fromMinor(minor: number, currency: string): number {
  return minor / 10 ** exponent(currency);
}

/** Exact decimal string of a minor amount: 1250 GBP -> "12.50", 1234 BHD -> "1.234", -5 USD -> "-0.05". */
export function toDecimalString(minor: number, currency: string): string {
  if (!Number.isInteger(minor)) throw new RangeError(`minor units must be an integer: ${minor}`);
  const e = exponent(currency);
  const sign = minor < 0 ? '-' : '';
  const digits = String(Math.abs(minor)).padStart(e + 1, '0');
  return `${sign}${digits.slice(0, digits.length - e)}.${digits.slice(digits.length - e)}`;
}

/** Human display: "GBP 12.50", "BHD 1.234". Locale-free so logs, e-mails and tests agree. */
export function format(minor: number, currency: string): string {
  return `${currency.toUpperCase()} ${toDecimalString(minor, currency)}`;
}
