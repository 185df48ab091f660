/**
 * The one currency table of the platform (contracts.md §6): the 15 currencies of the spec and their ISO 4217
 * minor-unit exponent. The server, the SDK, the CLI and the supplier emulators import this file; nothing
 * else knows how many decimals a currency has, and nothing divides by a hard-coded 100.
 *
 * `payable_step_minor` is the payment provider's rule on top of ISO 4217: Stripe accepts three-decimal
 * currencies (BHD, KWD, OMR) on PaymentIntents and Refunds only when the least-significant digit is 0
 * ("your integration must round amounts to the nearest ten", https://docs.stripe.com/currencies,
 * three-decimal currencies). Every price the platform shows in such a currency is therefore a multiple
 * of 10 fils/baisa, so that what is charged is exactly what was shown.
 *
 * Pure data and arithmetic, no imports: bundled as is into the SDK.
 */

export interface CurrencyInfo {
  /** ISO 4217 minor-unit exponent: 3 means 1 KWD = 1000 fils. */
  readonly minor_units: number;
  /** The smallest amount, in minor units, the payment provider accepts as a step (Stripe: 10 for three-decimal currencies). */
  readonly payable_step_minor: number;
  readonly name: string;
}

export const CURRENCY_TABLE = {
  GBP: { minor_units: 2, payable_step_minor: 1, name: 'Pound sterling' },
  USD: { minor_units: 2, payable_step_minor: 1, name: 'US dollar' },
  EUR: { minor_units: 2, payable_step_minor: 1, name: 'Euro' },
  BDT: { minor_units: 2, payable_step_minor: 1, name: 'Bangladeshi taka' },
  SAR: { minor_units: 2, payable_step_minor: 1, name: 'Saudi riyal' },
  AED: { minor_units: 2, payable_step_minor: 1, name: 'UAE dirham' },
  BHD: { minor_units: 3, payable_step_minor: 10, name: 'Bahraini dinar' },
  QAR: { minor_units: 2, payable_step_minor: 1, name: 'Qatari riyal' },
  KWD: { minor_units: 3, payable_step_minor: 10, name: 'Kuwaiti dinar' },
  OMR: { minor_units: 3, payable_step_minor: 10, name: 'Omani rial' },
  PKR: { minor_units: 2, payable_step_minor: 1, name: 'Pakistani rupee' },
  INR: { minor_units: 2, payable_step_minor: 1, name: 'Indian rupee' },
  MYR: { minor_units: 2, payable_step_minor: 1, name: 'Malaysian ringgit' },
  SGD: { minor_units: 2, payable_step_minor: 1, name: 'Singapore dollar' },
  LKR: { minor_units: 2, payable_step_minor: 1, name: 'Sri Lankan rupee' },
} as const satisfies Record<string, CurrencyInfo>;

export type Currency = keyof typeof CURRENCY_TABLE;

/** The allowed codes, in the spec's order. */
export const CURRENCIES = Object.keys(CURRENCY_TABLE) as readonly Currency[] as readonly [
  Currency,
  ...Currency[],
];

export function isCurrency(code: unknown): code is Currency {
  return typeof code === 'string' && Object.hasOwn(CURRENCY_TABLE, code);
}

function info(currency: string): CurrencyInfo {
  const c = currency.toUpperCase();
  if (!isCurrency(c)) throw new RangeError(`unsupported currency: ${currency}`);
  return CURRENCY_TABLE[c];
}

/** ISO 4217 exponent of `currency` (2 for GBP, 3 for KWD); throws on a currency outside the list. */
export function minorUnits(currency: string): number {
  return info(currency).minor_units;
}

/** Minor units per major unit as an exact integer (100 for GBP, 1000 for KWD). */
export function minorPerMajor(currency: string): number {
  return 10 ** minorUnits(currency);
}

/** The payment provider's step in minor units (10 for BHD, KWD, OMR; 1 otherwise). */
export function payableStepMinor(currency: string): number {
  return info(currency).payable_step_minor;
}

/** Rounds half away from zero at the integer after trimming float noise (1.005 * 100 → 100.5, not 100.4999…). */
export function roundHalfAway(x: number): number {
  const clean = Number(x.toPrecision(15));
  return Math.sign(clean) * Math.round(Math.abs(clean)) || 0;
}

/**
 * `minor` (an exact amount, possibly fractional) rounded once, half away from zero, to the currency's
 * payable step: 55123 KWD → 55120, 55125 → 55130, 12.5 GBP → 13.
 */
export function toPayable(minor: number, currency: string): number {
  const step = payableStepMinor(currency);
  return step === 1 ? roundHalfAway(minor) : roundHalfAway(minor / step) * step;
}

/** Whether the payment provider accepts `minor` as an amount of `currency`. */
export function isPayable(minor: number, currency: string): boolean {
  return Number.isInteger(minor) && minor % payableStepMinor(currency) === 0;
}

/** Exact decimal text of a minor amount: 1250 GBP → "12.50", 55000 KWD → "55.000", -5 USD → "-0.05". */
export function toDecimalString(minor: number, currency: string): string {
  if (!Number.isInteger(minor)) throw new RangeError(`minor units must be an integer: ${minor}`);
  const e = minorUnits(currency);
  const sign = minor < 0 ? '-' : '';
  const digits = String(Math.abs(minor)).padStart(e + 1, '0');
  return e === 0 ? `${sign}${digits}` : `${sign}${digits.slice(0, -e)}.${digits.slice(-e)}`;
}

/** Decimal text or number in major units ("12.5", 12.5) to minor units (1250), rounded half away from zero. */
export function toMinorUnits(major: number | string, currency: string): number {
  const n = typeof major === 'string' ? Number(major) : major;
  if (!Number.isFinite(n)) throw new RangeError(`not a finite amount: ${major}`);
  return roundHalfAway(n * minorPerMajor(currency));
}

/** Minor units to a major-unit number (for comparisons with major-unit thresholds such as `min_fare`). */
export function toMajorUnits(minor: number, currency: string): number {
  return minor / minorPerMajor(currency);
}
